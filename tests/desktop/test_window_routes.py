"""Every window the tray menu opens also opens from the main window, with no tray at all (stock
GNOME has none): 今晚简报, 概览·成本与质量, a stage reminder's action window (from its banner),
入门向导, 设置 and the assistant."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QSystemTrayIcon, QToolBar

from core.app import App
from desktop.app import DesktopApp
from desktop.reopen import alive
from tests.desktop.seed import seed_inquiries
from tests.support.qt import settles, wait_until


async def _without_tray(app: Any, services: Any) -> DesktopApp:
    assert not QSystemTrayIcon.isSystemTrayAvailable()  # offscreen: no tray, as on GNOME
    seed_inquiries(services, 6)
    desktop = DesktopApp(app, App(services), tray=False)
    desktop.start()
    assert desktop.wizard is not None
    desktop.wizard.skip_button.click()
    assert desktop.window is not None and desktop.window.isVisible()
    await desktop.window.board.ready()
    return desktop


async def _stop(desktop: DesktopApp) -> None:
    assert desktop.sync is not None and desktop.tray is not None and desktop.window is not None
    desktop.sync.stop()
    desktop.tray.hide()  # drops a pending re-count of the (hidden) tray's badge
    await desktop.window.board.ready()  # and the board's live refresh lands in this test


@settles
async def test_briefing_opens_from_the_toolbar(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = await _without_tray(app, services)
    assert desktop.window is not None and desktop.tray is not None
    assert desktop.window.briefing_action.text() == "今晚简报"
    desktop.window.briefing_action.trigger()
    briefing = desktop.tray.rhythm.briefing
    assert briefing is not None and briefing.isVisible()
    assert briefing.loads.task is not None  # opening it started its load
    await briefing.loads.ready()
    briefing.close()
    await _stop(desktop)


@settles
async def test_overview_opens_from_the_toolbar(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = await _without_tray(app, services)
    assert desktop.window is not None and desktop.tray is not None
    assert desktop.window.stats_action.text() == "概览 · 成本与质量"
    desktop.window.stats_action.trigger()
    stats = desktop.tray.rhythm.stats
    assert stats is not None and stats.isVisible()
    assert stats.loads.task is not None
    await stats.loads.ready()
    stats.close()
    await _stop(desktop)


@settles
async def test_a_reminder_banner_opens_its_action_window(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = await _without_tray(app, services)
    window, tray, ctx = desktop.window, desktop.tray, desktop.ctx
    assert window is not None and tray is not None and ctx is not None
    assert ctx.notifications is not None
    assert desktop.sync is not None
    desktop.sync.stop()  # the daily rhythm's own alerts for the seeded jobs would replace the banner
    nid = ctx.notifications.raise_notification(
        "overdue", "跟进提醒：Amy", "已在询盘阶段 9 个工作日", "inquiry", 1, "overdue:test"
    )
    assert nid is not None
    # no tray: the alert is a banner, whose 打开 leads to the reminder's window
    await wait_until(lambda: window.banner.isVisible() and window.banner.ref == ("reminder", 1))
    window.banner.open_button.click()
    await wait_until(lambda: bool(tray.rhythm.reminders))
    dialog = tray.rhythm.reminders[0]
    assert dialog.isVisible() and dialog.inquiry_id == 1
    assert dialog.card.draft_button.isVisible()  # its one-click actions, not only the board
    dialog.close()
    await _stop(desktop)


@settles
async def test_welcome_window_settings_and_assistant_open_from_the_window(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = await _without_tray(app, services)
    window = desktop.window
    assert window is not None
    assert window.more_button.text() == "更多"
    assert window.wizard_action in window.more_menu.actions()
    window.wizard_action.trigger()
    assert alive(desktop.wizard) and desktop.wizard is not None and desktop.wizard.isVisible()
    desktop.wizard.skip_button.click()
    window.settings_action.trigger()
    assert desktop.settings_dialog is not None and desktop.settings_dialog.isVisible()
    desktop.settings_dialog.reject()
    window.assistant.toggle_action.trigger()  # 助手 in the toolbar
    assert window.chat.isVisible()
    assert window.quit_action in window.more_menu.actions()  # 退出 without a tray menu
    await _stop(desktop)


@settles
async def test_the_assistant_dock_is_built_when_first_opened(app, services) -> None:  # type: ignore[no-untyped-def]
    """The chat dock starts hidden, so it is built only when opened (#44); the toolbar's 助手
    shows and closes it, checked while it shows, and the panel names the customer the board
    selected before the dock existed."""
    desktop = await _without_tray(app, services)
    window = desktop.window
    assert window is not None
    assert not window.assistant.built
    toggle = window.assistant.toggle_action
    assert toggle in window.findChildren(QToolBar)[0].actions() and toggle.text() == "助手"
    window.board.select_row(2)
    selected = window.board.model.row_at(2)
    assert selected is not None and not window.assistant.built
    toggle.trigger()
    assert window.assistant.built and window.chat.isVisible() and toggle.isChecked()
    bar = window.chat.panel.customer_bar
    assert (bar.inquiry_id, bar.customer) == (selected.id, selected.customer_name)
    window.chat.close()  # its own ×: the button follows
    assert not toggle.isChecked()
    toggle.trigger()
    assert window.chat.isVisible()
    toggle.trigger()
    assert not window.chat.isVisible() and not toggle.isChecked()
    await _stop(desktop)
