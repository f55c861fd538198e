"""A new-inquiry alert the owner reads at a glance, and what its three buttons do.

Checked as the owner would see it on the loopback Bot API: what the customer wants in Chinese
right under the heading, the facts, 紧急 only when urgent, the English folded (expandable quote),
and 起草回复 / 在电脑上打开 / 稍后提醒 each doing its job. The tray balloon's text comes from the
same row. Quiet hours hold alerts but not answers to his own questions.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from core.db.models import Draft, Inquiry, Message, Notification
from core.events import InquiryCreated, NeedsAttention, NotificationRaised
from core.notify.inquiry_alert import tray_text
from core.telegram.runner import TelegramRunner
from tests.drafts.support import DraftingModel
from tests.drafts.support import add_inquiry as add_inquiry_with_mail
from tests.notify.conftest import OWNER, sydney
from tests.support.graph_server import GraphServer
from tests.support.llm_server import LLMServer
from tests.support.telegram_server import SentMessage, TelegramServer

MAIL = (
    "Hi, we need a sliding door 2400 x 2100 for 12 Smith St, Ryde.\n\n"
    "Call me 0412 345 678 <any time> & thanks."
)


def move_to(clock: Any, when: Any) -> None:
    clock.advance((when - clock.now()).total_seconds())


async def once(services: Any) -> Any:
    runner = TelegramRunner(services)
    try:
        return await runner.run_once()
    finally:
        await runner.aclose()


def alert_of(services: Any, tg: TelegramServer, inquiry_id: int) -> SentMessage:
    with services.store.session() as session:
        ids = session.scalar(
            select(Notification.telegram_message_ids).where(
                Notification.kind == "new_inquiry", Notification.ref_id == inquiry_id
            )
        )
    [message] = [m for m in tg.sent_to(OWNER) if m.message_id in (ids or [])]
    return message


async def announced(services: Any, tg: TelegramServer, **fields: Any) -> tuple[int, SentMessage]:
    inquiry_id, _ = add_inquiry_with_mail(services, body=MAIL)
    if fields:
        services.store.write(
            lambda s: [setattr(s.get(Inquiry, inquiry_id), k, v) for k, v in fields.items()]
        )
    services.bus.publish(InquiryCreated(inquiry_id))
    await once(services)
    return inquiry_id, alert_of(services, tg, inquiry_id)


async def test_the_alert_says_what_he_wants_in_chinese_first_and_folds_the_english(
    services: Any, center: Any, owner_env: TelegramServer
) -> None:
    inquiry_id, alert = await announced(services, owner_env)
    lines = alert.visible.split("\n")
    assert lines[0] == "新询盘：Jane Citizen（Ryde）"
    # the first thing under the heading: what the customer wants, in Chinese
    assert lines[2] == "Ryde 的客户想做推拉门（2400 x 2100 mm），可远程报价"
    assert "客户：Jane Citizen" in lines and "产品：推拉门" in lines
    assert "类别：B 类 · 可远程报价" in lines
    assert "紧急" not in alert.visible and "normal" not in alert.visible
    assert alert.visible.count("新询盘") == 1  # the heading is not repeated
    # the English original is there, folded until tapped, escaped
    folded = alert.text.split("<blockquote expandable>", 1)[1]
    assert folded.startswith("主题：Sliding door quote")
    assert "0412 345 678 &lt;any time&gt; &amp; thanks." in folded
    assert alert.text.index("<blockquote expandable>") > alert.text.index("类别")
    assert [b["text"] for b in alert.buttons()] == ["✍️ 起草回复", "💻 在电脑上打开", "⏰ 稍后提醒"]
    assert all(b["callback_data"].startswith(f"i:{inquiry_id}:") for b in alert.buttons())


async def test_urgent_is_said_in_chinese_and_a_stored_translation_is_the_summary(
    services: Any, center: Any, owner_env: TelegramServer
) -> None:
    _, urgent = await announced(services, owner_env, urgency="high")
    assert urgent.visible.split("\n")[2].startswith("🔴 紧急 · ")
    inquiry_id, _ = add_inquiry_with_mail(services, name="Li Wei", body=MAIL)

    def translate(session: Any) -> None:
        message = session.scalars(select(Message).where(Message.inquiry_id == inquiry_id)).one()
        message.translation_zh = "您好，我们需要一扇 2400 x 2100 的推拉门，地址在 Ryde。请致电。"

    services.store.write(translate)
    services.bus.publish(InquiryCreated(inquiry_id))
    await once(services)
    alert = alert_of(services, owner_env, inquiry_id)
    assert alert.visible.split("\n")[2] == "我们需要一扇 2400 x 2100 的推拉门，地址在 Ryde。"


async def test_the_tray_balloon_reads_the_same_summary_and_facts(
    services: Any, center: Any
) -> None:
    inquiry_id, _ = add_inquiry_with_mail(services, body=MAIL)
    services.bus.publish(InquiryCreated(inquiry_id))
    with services.store.session() as session:
        row = session.scalars(select(Notification)).one()
        title, body = tray_text(row.kind, row.title, row.body_md)
    assert title == "新询盘：Jane Citizen（Ryde）"
    assert body.split("\n")[0] == "Ryde 的客户想做推拉门（2400 x 2100 mm），可远程报价"
    assert "客户：Jane Citizen" in body and "**" not in body
    assert "Smith St, Ryde." not in body  # the English stays on the phone and in the window


@pytest.fixture
def graph(clock: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[GraphServer]:
    with GraphServer(now=clock.now) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_URL", srv.base_url)
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", srv.token)
        yield srv


async def test_draft_button_composes_a_waiting_draft_and_shows_its_buttons(
    services: Any, center: Any, owner_env: TelegramServer, graph: GraphServer
) -> None:
    with LLMServer(DraftingModel()) as llm:
        services.settings.update({"llm.base_url": llm.base_url, "llm.max_retries": 0})
        inquiry_id, alert = await announced(services, owner_env)
        owner_env.press(alert, "起草回复")
        await once(services)
        owner_env.press(alert, "起草回复")  # a second press writes no second draft
        await once(services)
        assert "已在等待审批" in owner_env.sent_to(OWNER)[-1].visible
    with services.store.session() as session:
        [(draft_id, drafted_for, status)] = session.execute(
            select(Draft.id, Draft.inquiry_id, Draft.status)
        ).all()
    assert (drafted_for, status) == (inquiry_id, "pending_approval")
    told, card = owner_env.sent_to(OWNER)[-3:-1]
    assert f"草稿 #{draft_id}" in told.visible and "不按「发送」就不会发出" in told.visible
    assert card.visible.startswith(f"待审批草稿 #{draft_id}")
    assert [b["text"] for b in card.draft_buttons()] == ["✅ 发送", "🗑 放弃", "💻 在电脑上修改"]
    assert owner_env.answered[-2]["text"] == "正在起草…"
    assert graph.sent_log == []  # nothing leaves without his 发送


async def test_draft_button_without_an_ai_address_says_what_is_missing(
    services: Any, center: Any, owner_env: TelegramServer
) -> None:
    _, alert = await announced(services, owner_env)
    owner_env.press(alert, "起草回复")
    await once(services)
    assert "设置 AI 服务地址" in owner_env.sent_to(OWNER)[-1].visible
    with services.store.session() as session:
        assert session.scalars(select(Draft)).all() == []


async def test_open_on_pc_raises_a_tray_notification_that_opens_the_inquiry(
    services: Any, center: Any, owner_env: TelegramServer
) -> None:
    inquiry_id, alert = await announced(services, owner_env)
    owner_env.press(alert, "在电脑上打开")
    await once(services)
    with services.store.session() as session:
        row = session.scalars(select(Notification).where(Notification.kind == "open_on_pc")).one()
        assert (row.ref_type, row.ref_id, row.telegram_status) == ("inquiry", inquiry_id, "skipped")
        assert row.read_at is None  # the tray shows it (and clicking it opens the inquiry)
        assert row.title == "手机上请求查看：Jane Citizen（Ryde）"
        _title, body = tray_text(row.kind, row.title, row.body_md)
    assert body.startswith("Ryde 的客户想做推拉门") and "**>" not in body and ">" not in body
    raised = [e for e in services.bus.events if isinstance(e, NotificationRaised)]
    assert raised[-1].kind == "open_on_pc" and raised[-1].ref_id == inquiry_id
    assert any(
        isinstance(e, NeedsAttention) and e.kind == "open_on_pc" and e.ref_id == inquiry_id
        for e in services.bus.events
    )
    assert "已在电脑上弹出" in owner_env.sent_to(OWNER)[-1].visible


async def test_remind_later_snoozes_and_the_alert_comes_back_next_working_morning(
    services: Any, center: Any, owner_env: TelegramServer, clock: Any
) -> None:
    inquiry_id, alert = await announced(services, owner_env)  # Wednesday 1 April, 11:00
    owner_env.press(alert, "稍后提醒")
    await once(services)
    assert owner_env.sent_to(OWNER)[-1].visible.startswith("⏰ 好的，4月2日 07:00 再提醒你")
    from core.db.app_state import get_state

    with services.store.session() as session:
        snooze = get_state(session, f"reminder.snooze.{inquiry_id}")
    assert snooze["until"].startswith("2026-04-01T20:00")  # 07:00 Sydney on Thursday
    count = len(owner_env.sent_to(OWNER))
    move_to(clock, sydney(2026, 4, 2, 6, 59))
    await once(services)
    assert len(owner_env.sent_to(OWNER)) == count  # not before the morning
    move_to(clock, sydney(2026, 4, 2, 7, 1))
    await once(services)
    again = owner_env.sent_to(OWNER)[-1]
    assert again.visible.startswith("稍后提醒：Jane Citizen（Ryde）")
    assert again.visible.split("\n")[2] == "Ryde 的客户想做推拉门（2400 x 2100 mm），可远程报价"
    assert [b["text"] for b in again.buttons()] == ["✍️ 起草回复", "💻 在电脑上打开", "⏰ 稍后提醒"]


async def test_quiet_hours_hold_alerts_but_not_answers_to_his_own_questions(
    services: Any, center: Any, owner_env: TelegramServer, clock: Any
) -> None:
    move_to(clock, sydney(2026, 4, 1, 23, 30))
    with LLMServer(lambda request: "现在没有待办。") as llm:
        services.settings.update({"llm.base_url": llm.base_url, "llm.max_retries": 0})
        inquiry_id, _ = add_inquiry_with_mail(services, body=MAIL)
        services.bus.publish(InquiryCreated(inquiry_id))
        owner_env.push_message(OWNER, "还有什么要做的？")
        await once(services)
    [answer] = owner_env.sent_to(OWNER)  # the answer, not the alert
    assert answer.visible.startswith("现在没有待办。")
    move_to(clock, sydney(2026, 4, 2, 7, 5))
    await once(services)
    assert owner_env.sent_to(OWNER)[-1].visible.startswith("新询盘：Jane Citizen（Ryde）")


def test_the_summary_is_built_without_a_model_from_what_is_stored() -> None:
    from core.notify.inquiry_alert import summary_zh

    chinese = Inquiry(classification="A", language="zh", product_types=["flyscreen"])
    mail = Message(
        body_text="您好！我家在 Epping，想把三个窗户都装上纱窗。请问多少钱？", translation_zh=None
    )
    assert summary_zh(chinese, mail) == "我家在 Epping，想把三个窗户都装上纱窗。"
    bare = Inquiry(classification="A", suburb="Epping", product_types=[], dimensions=[])
    assert summary_zh(bare, None) == "Epping 的客户来信询价（产品未识别，请看原文），需上门量尺"
    priced = Inquiry(
        classification="B",
        product_types=["bifold_door"],
        dimensions=[],
        context_data={"extracted": {"budget": "$8,000"}},
    )
    assert summary_zh(priced, None) == "客户想做折叠门，预算 $8,000，可远程报价"
