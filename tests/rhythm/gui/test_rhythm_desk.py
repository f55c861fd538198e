"""The tray's rhythm alerts act in one click: a reminder's window and the briefing window (zh_CN)."""

from __future__ import annotations

from datetime import timedelta

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget
from sqlalchemy import select

from core.db.models import Inquiry, Notification
from core.events import NeedsAttention, StageOverdue
from core.rhythm.actions import follow_up_instruction
from desktop.tray import TrayController
from tests.support.qt import settles, wait_until


def _texts(widget: QWidget) -> list[str]:
    return [label.text() for label in widget.findChildren(QLabel) if label.text()]


def _overdue(ctx, name: str, stage: str, days: int) -> int:  # type: ignore[no-untyped-def]
    since = ctx.app._services.clock.now().replace(tzinfo=None) - timedelta(days=days)

    def _add(session) -> int:  # type: ignore[no-untyped-def]
        row = Inquiry(
            customer_name=name,
            customer_email=f"{name.split()[0].lower()}@example.com",
            classification="A",
            stage=stage,
            stage_changed_at=since,
            created_at=since,
            updated_at=since,
            suburb="Ryde",
        )
        session.add(row)
        session.flush()
        return row.id

    return ctx.app._services.store.write(_add)


async def _reminder_alert(ctx, tray: TrayController, inquiry_id: int, stage: str) -> None:  # type: ignore[no-untyped-def]
    ctx.app._services.bus.publish(StageOverdue(inquiry_id, stage, 9))
    ctx.notifications.drain()
    with ctx.app._services.store.session() as s:
        nid = s.scalar(select(Notification.id).where(Notification.ref_id == inquiry_id))
    await tray.show_notification(nid)
    tray.icon.messageClicked.emit()  # the owner clicks the balloon


@settles
async def test_a_reminder_balloon_opens_its_actions_snooze_open_draft_and_lost(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    amy = _overdue(ctx, "Amy Lee", "follow_up", 30)
    tray = TrayController(ctx.app)
    opened: list[tuple[str, int]] = []
    tray.open_item.connect(lambda t, i: opened.append((t, i)))

    await _reminder_alert(ctx, tray, amy, "follow_up")
    [dialog] = tray.rhythm.reminders
    qtbot.addWidget(dialog)
    card = dialog.card
    assert "Amy Lee" in dialog.windowTitle()
    assert [b.text() for b in (card.draft_button, card.open_button, card.lost_button)] == [
        "起草跟进邮件",
        "打开询盘",
        "标记流失",
    ]
    assert [b.text() for b in card.snooze_buttons.values()] == [
        "推迟 1 天",
        "推迟 3 天",
        "推迟 7 天",
    ]
    assert [r.inquiry_id for r in await ctx.app.rhythm.reminders()] == [amy]

    qtbot.mouseClick(card.snooze_buttons[3], Qt.MouseButton.LeftButton)
    await card.task
    assert await ctx.app.rhythm.reminders() == []  # snoozed: not due now
    assert tray.rhythm.reminders == []  # the window closed itself

    # another alert for the same job: 打开询盘 goes to the board, 起草 fills the compose dialog
    await _reminder_alert(ctx, tray, amy, "follow_up")
    [dialog] = tray.rhythm.reminders
    qtbot.mouseClick(dialog.card.open_button, Qt.MouseButton.LeftButton)
    await dialog.card.task
    assert opened == [("inquiry", amy)]

    bob = _overdue(ctx, "Bob Chen", "quoting", 30)
    await _reminder_alert(ctx, tray, bob, "quoting")
    [dialog] = tray.rhythm.reminders
    card = dialog.card
    qtbot.mouseClick(card.draft_button, Qt.MouseButton.LeftButton)
    await card.task
    compose = card.compose_dialog
    assert compose.instruction.toPlainText() == follow_up_instruction("quoting")
    await compose._info_task  # who the reply goes to, read before it is closed
    assert "Bob Chen" in compose.header.text()
    compose.close()  # nothing composed, nothing sent: he closed it

    await _reminder_alert(ctx, tray, bob, "quoting")
    [dialog] = tray.rhythm.reminders
    qtbot.mouseClick(dialog.card.lost_button, Qt.MouseButton.LeftButton)
    await dialog.card.task
    with ctx.app._services.store.session() as s:
        assert s.get(Inquiry, bob).stage == "lost"
    tray.hide()


@settles
async def test_the_briefing_opens_in_a_chinese_window_with_its_buttons(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    amy = _overdue(ctx, "Amy Lee", "follow_up", 30)
    ctx.app._services.bus.publish(
        NeedsAttention("low_confidence", "inquiry", amy, "rules: products")
    )
    tray = TrayController(ctx.app)
    assert tray.briefing_action.text() == "今晚简报"
    tray.briefing_action.trigger()
    window = tray.rhythm.briefing
    qtbot.addWidget(window)
    await window.loads.ready()
    assert window.heading.text().startswith("明天，")
    assert window.attention.title.text() == "需要您确认"
    assert window.windowTitle() == "今晚简报"  # the date once, in the heading
    assert window.refresh_button.text() == "刷新"
    [attention] = window.attention_cards
    [overdue] = window.reminder_cards
    assert attention.confirm_button.text() == "确认" and overdue.inquiry_id == amy

    qtbot.mouseClick(attention.confirm_button, Qt.MouseButton.LeftButton)
    await attention.task
    await wait_until(
        lambda: (
            window.attention_cards == []
            and window.loads.task is not None
            and window.loads.task.done()
        )
    )
    assert _texts(window.attention) == ["需要您确认", "没有需要确认的事项"]
    assert await ctx.app.attention.count() == 0

    qtbot.mouseClick(window.reminder_cards[0].snooze_buttons[1], Qt.MouseButton.LeftButton)
    await wait_until(
        lambda: (
            window.reminder_cards == []
            and window.loads.task is not None
            and window.loads.task.done()
        )
    )
    tray.hide()
