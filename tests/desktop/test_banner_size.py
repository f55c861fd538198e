"""An alert in the window's banner (the tray's stand-in where no system tray exists, e.g. GNOME)
keeps the window on a laptop screen: a pending-draft alert carries the whole draft, Chinese and
English, and shown whole it grew the 700-pixel window to 1,059 pixels, past a 768-pixel screen."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from desktop.main_window import MainWindow
from tests.desktop.windows import shown_main_window

DRAFT_ALERT = "\n".join(
    [
        "待审批草稿 #2：回复 Priya Sharma（询盘 #6）",
        "收件人：priya.sharma@yahoo.com.au",
        "主题：RE: URGENT - cracked glass in awning window",
        "",
        "中文内容：",
        *[f"第 {i} 行：感谢您咨询换玻璃。我们正在为您准备报价。" for i in range(30)],
        "英文原文（共 2380 字符）：",
        "Thank you for your enquiry about the glass replacement. " * 20,
    ]
)


async def test_a_whole_draft_in_the_banner_keeps_the_window_on_screen(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = await shown_main_window(ctx, qtbot, 1340, 700)

    window.show_banner("草稿待审批：回复 Priya Sharma", DRAFT_ALERT, "draft", 2)
    QApplication.processEvents()

    assert window.height() <= 700
    shown = window.banner.label.text()
    assert "待审批草稿 #2" in shown and "priya.sharma@yahoo.com.au" in shown
    assert "第 29 行" not in shown and "…" in shown  # the start, marked as cut
    assert window.banner.open_button.isVisible()  # 打开 shows the whole draft
    assert window.board.table.height() > 300  # the board keeps most of the window


async def test_a_short_alert_is_shown_whole(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show_banner("新询盘：Emma Clarke", "Manly · 淋浴房、平开门", "inquiry", 1)
    assert window.banner.label.text() == "<b>新询盘：Emma Clarke</b><br>Manly · 淋浴房、平开门"
