"""Buttons never outlive their draft: when a draft is sent, discarded or superseded anywhere (the
desktop, the CLI, the phone), every Telegram message carrying its buttons is edited to drop them
and show the final status — through the persistent outbox, so offline and restarts are covered.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from core.db.models import Notification
from core.notify.outbox import NotificationCenter
from core.services import build_services
from core.telegram.runner import TelegramRunner
from tests.drafts.support import add_inquiry
from tests.notify.conftest import OWNER, sydney
from tests.support.graph_server import GraphServer
from tests.support.telegram_server import SentMessage, TelegramServer


async def once(services: Any) -> Any:
    runner = TelegramRunner(services)
    try:
        return await runner.run_once()
    finally:
        await runner.aclose()


async def alert_for(
    services: Any, desk: Any, tg: TelegramServer, text: str = "报价15000含GST"
) -> tuple[int, SentMessage]:
    inquiry_id, _ = add_inquiry(services)
    draft_id = await desk.composer.compose(inquiry_id, text, actor="owner")
    await once(services)
    [alert] = [m for m in tg.sent_to(OWNER) if m.buttons() and f"#{draft_id}" in m.visible]
    return draft_id, alert


def closing_rows(services: Any) -> list[Notification]:
    with services.store.session() as session:
        return list(
            session.scalars(select(Notification).where(Notification.kind == "draft_closed"))
        )


async def test_sent_on_the_desktop_while_offline_closes_the_buttons_later_once(
    services: Any,
    center: Any,
    owner_env: TelegramServer,
    desk: Any,
    graph: GraphServer,
    clock: Any,
    home: Any,
) -> None:
    draft_id, alert = await alert_for(services, desk, owner_env)
    await desk.decisions.approve(draft_id, actor="owner")
    await desk.decisions.send(draft_id, actor="owner")
    assert len(graph.sent_log) == 1
    # the tray never shows the bookkeeping row, and it is not unread
    assert all(v.kind != "draft_closed" for v in center.recent())
    [row] = closing_rows(services)
    assert row.read_at is not None and row.telegram_status == "pending"

    owner_env.set_down(True)  # the phone's side is offline when the desktop sends
    await once(services)
    assert alert.buttons() != []
    owner_env.set_down(False)
    clock.advance(31)
    report = await once(services)
    assert report.delivery.edited == 1
    assert alert.buttons() == [] and alert.visible.endswith("✅ 已发送 · 4月1日 11:00")
    assert alert.visible.startswith(f"待审批草稿 #{draft_id}")  # the text is kept
    assert [m for m in owner_env.sent_to(OWNER) if m is not alert] == []  # edited, not re-sent

    again = build_services(home, clock=clock)  # a restart edits nothing twice
    try:
        NotificationCenter(again).attach().detach()
        await once(again)
    finally:
        again.close()
    assert len(owner_env.calls_of("editMessageText")) == 1
    assert closing_rows(services)[0].telegram_status == "sent"


async def test_a_revision_supersedes_the_old_alert_and_brings_new_buttons(
    services: Any, center: Any, owner_env: TelegramServer, desk: Any, graph: GraphServer
) -> None:
    draft_id, old_alert = await alert_for(services, desk, owner_env)
    stale_send = old_alert.button("发送")["callback_data"]
    new_id = await desk.composer.revise(draft_id, "改成下周三上门", actor="owner")
    await once(services)
    assert old_alert.buttons() == []
    assert old_alert.visible.endswith("✏️ 已被修改稿取代 · 4月1日 11:00")
    [new_alert] = [m for m in owner_env.sent_to(OWNER) if m.buttons()]
    assert new_alert.visible.startswith(f"待审批草稿 #{new_id}")
    # a press on the old alert's data (a slow phone) cannot send anything
    owner_env.push_callback(OWNER, stale_send, message_id=old_alert.message_id)
    await once(services)
    assert graph.sent_log == []
    assert owner_env.answered[-1]["text"] == f"草稿 #{draft_id} 已被修改稿取代。"


async def test_rejected_on_the_desktop_closes_the_alert_and_the_fact_warning(
    services: Any,
    center: Any,
    owner_env: TelegramServer,
    desk: Any,
    graph: GraphServer,
    model: Any,
) -> None:
    model.plant = ["The total comes to $16,500 and installation takes 3 weeks."]
    draft_id, alert = await alert_for(services, desk, owner_env)
    owner_env.press(alert, "发送")
    await once(services)
    warning = owner_env.sent_to(OWNER)[-1]
    assert warning.button("仍然发送")
    await desk.decisions.reject(draft_id, actor="owner")
    await once(services)
    for message in (alert, warning):
        assert message.buttons() == [] and message.visible.endswith("🗑 已放弃 · 4月1日 11:00")
    assert graph.sent_log == []


async def test_closed_by_a_process_without_a_center_is_caught_up(
    services: Any, owner_env: TelegramServer, desk: Any, graph: GraphServer
) -> None:
    """`inquiry-bridge drafts reject` has no notification center; the next run still closes."""
    center = NotificationCenter(services).attach()
    draft_id, alert = await alert_for(services, desk, owner_env)
    center.detach()
    await desk.decisions.reject(draft_id, actor="cli")
    assert closing_rows(services) == []
    NotificationCenter(services).attach().detach()  # what `telegram --once` does on start
    await once(services)
    assert alert.buttons() == [] and alert.visible.endswith("🗑 已放弃 · 4月1日 11:00")


async def test_closing_edits_go_out_in_quiet_hours(
    services: Any, center: Any, owner_env: TelegramServer, desk: Any, graph: GraphServer, clock: Any
) -> None:
    from core.clock import utc

    draft_id, alert = await alert_for(services, desk, owner_env)
    clock._now = utc(sydney(2026, 4, 1, 23, 15))
    await desk.decisions.reject(draft_id, actor="owner")
    report = await once(services)
    assert report.delivery.edited == 1  # silent on the phone, so not held till morning
    assert alert.visible.endswith("🗑 已放弃 · 4月1日 23:15")


async def test_edited_on_the_pc_the_phone_gets_the_new_words_and_old_buttons_die(
    services: Any, center: Any, owner_env: TelegramServer, desk: Any, graph: GraphServer
) -> None:
    draft_id, alert = await alert_for(services, desk, owner_env)
    old_send = alert.button("发送")["callback_data"]
    body = (
        await desk.reader.get(draft_id)
    ).body_en + "\n\nP.S. We look forward to hearing from you soon."
    await desk.edits.update_body(draft_id, body, actor="owner")
    await desk.edits.rerender_zh(draft_id)  # the window makes the Chinese of his new English
    await once(services)
    assert alert.buttons() == []
    assert alert.visible.endswith("✏️ 已在电脑上修改，请看新的提醒 · 4月1日 11:00")
    [fresh] = [m for m in owner_env.sent_to(OWNER) if m.buttons()]
    assert "look forward to hearing" in fresh.visible
    owner_env.push_callback(OWNER, old_send, message_id=alert.message_id)  # a slow phone
    await once(services)
    assert graph.sent_log == [] and owner_env.answered[-1]["text"] == "此按钮已失效。"
    owner_env.press(fresh, "发送")
    await once(services)
    assert len(graph.sent_log) == 1 and "look forward to hearing" in str(graph.sent_log[0])


async def test_a_press_on_words_edited_since_never_sends_them(
    services: Any, owner_env: TelegramServer, desk: Any, graph: GraphServer
) -> None:
    """The edit happened where no center listened (another process): the button still refuses."""
    center = NotificationCenter(services).attach()
    draft_id, alert = await alert_for(services, desk, owner_env)
    center.detach()
    await desk.edits.update_body(
        draft_id, "Dear Jane, a completely different offer.", actor="owner"
    )
    owner_env.press(alert, "发送")
    runner = TelegramRunner(services)
    try:
        await runner.bot.poll_once()  # the press is handled before any catch-up could run
    finally:
        await runner.aclose()
    assert graph.sent_log == [] and (await desk.reader.get(draft_id)).status == "pending_approval"
    assert "已在电脑上修改" in owner_env.sent_to(OWNER)[-1].visible
    # the next `telegram --once` (with its catch-up) brings the new version with live buttons
    NotificationCenter(services).attach().detach()
    await once(services)
    # (the catch-up also announces the inquiry itself, whose alert has its own buttons)
    [fresh] = [m for m in owner_env.sent_to(OWNER) if m.buttons() and m.draft_buttons()]
    assert "completely different offer" in fresh.visible
