"""Whom "他" means on Telegram, and "改一下" leaving one live draft — over the loopback Bot API
and a scripted loopback model, with real SQLite and a fresh runner (and App) per round, so the
current customer has to survive in the stored conversation.

What the owner would notice: after he asks about Bob, "给他回复" drafts to Bob — not to Amy,
whose alert came last; "给他回复" as a reply to Amy's alert drafts to Amy; the answer and the
draft card name the customer; "改一下，改成 $750" leaves one draft with 发送 buttons, the old
card's buttons are gone and it says it was replaced.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from sqlalchemy import select

from core.agent.turn_context import owner_words
from core.db.models import Draft, Inquiry, Memory
from core.events import InquiryCreated
from core.inquiry.search import refresh_search_text
from core.telegram.runner import TelegramRunner
from tests.drafts.support import DraftingModel
from tests.notify.conftest import OWNER, add_inquiry
from tests.support.llm_server import LLMServer, last_user_text, schema_name
from tests.support.telegram_server import TelegramServer

CURRENT = re.compile(r"Current customer: inquiry #(\d+)")


class CustomerModel:
    """Looks customers up by name, drafts to the current customer the newest owner
    message names, revises the last draft it wrote, and names the customer it drafted for."""

    def __init__(self) -> None:
        self.drafting = DraftingModel()

    def __call__(self, request: dict[str, Any]) -> Any:
        if schema_name(request) or not request.get("tools"):  # the composer's structured calls
            return self.drafting(request)
        messages = request["messages"]
        last_user = max(i for i, m in enumerate(messages) if m.get("role") == "user")
        earlier = [m["content"] for m in messages[:last_user] if m.get("role") == "tool"]
        results = [m["content"] for m in messages[last_user:] if m.get("role") == "tool"]
        user = owner_words(last_user_text(request))  # his words, not the context above them
        if results:
            last = results[-1]
            if last.startswith("{"):
                answer = json.loads(last)
                return (
                    f"已为 {answer['customer']} 起草回复（草稿 #{answer['draft_id']}），等待审批。"
                )
            return "Bob Steward 的电话是 0412 345 678。"
        if "的电话" in user:
            name = user.splitlines()[-1].split(" 的电话")[0]
            return [{"name": "search_customers", "arguments": {"name": name}}]
        if "改一下" in user:
            drafted = [json.loads(r)["draft_id"] for r in earlier if r.startswith("{")]
            return [
                {
                    "name": "revise_draft",
                    "arguments": {"draft_id": drafted[-1], "instruction": "价格改成 $750"},
                }
            ]
        if "给他回复" in user:
            # the newest owner message names the current customer (core.agent.turn_context)
            current = CURRENT.search(str(messages[last_user].get("content") or ""))
            if current is None:
                return "请问是哪位客户？"
            return [
                {
                    "name": "draft_reply",
                    "arguments": {"inquiry_id": int(current.group(1)), "instruction": "下周二量尺"},
                }
            ]
        return "好的。"


@pytest.fixture
def llm(services: Any) -> Any:
    with LLMServer(CustomerModel()) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        yield server


async def once(services: Any) -> None:
    runner = TelegramRunner(services)
    try:
        await runner.run_once()
    finally:
        await runner.aclose()


def customers(services: Any) -> tuple[int, int]:
    """Amy Lee and Bob Steward, searchable as intake leaves them."""
    amy = add_inquiry(services, customer_name="Amy Lee", customer_email="amy@example.com")
    bob = add_inquiry(services, customer_name="Bob Steward", customer_email="bob@example.com")

    def index(session: Any) -> None:
        for inquiry in session.scalars(select(Inquiry)):
            refresh_search_text(inquiry)

    services.store.write(index)
    return amy, bob


def drafts(services: Any) -> list[tuple[int, int | None, list[str], str]]:
    with services.store.session() as session:
        rows = session.scalars(select(Draft).order_by(Draft.id))
        return [(d.id, d.inquiry_id, list(d.to_addrs or []), d.status) for d in rows]


async def test_after_asking_about_bob_reply_to_him_drafts_to_bob(
    services: Any, center: Any, owner_env: TelegramServer, llm: Any, graph: Any
) -> None:
    amy, bob = customers(services)
    services.bus.publish(InquiryCreated(bob))
    services.bus.publish(InquiryCreated(amy))
    await once(services)  # Amy's alert came last
    owner_env.push_message(OWNER, "Bob Steward 的电话是多少")
    await once(services)
    answer = owner_env.sent_to(OWNER)[-1]
    assert "0412 345 678" in answer.visible
    owner_env.press(answer, "存为备注")  # his words go on the customer they were about
    await once(services)
    with services.store.session() as session:
        [note] = session.scalars(select(Memory)).all()
        assert (note.inquiry_id, note.text) == (bob, "Bob Steward 的电话是多少")
    owner_env.push_message(OWNER, "给他回复，说下周二上门量尺")
    await once(services)
    [(draft_id, inquiry_id, to, status)] = drafts(services)
    assert (inquiry_id, to, status) == (bob, ["bob@example.com"], "pending_approval")
    answer, card = owner_env.sent_to(OWNER)[-2:]
    assert "已为 Bob Steward 起草" in answer.visible
    assert card.visible.startswith(f"待审批草稿 #{draft_id}：回复 Bob Steward（询盘 #{bob}）")

    # "给他回复" as a reply to Amy's alert means Amy, whoever the conversation was about
    amy_alert = next(m for m in owner_env.sent_to(OWNER) if "Amy Lee" in m.visible)
    owner_env.push_message(OWNER, "给他回复，说下周二上门量尺", reply_to=amy_alert)
    await once(services)
    *_, (amy_draft, drafted_for, to, status) = drafts(services)
    assert amy_draft != drafts(services)[0][0]
    assert (drafted_for, to, status) == (amy, ["amy@example.com"], "pending_approval")
    answer, card = owner_env.sent_to(OWNER)[-2:]
    assert "已为 Amy Lee 起草" in answer.visible and "回复 Amy Lee" in card.visible
    assert drafts(services)[0][3] == "pending_approval"  # Bob's draft is another thread


async def test_revising_on_the_phone_leaves_one_draft_with_buttons(
    services: Any, center: Any, owner_env: TelegramServer, llm: Any, graph: Any
) -> None:
    _amy, bob = customers(services)
    owner_env.push_message(OWNER, "Bob Steward 的电话是多少")
    await once(services)
    owner_env.push_message(OWNER, "给他回复，报价 $800")
    await once(services)
    [(first, _, _, _)] = drafts(services)
    old_card = owner_env.sent_to(OWNER)[-1]
    assert [b["text"] for b in old_card.draft_buttons()] == ["✅ 发送", "🗑 放弃", "💻 在电脑上修改"]
    old_send = old_card.button("发送")["callback_data"]

    owner_env.push_message(OWNER, "改一下，改成 $750")
    await once(services)
    await once(services)  # the next delivery round closes whatever is left
    assert [(d[0], d[3]) for d in drafts(services)] == [
        (first, "superseded"),
        (first + 1, "pending_approval"),
    ]
    assert old_card.draft_buttons() == [] and "已被修改稿取代" in old_card.visible
    cards = [m for m in owner_env.sent_to(OWNER) if m.draft_buttons()]
    assert [m.visible.split("：")[0] for m in cards] == [f"待审批草稿 #{first + 1}"]
    assert "已为 Bob Steward 起草" in owner_env.sent_to(OWNER)[-2].visible
    # 发送 pressed on a phone screen that still showed the old card sends nothing
    callback = owner_env.push_callback(OWNER, old_send, message_id=old_card.message_id)
    await once(services)
    [answered] = [a for a in owner_env.answered if a.get("callback_query_id") == callback]
    assert "已被修改稿取代" in answered.get("text", "")
    assert drafts(services)[0][3] == "superseded" and graph.sent_log == []
    assert drafts(services)[1][1] == bob
