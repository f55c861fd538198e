"""A Linux desktop without a Chinese font is told what to install (in words it can still read)."""

from __future__ import annotations

from desktop.fonts import INSTALL_HINT, chinese_families, missing_cjk_font, missing_font_message
from desktop.i18n import LanguageManager


def test_only_linux_without_a_chinese_font_is_warned(qapp) -> None:  # type: ignore[no-untyped-def]
    assert missing_cjk_font(lambda: [], "linux")
    assert not missing_cjk_font(lambda: ["WenQuanYi Micro Hei"], "linux")
    assert not missing_cjk_font(lambda: [], "win32")
    assert not missing_cjk_font(lambda: [], "darwin")


def test_this_machine_can_draw_chinese(qapp) -> None:  # type: ignore[no-untyped-def]
    """The screenshots and GUI tests need it; .ci/run installs fonts-wqy-microhei."""
    assert chinese_families() != []


def test_the_message_names_the_package_and_keeps_english_beside_chinese(qapp, tmp_path) -> None:  # type: ignore[no-untyped-def]
    LanguageManager(tmp_path / "cache").apply("zh_CN")
    title, body = missing_font_message()
    assert "未找到中文字体" in title and "No Chinese font" in title
    assert INSTALL_HINT in body and "方框" in body and "boxes" in body
