"""Every window and dialog opens, closes and opens again, twice, from each of its entry points.

A dialog with ``WA_DeleteOnClose`` is deleted by Qt when it closes; the app used to keep the
Python wrapper and ask it ``isVisible()`` on the next 设置 ("Internal C++ object (SettingsDialog)
already deleted"). Each test here closes a window, waits until Qt has really deleted what it
deletes, and opens it again from the same place.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QApplication, QWidget

from core.app import App
from desktop.app import DesktopApp
from desktop.reopen import alive
from desktop.settings_dialog import SettingsDialog
from tests.support.qt import settles, wait_until


def _stop(desktop: DesktopApp) -> None:
    assert desktop.sync is not None and desktop.tray is not None
    desktop.sync.stop()
    desktop.tray.hide()


async def _close(widget: QWidget) -> None:
    """Close as the owner does and let the loop run Qt's deferred deletes."""
    widget.close()
    for _ in range(5):
        await asyncio.sleep(0.01)
    assert not (alive(widget) and widget.isVisible())


async def _twice(open_it: Callable[[], Any], find: Callable[[], QWidget | None]) -> None:
    """Open, check it is on screen, close; twice, each time a live window."""
    seen: list[int] = []
    for _ in range(2):
        result = open_it()
        if asyncio.iscoroutine(result):
            await result
        await wait_until(lambda: alive(find()) and find().isVisible())  # type: ignore[union-attr]
        widget = find()
        assert widget is not None
        seen.append(id(widget))
        await _close(widget)
    assert len(seen) == 2


async def _demo(app: Any, services: Any) -> DesktopApp:
    desktop = DesktopApp(app, App(services), tray=True)
    desktop.start()
    await desktop.load_demo(desktop.wizard)
    assert desktop.window is not None
    await desktop.window.board.ready()
    return desktop


def _settings(desktop: DesktopApp) -> SettingsDialog | None:
    return desktop.settings_dialog


