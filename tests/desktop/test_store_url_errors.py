"""A store URL the desktop cannot use is one sentence in his language, never SQLAlchemy's text."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from core.errors import (
    InquiryBridgeError,
    StoreAuthRefused,
    StoreForeign,
    StoreNewer,
    StoreUnreachable,
    StoreUrlBad,
)
from desktop.errors_ui import message_for
from desktop.i18n import LanguageManager

WHERE = "postgresql+psycopg://office@nas:5432/inquiries"


@pytest.mark.parametrize(
    ("error", "zh"),
    [
        (StoreUrlBad(WHERE), "数据库地址有误"),
        (StoreUnreachable(WHERE), "连不上数据库服务器"),
        (StoreAuthRefused(WHERE), "数据库服务器拒绝了用户名或密码"),
        (StoreForeign(WHERE), "这个数据库里是别的程序的数据"),
        (StoreNewer(WHERE), "这个数据库由更新版本的询盘桥建立"),
    ],
)
def test_each_store_refusal_reads_as_its_own_chinese_sentence(
    app: QApplication, tmp_path: Path, error: InquiryBridgeError, zh: str
) -> None:
    LanguageManager(tmp_path / "cache").apply("zh_CN")
    text = message_for(error)
    assert text.startswith(zh) and WHERE in text and "未作任何改动" in text
