"""The demo is a visitor's mode: a banner says so, and the banner, the tray and the wizard all
lead back to the owner's own (real) data folder, which a restart then opens."""

from __future__ import annotations

from core.app import App
from desktop.app import MODE_KEY, DesktopApp
from tests.support.qt import settles, wait_until


def _stop(desktop: DesktopApp) -> None:
    """What 退出 does, short of quitting the test's event loop."""
    assert desktop.sync is not None and desktop.tray is not None
    desktop.sync.stop()
    desktop.tray.hide()


@settles
async def test_demo_then_leave_it_returns_to_the_real_board_for_good(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = DesktopApp(app, App(services), tray=True)
    desktop.start()
    assert desktop.wizard is not None
    desktop.wizard.demo_button.click()  # 试用示例数据
    await wait_until(lambda: desktop.ctx is not None and desktop.ctx.is_demo, timeout=60)
    window = desktop.window
    await window.board.ready()
    assert window.board.model.total >= 8
    banner = window.demo_banner
    assert banner.isVisible()
    assert "示例数据" in banner.label.text()
    assert banner.leave_button.text() == "退出示例"
    assert banner.connect_button.text() == "连接我的邮箱"
    assert desktop.tray.leave_demo_action.isVisible()
    assert desktop.tray.leave_demo_action.text() == "退出示例"
    assert not window.board.wizard_button.isVisible()  # a populated board needs no wizard

    banner.leave_button.click()  # 退出示例
    assert desktop.ctx is not None and not desktop.ctx.is_demo
    window = desktop.window
    await window.board.ready()
    assert window.isVisible()
    assert desktop.ctx.app._services.paths.home == services.paths.home
    assert window.board.model.total == 0
    assert not window.demo_banner.isVisible()
    assert "示例数据" not in window.windowTitle()
    assert not desktop.tray.leave_demo_action.isVisible()
    assert desktop.sync is not None and desktop.sync.ctx is desktop.ctx  # sync follows him back
    # the wizard is reachable: the empty board's hint is a button, and the tray has 入门向导
    assert desktop.tray.wizard_action.text() == "入门向导"
    await wait_until(lambda: window.board.wizard_button.isVisible())
    window.board.wizard_button.click()
    assert desktop.wizard is not None and desktop.wizard.isVisible()
    assert desktop.wizard.demo_button.text() == "试用示例数据"
    desktop.wizard.skip_button.click()
    await wait_until(lambda: desktop.real_app.state.peek(MODE_KEY) == "real")
    _stop(desktop)

    # a restart opens the real folder, not the demo
    again = DesktopApp(app, App(services), tray=True)
    again.start()
    assert again.ctx is not None and not again.ctx.is_demo
    assert again.window is not None and not again.window.demo_banner.isVisible()
    _stop(again)


@settles
async def test_the_wizard_opened_over_the_demo_leads_out_of_it(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = DesktopApp(app, App(services), tray=True)
    desktop.start()
    await desktop.load_demo(desktop.wizard)
    assert desktop.ctx is not None and desktop.ctx.is_demo
    desktop.tray.wizard_action.trigger()  # tray → 入门向导
    wizard = desktop.wizard
    assert wizard is not None and wizard.isVisible()
    assert wizard.demo_button.text() == "退出示例"
    wizard.sign_in_button.click()  # 登录微软: for his own folder, so the demo is left first
    assert not desktop.ctx.is_demo
    assert desktop.settings_dialog is not None and desktop.settings_dialog.ctx is desktop.ctx
    await wait_until(lambda: desktop.real_app.state.peek(MODE_KEY) == "real")
    _stop(desktop)


@settles
async def test_connect_my_mailbox_offers_both_kinds_and_closes_the_demo_drafts(  # type: ignore[no-untyped-def]
    app, services
) -> None:
    desktop = DesktopApp(app, App(services), tray=True)
    desktop.start()
    await desktop.load_demo(desktop.wizard)
    window = desktop.window
    assert window is not None and desktop.ctx is not None
    await window.board.ready()
    await window.pending.ready()
    assert window.pending.pending_count() > 0  # the demo's sample drafts
    approval = window.pending.open_row(0)
    assert approval is not None and approval.isVisible()

    # his knowledge, written over the demo, goes to his own folder
    from desktop.chat.knowledge_page import open_knowledge

    page = open_knowledge(desktop.ctx, window)
    assert page.over_demo and page.knowledge.path == desktop.real_app.knowledge.path
    assert "退出示例后仍然保留" in page.intro.text()
    page.close()

    window.demo_banner.connect_button.click()  # 连接我的邮箱
    assert desktop.ctx is not None and not desktop.ctx.is_demo
    assert not approval.isVisible()  # the demo's approval window does not stay open
    wizard = desktop.wizard
    assert wizard is not None and wizard.isVisible()
    assert wizard.sign_in_button.isVisible() and wizard.mailbox_button.isVisible()
    assert wizard.mailbox_button.text() == "连接其他邮箱"  # IMAP, not only Microsoft
    wizard.skip_button.click()

    desktop.window.sync_action.trigger()  # 立即同步 without a mailbox names both kinds
    text = desktop.window.banner.label.text()
    assert "登录微软" in text and "其他邮箱" in text
    board = desktop.window.board
    await board.ready()
    await wait_until(lambda: board.empty_hint.isVisible())
    assert "其他邮箱" in board.empty_hint.text() and "微软" in board.empty_hint.text()
    _stop(desktop)
