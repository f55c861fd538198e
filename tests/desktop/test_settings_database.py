"""设置 → 数据库: 测试 says in one Chinese line what an address holds or why it cannot be used,
and changes nothing; 切换 is offered only for an address whose test succeeded.

Real widgets offscreen against a real PostgreSQL (``tests.support.postgres``); the unusable
addresses are the ones the command line is tested with (``tests/store/test_store_refusals.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from desktop.settings_dialog import SettingsDialog
from tests.store.test_store_refusals import _snapshot
from tests.store.test_store_refusals import cases as _cases

cases = _cases


async def test_each_unusable_address_is_one_chinese_line_and_nothing_changes(
    ctx: Any, qtbot: Any, cases: list[tuple[str, str, str | None]]
) -> None:
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    page = dialog.database_page
    for url, starts, database in cases:
        before = _snapshot(database) if database else None
        page.url.setText(url)
        assert not await page.test()
        said = page.result.text()
        assert said.startswith(starts) and "\n" not in said and "未作任何改动" in said, said
        assert "not-the-password" not in said
        assert not page.switch_button.isEnabled()
        assert ctx.app.settings.text("store.url") == ""
        if database:
            assert _snapshot(database) == before


async def test_a_tested_address_can_be_switched_to(
    ctx: Any, qtbot: Any, pg_url: str, tmp_path: Path
) -> None:
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    page = dialog.database_page
    assert "本机" in page.now.text()
    assert not page.switch_button.isEnabled()
    page.url.setText(pg_url)
    assert await page.test()
    assert page.result.text().startswith("可以使用"), page.result.text()
    assert _snapshot(pg_url) == ([], [])  # the test made nothing
    assert page.switch_button.isEnabled()
    page.url.setText(pg_url + "x")  # another address: test it first
    assert not page.switch_button.isEnabled()
    page.url.setText(pg_url)
    assert await page.test()
    page.switch_button.click()
    assert ctx.app.settings.text("store.url") == pg_url
    assert "重新启动" in page.result.text() and "PostgreSQL" in page.now.text()
    page.folder_button.click()
    assert ctx.app.settings.text("store.url") == ""


@pytest.fixture(autouse=True)
def _no_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("INQUIRY_BRIDGE_DATABASE_URL", raising=False)
