"""Approving from the phone: the button (never typed words) runs the desktop's approve + send path.

Real parts only: a draft composed by the desktop's DraftComposer against the loopback LLM server,
the alert from the outbox, the loopback Bot API, and the send through GraphMailer to the loopback Graph server
(the runner builds its OwnerDecisions exactly as the app does, from INQUIRY_BRIDGE_GRAPH_*).
"""

from __future__ import annotations

from typing import Any

import pytest

from core.events import DraftChanged
from core.telegram.runner import TelegramRunner
from tests.drafts.support import CUSTOMER, add_inquiry
from tests.notify.conftest import OWNER, STRANGER
from tests.support.graph_server import GraphServer
from tests.support.telegram_server import SentMessage, TelegramServer


async def once(services: Any) -> Any:
    runner = TelegramRunner(services)
    try:
        return await runner.run_once()
    finally:
        await runner.aclose()


async def pending_alert(services: Any, desk: Any, tg: TelegramServer) -> tuple[int, SentMessage]:
    inquiry_id, _ = add_inquiry(services)
    draft_id = await desk.composer.compose(
        inquiry_id, "报价15000含GST，下周二上午10点上门量尺", actor="owner"
    )
    await once(services)
    [alert] = [m for m in tg.sent_to(OWNER) if m.buttons()]
    return draft_id, alert


async def test_a_pending_draft_arrives_with_chinese_english_and_buttons(
    services: Any, center: Any, owner_env: TelegramServer, desk: Any
) -> None:
    draft_id, alert = await pending_alert(services, desk, owner_env)
    shown = alert.visible
    assert shown.startswith(f"待审批草稿 #{draft_id}")
    assert "中文内容：" in shown and "您好" in shown
    assert "英文原文（共" in shown and "Our price is $15,000 including GST." in shown
    assert [b["text"] for b in alert.buttons()] == ["✅ 发送", "🗑 放弃", "💻 在电脑上修改"]
    assert all(b["callback_data"].startswith(f"d:{draft_id}:") for b in alert.buttons())


async def test_send_button_sends_once_through_graph_and_the_desktop_sees_sent(
    services: Any, center: Any, owner_env: TelegramServer, desk: Any, graph: GraphServer
) -> None:
    draft_id, alert = await pending_alert(services, desk, owner_env)
    assert graph.sent_log == []
    first = owner_env.press(alert, "发送")
    owner_env.press(alert, "发送")  # an impatient double tap
    await once(services)
    assert len(graph.sent_log) == 1
    [copy] = graph.folder_messages("sentitems")
    assert CUSTOMER in str(copy) and "$15,000" in str(copy)
    assert (
        await desk.reader.get(draft_id)
    ).status == "sent"  # what the desktop's 待审批 list reads
    assert (
        DraftChanged(draft_id, (await desk.reader.get(draft_id)).inquiry_id, "sent")
        in services.bus.events
    )
    replies = [m.visible for m in owner_env.sent_to(OWNER)]
    assert f"✅ 已发送：草稿 #{draft_id} 已发给 {CUSTOMER}。" in replies
    answers = {a["callback_query_id"]: a.get("text", "") for a in owner_env.answered}
    assert answers[first] == "已发送" and len(answers) == 2
    # the alert keeps its text, loses its buttons and ends with the final status
    assert alert.buttons() == [] and alert.visible.startswith(f"待审批草稿 #{draft_id}")
    assert alert.visible.endswith("✅ 已发送 · 4月1日 11:00")


async def test_a_strangers_button_sends_nothing(
    services: Any, center: Any, owner_env: TelegramServer, desk: Any, graph: GraphServer
) -> None:
    draft_id, alert = await pending_alert(services, desk, owner_env)
    data = alert.button("发送")["callback_data"]
    owner_env.push_callback(STRANGER, data)  # forwarded message, another chat
    owner_env.push_callback(OWNER, data, user_id=STRANGER)  # another user, owner's chat id
    await once(services)
    assert graph.sent_log == []
    assert (await desk.reader.get(draft_id)).status == "pending_approval"
    assert owner_env.sent_to(STRANGER) == []
    assert [a.get("text", "") for a in owner_env.answered] == ["", ""]