@settles
async def test_settings_reopens_from_the_toolbar_tray_and_ai_hint(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = DesktopApp(app, App(services), tray=True)
    desktop.start()
    assert desktop.wizard is not None
    desktop.wizard.skip_button.click()  # 以后再说
    window, tray = desktop.window, desktop.tray
    assert window is not None and tray is not None
    await _twice(window.settings_action.trigger, lambda: _settings(desktop))
    await _twice(tray.settings_action.trigger, lambda: _settings(desktop))
    # the assistant's 打开 AI 设置 (no endpoint): settings at the AI page
    await _twice(window.chat.panel.settings_button.click, lambda: _settings(desktop))
    window.chat.panel.settings_button.click()
    dialog = _settings(desktop)
    assert dialog is not None and dialog.nav.currentRow() == 1
    dialog.reject()
    _stop(desktop)


@settles
async def test_demo_banner_offers_both_mailboxes_and_wizard_reopens_settings(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = await _demo(app, services)
    for _ in range(2):  # 连接我的邮箱 leaves the demo; come back each time
        await desktop.load_demo()
        assert desktop.window is not None and desktop.ctx is not None and desktop.ctx.is_demo
        desktop.window.demo_banner.connect_button.click()
        # #42: it leaves the demo and offers both kinds of mailbox, not Microsoft's page alone
        wizard = desktop.wizard
        assert wizard is not None and wizard.isVisible()
        assert wizard.sign_in_button.isVisibleTo(wizard)  # 登录微软
        assert wizard.mailbox_button.isVisibleTo(wizard)  # 连接其他邮箱 (IMAP)
        assert not desktop.ctx.is_demo
        await _close(wizard)
    for button in ("sign_in_button", "ai_button"):
        for _ in range(2):
            wizard = desktop.show_wizard()
            getattr(wizard, button).click()
            dialog = _settings(desktop)
            assert dialog is not None and dialog.isVisible()
            assert dialog.nav.currentRow() == (0 if button == "sign_in_button" else 1)
            await _close(dialog)
    _stop(desktop)


@settles
async def test_settings_over_the_demo_edit_the_real_folder(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = await _demo(app, services)
    assert desktop.window is not None and desktop.ctx is not None and desktop.ctx.is_demo
    desktop.window.settings_action.trigger()
    dialog = _settings(desktop)
    assert dialog is not None
    assert dialog.company.text() == ""  # his profile, not the demo company's
    assert dialog.addresses.text() == ""
    dialog.company.setText("Harbour Windows")
    assert dialog.save()
    services.settings.reload()
    assert services.settings.get("general.company_name") == "Harbour Windows"
    assert (
        desktop.ctx.app._services.settings.get("general.company_name") == "Aurora Windows & Doors"
    )
    assert services.settings.get("general.owner_addresses") == []
    await _close(dialog)
    _stop(desktop)


@settles
async def test_wizard_reopens_from_the_tray_and_the_empty_board(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = DesktopApp(app, App(services), tray=True)
    desktop.start()
    assert desktop.wizard is not None
    await _close(desktop.wizard)
    window, tray = desktop.window, desktop.tray
    assert window is not None and tray is not None
    await _twice(tray.wizard_action.trigger, lambda: desktop.wizard)
    await window.board.ready()
    await wait_until(lambda: window.board.wizard_button.isVisible())
    await _twice(window.board.wizard_button.click, lambda: desktop.wizard)
    _stop(desktop)


@settles
async def test_demo_briefing_and_reminder_windows_reopen_populated(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = await _demo(app, services)
    tray = desktop.tray
    assert tray is not None and desktop.ctx is not None
    desk = tray.rhythm

    async def briefing() -> None:
        tray.briefing_action.trigger()
        assert desk.briefing is not None
        await desk.briefing.loads.ready()

    await _twice(briefing, lambda: desk.briefing)
    await briefing()
    window = desk.briefing
    assert window is not None
    assert window.briefing is not None and window.briefing.drafts_waiting  # the sample drafts
    assert "草稿" in window.counts.text()  # … and the window says they wait for him
    assert window.reminder_cards  # the demo's overdue jobs, with their buttons
    await _close(window)

    due = await desktop.ctx.app.rhythm.reminders()
    assert due, "the demo has a job overdue in its stage"
    first = due[0]
    for _ in range(2):
        dialog = desk.show_reminder(desktop.ctx.app, first.inquiry_id, "跟进提醒", "示例提醒")
        assert dialog.isVisible() and dialog.card.draft_button.isEnabled()
        await _close(dialog)
        assert dialog not in desk.reminders
    _stop(desktop)


@settles
async def test_the_demo_drafts_open_in_the_approval_window_from_both_places(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = await _demo(app, services)
    window = desktop.window
    assert window is not None
    pending = window.pending
    await pending.ready()
    assert pending.pending_count() >= 2  # made by code from the demo mail, no AI
    assert all(v.is_sample for v in pending.views)
    assert "示例" in pending.table.item(0, 4).text()
    assert window.tabs.tabText(1) == f"待审批 ({pending.pending_count()})"  # seen from the board
    draft = pending.views[0]

    def approval() -> QWidget | None:
        return pending.windows.get(draft.id)

    await _twice(lambda: pending.open_row(0), approval)
    # from the board: the inquiry's detail has 打开待审批草稿 while a draft waits
    board = window.board
    assert draft.inquiry_id is not None
    board.select_inquiry(draft.inquiry_id)
    await board.detail.ready()
    button = board.detail.header.approval_button
    assert button.isVisibleTo(board.detail) and button.text() == "打开待审批草稿"
    await _twice(button.click, approval)
    button.click()
    shown = approval()
    assert shown is not None
    await shown.ready()  # type: ignore[attr-defined]
    assert shown.en_edit.toPlainText().startswith("Hi ")  # type: ignore[attr-defined]
    assert "您好" in shown.zh_preview.toPlainText()  # type: ignore[attr-defined]
    assert shown.banner.text().startswith("示例")  # type: ignore[attr-defined]
    # 批准并发送 on a sample: said plainly, and the draft still waits (nothing is ever sent)
    assert await shown.approve_and_send() == "sample"  # type: ignore[attr-defined]
    assert "不会发送" in shown.status_label.text()  # type: ignore[attr-defined]
    shown.reload()  # type: ignore[attr-defined]
    await shown.ready()  # type: ignore[attr-defined]
    assert shown.view.status == "pending_approval"  # type: ignore[attr-defined]
    await _close(shown)
    _stop(desktop)


@settles
async def test_chat_dock_memory_page_and_compose_reopen(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = await _demo(app, services)
    window, tray = desktop.window, desktop.tray
    assert window is not None and tray is not None
    chat = window.chat
    for trigger in (chat.toggleViewAction().trigger, lambda: tray.assistant_action.trigger()):
        for _ in range(2):
            trigger()
            await wait_until(chat.isVisible)
            chat.close()
            await wait_until(lambda: not chat.isVisible())
    opened: list[QWidget] = []

    def memory() -> None:
        opened.append(chat.panel.open_memories())

    await _twice(memory, lambda: opened[-1])
    # compose: the detail's 起草回复
    board = window.board
    board.select_row(0)
    await board.detail.ready()
    before = set(QApplication.topLevelWidgets())

    def compose() -> QWidget | None:
        new = [w for w in QApplication.topLevelWidgets() if w not in before and alive(w)]
        shown = [w for w in new if type(w).__name__ == "ComposeDialog" and w.isVisible()]
        return shown[-1] if shown else None

    await _twice(board.detail.draft_button.click, compose)
    _stop(desktop)


@settles
async def test_stage_dialogs_and_the_voice_model_offer_reopen(app, services) -> None:  # type: ignore[no-untyped-def]
    from desktop.detail.dialogs import ReasonDialog, StageDialog
    from desktop.voice.model_download import offer_multilingual_model

    desktop = await _demo(app, services)
    window = desktop.window
    assert window is not None and desktop.ctx is not None
    detail = window.board.detail
    window.board.select_row(0)
    await detail.ready()

    def dialog_of(kind: type) -> QWidget | None:
        found = [w for w in detail.findChildren(kind) if alive(w) and w.isVisible()]
        return found[-1] if found else None

    await _twice(detail.advance_button.click, lambda: dialog_of(StageDialog))  # 推进阶段
    await _twice(detail.lost_button.click, lambda: dialog_of(ReasonDialog))  # 标记流失
    boxes: list[QWidget] = []
    await _twice(
        lambda: boxes.append(offer_multilingual_model(desktop.ctx.app, window)),
        lambda: boxes[-1],
    )
    _stop(desktop)