async def test_forged_nonce_and_typed_words_never_send(
    services: Any, center: Any, owner_env: TelegramServer, desk: Any, graph: GraphServer
) -> None:
    draft_id, _alert = await pending_alert(services, desk, owner_env)
    owner_env.push_callback(OWNER, f"d:{draft_id}:s:guessed")
    owner_env.push_message(OWNER, "发送")
    owner_env.push_message(OWNER, f"/send {draft_id}")
    await once(services)
    assert graph.sent_log == [] and (await desk.reader.get(draft_id)).status == "pending_approval"
    assert owner_env.answered[0]["text"] == "此按钮已失效。"


async def test_unconfirmed_facts_need_a_second_confirming_press(
    services: Any, center: Any, owner_env: TelegramServer, desk: Any, graph: GraphServer, model: Any
) -> None:
    model.plant = ["The total comes to $16,500 and installation takes 3 weeks."]
    draft_id, alert = await pending_alert(services, desk, owner_env)
    assert "未经确认的内容" in alert.visible
    owner_env.press(alert, "发送")
    await once(services)
    assert graph.sent_log == []
    warning = owner_env.sent_to(OWNER)[-1]
    assert "$16,500" in warning.visible and "3 weeks" in warning.visible
    assert (await desk.reader.get(draft_id)).status == "pending_approval"
    owner_env.press(warning, "仍然发送")
    await once(services)
    assert len(graph.sent_log) == 1 and (await desk.reader.get(draft_id)).status == "sent"
    assert "$16,500" in (await desk.reader.get(draft_id)).confirmed_facts


async def test_reject_button_discards_and_later_presses_say_so(
    services: Any, center: Any, owner_env: TelegramServer, desk: Any, graph: GraphServer
) -> None:
    draft_id, alert = await pending_alert(services, desk, owner_env)
    send_data = alert.button("发送")["callback_data"]
    owner_env.press(alert, "放弃")
    await once(services)
    assert (await desk.reader.get(draft_id)).status == "rejected"
    assert alert.buttons() == [] and alert.visible.endswith("🗑 已放弃 · 4月1日 11:00")
    owner_env.push_callback(OWNER, send_data)  # a stale press (a slow phone)
    await once(services)
    assert graph.sent_log == []
    assert owner_env.answered[-1]["text"] == f"草稿 #{draft_id} 已放弃。"


async def test_edit_on_desktop_button_only_points_to_the_pc(
    services: Any, center: Any, owner_env: TelegramServer, desk: Any, graph: GraphServer
) -> None:
    draft_id, alert = await pending_alert(services, desk, owner_env)
    owner_env.press(alert, "在电脑上修改")
    await once(services)
    assert (await desk.reader.get(draft_id)).status == "pending_approval" and graph.sent_log == []
    assert "请在电脑上" in owner_env.sent_to(OWNER)[-1].visible


GROUP = -1001234567890


async def test_in_a_preset_group_only_the_owner_may_press_and_only_after_proving_himself(
    services: Any,
    center: Any,
    tg_env: TelegramServer,
    desk: Any,
    graph: GraphServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from core.notify import pairing

    monkeypatch.setenv("INQUIRY_BRIDGE_TELEGRAM_CHAT_ID", str(GROUP))
    inquiry_id, _ = add_inquiry(services)
    draft_id = await desk.composer.compose(inquiry_id, "报价15000含GST", actor="owner")
    await once(services)
    [alert] = [m for m in tg_env.sent_to(GROUP) if m.buttons()]  # alerts reach the group

    # nobody in the group is known to be the owner yet: even his press does nothing
    tg_env.press(alert, "发送", user_id=OWNER)
    await once(services)
    assert graph.sent_log == [] and (await desk.reader.get(draft_id)).status == "pending_approval"

    # he proves himself with a fresh code *in the group*; a member's wrong code binds nobody
    code = pairing.new_pairing_code(services)
    tg_env.push_message(GROUP, "/start@ib_test_bot WRONG234", user_id=STRANGER, chat_type="group")
    tg_env.push_message(GROUP, f"/start@ib_test_bot {code.code}", user_id=OWNER, chat_type="group")
    await once(services)
    assert (owner := pairing.owner(services)) is not None
    assert owner.user_id == OWNER
    before = len(tg_env.sent_to(GROUP))

    # another member of the group presses 发送: nothing sent, nothing said, empty answer
    stranger_press = tg_env.press(alert, "发送", user_id=STRANGER)
    tg_env.push_message(GROUP, "/status", user_id=STRANGER, chat_type="group")
    await once(services)
    assert graph.sent_log == [] and (await desk.reader.get(draft_id)).status == "pending_approval"
    assert len(tg_env.sent_to(GROUP)) == before
    answers = {a["callback_query_id"]: a.get("text", "") for a in tg_env.answered}
    assert answers[stranger_press] == ""

    # the owner's own press in the same group sends it, once
    tg_env.press(alert, "发送", user_id=OWNER)
    await once(services)
    assert len(graph.sent_log) == 1 and (await desk.reader.get(draft_id)).status == "sent"


async def test_a_chinese_that_leaves_a_value_out_needs_the_second_press(
    services: Any, center: Any, owner_env: TelegramServer, desk: Any, graph: GraphServer, model: Any
) -> None:
    """The English carries a new phone and a refund the Chinese he reads does not: 发送 shows
    them (中文未体现) and sends nothing until 仍然发送."""
    model.plant = ["We will refund the deposit. Call 0488 999 000."]
    original = model.chinese  # the translation call writes a Chinese without them
    model.chinese = _Forgetful(original)
    draft_id, alert = await pending_alert(services, desk, owner_env)
    view = await desk.reader.get(draft_id)
    assert {"refund", "0488 999 000"} <= set(view.zh_missing)
    owner_env.press(alert, "发送")
    await once(services)
    assert graph.sent_log == []
    warning = owner_env.sent_to(OWNER)[-1]
    assert "refund" in warning.visible and "0488 999 000" in warning.visible


async def test_an_english_changed_after_its_chinese_cannot_be_sent_from_the_phone(
    services: Any, center: Any, owner_env: TelegramServer, desk: Any, graph: GraphServer
) -> None:
    from core.db.models import Draft
    from core.errors import TranslationStaleError
    from core.notify.outbox import draft_message

    draft_id, alert = await pending_alert(services, desk, owner_env)

    def change(session: Any) -> None:
        row = session.get(Draft, draft_id)
        row.body_en = row.body_en.replace("$15,000", "$1,500")

    services.store.write(change)
    owner_env.press(alert, "发送")
    await once(services)
    assert graph.sent_log == []
    assert (await desk.reader.get(draft_id)).status == "pending_approval"
    with pytest.raises(TranslationStaleError):  # the decision 发送 calls, with any confirmation
        await desk.decisions.approve(draft_id, actor="telegram", accept_unconfirmed=True)
    with services.store.session() as session:  # a new alert never shows the old Chinese
        _, text = draft_message(session.get(Draft, draft_id), None)
    assert "重新翻译" in text and "您好" not in text


class _Forgetful(dict[str, str]):
    """The model's Chinese for each English, less every sentence that carries a value."""

    def __init__(self, known: dict[str, str]) -> None:
        super().__init__()
        self.known = known

    def get(self, key: str, default: Any = None) -> Any:
        zh = self.known.get(key)
        return None if zh is None else "您好，\n\n谢谢您的询价。\n\n此致"

    def __setitem__(self, key: str, value: str) -> None:
        self.known[key] = value
