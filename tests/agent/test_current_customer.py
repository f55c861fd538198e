"""Who "他" is: the customer the conversation is about, and one live draft per reply thread.

Loopback model scripted tool by tool, real SQLite. What the owner would notice: after he asks
about Bob, the next prompt names Bob as the current customer (and it survives a restart); when
two customers match, nobody is current, so the assistant asks; "改一下" through the assistant
leaves one draft he can approve — the old one is superseded, off the 待审批 list, and neither
approve nor send will take it.
"""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from core.agent.conversation import Conversation
from core.agent.session_store import SessionStore
from core.db.models import Draft, DraftEvent
from core.drafts.drafting import build_drafting
from core.errors import DraftStateError
from core.services import Services
from tests.agent.conftest import Model, add_customer


def _statuses(services: Services) -> dict[int, str]:
    with services.store.session() as s:
        return {d.id: d.status for d in s.scalars(select(Draft).order_by(Draft.id))}


def _context_of(model: Model) -> str:
    """The current customer the last assistant request names (in its newest owner message,
    ``core.agent.turn_context``); "" when it names nobody."""
    bodies = [r.body for r in model.server.chat_requests if r.body.get("tools")]
    users = [m for m in bodies[-1]["messages"] if m.get("role") == "user"]
    newest = str(users[-1].get("content") or "")
    line = next((x for x in newest.splitlines() if "Current customer: " in x), "")
    customer = line.partition("Current customer: ")[2]
    return "" if customer in ("", "(none selected)") else customer


async def test_the_customer_a_search_finds_is_current_and_survives_a_restart(
    services: Services, model: Model
) -> None:
    amy = add_customer(services, "Amy Lee", email="amy@example.com")
    bob = add_customer(services, "Bob Steward", email="bob@example.com")
    store = SessionStore(services)
    talk = Conversation(
        "t", "telegram", model.assistant, store=store, state=store.open("telegram", "t")
    )
    talk.current_inquiry_id = amy  # the conversation was about Amy
    model.steps = [[{"name": "search_customers", "arguments": {"name": "Bob"}}], "Bob 的电话…"]
    await talk.ask("Bob 的电话是多少")
    assert talk.current_inquiry_id == bob
    # the next turn's prompt names Bob, also for a conversation read back after a restart
    again = Conversation(
        "t", "telegram", model.assistant, store=store, state=store.open("telegram", "t")
    )
    assert again.current_inquiry_id == bob
    model.steps = ["好的"]
    await again.ask("给他回复")
    assert f"inquiry #{bob}, Bob Steward" in _context_of(model)


async def test_several_matches_leave_nobody_current_so_it_asks(
    services: Services, model: Model
) -> None:
    amy = add_customer(services, "Amy Lee", email="amy@example.com")
    add_customer(services, "Bob Steward", email="bob@example.com")
    add_customer(services, "Bob Nguyen", email="bobn@example.com")
    talk = Conversation("t", "telegram", model.assistant, current_inquiry_id=amy)
    model.steps = [[{"name": "search_customers", "arguments": {"name": "Bob"}}], "哪位 Bob？"]
    reply = await talk.ask("Bob 怎么样了")
    assert "SEVERAL_CUSTOMERS" in reply.tool_calls[0].result  # the model is told to ask
    assert talk.current_inquiry_id is None  # "他" is not Amy any more, nor a guessed Bob
    model.steps = ["请问是哪位？"]
    await talk.ask("给他回复")
    assert _context_of(model) == ""  # no customer is offered as "他"


async def test_a_draft_makes_its_customer_current_and_the_answer_names_him(
    services: Services, model: Model
) -> None:
    amy = add_customer(services, "Amy Lee", email="amy@example.com")
    bob = add_customer(services, "Bob Steward", email="bob@example.com")
    talk = Conversation("t", "desktop", model.assistant, current_inquiry_id=amy)
    model.steps = [
        [{"name": "draft_reply", "arguments": {"inquiry_id": bob, "instruction": "下周二量尺"}}],
        "已为 Bob Steward 起草回复，等待审批。",
    ]
    reply = await talk.ask("给 Bob 回复，下周二来量尺")
    answer = json.loads(reply.tool_calls[0].result)
    assert answer["customer"] == "Bob Steward" and "已为 <customer> 起草" in answer["note"]
    assert talk.current_inquiry_id == bob


@pytest.fixture
async def owner(services: Services, model: Model):  # type: ignore[no-untyped-def]
    """The owner's own drafting (decisions, the 待审批 list) over the same store and model."""
    drafting = build_drafting(services, model.assistant.llm)
    yield drafting
    await drafting.aclose()


async def test_revising_through_the_assistant_leaves_one_live_draft(  # type: ignore[no-untyped-def]
    services: Services, model: Model, owner
) -> None:
    bob = add_customer(services, "Bob Steward", email="bob@example.com")
    talk = Conversation("t", "desktop", model.assistant, current_inquiry_id=bob)
    model.steps = [
        [{"name": "draft_reply", "arguments": {"inquiry_id": bob, "instruction": "报价 $800"}}],
        "已为 Bob Steward 起草。",
    ]
    await talk.ask("给他回复，报价 $800")
    [first] = _statuses(services)
    model.steps = [
        [{"name": "revise_draft", "arguments": {"draft_id": first, "instruction": "改成 $750"}}],
        "已修改。",
    ]
    reply = await talk.ask("改一下，改成 $750")
    answer = json.loads(reply.tool_calls[0].result)
    second = answer["draft_id"]
    assert answer["replaces"] == first and "SUPERSEDED" in answer["superseded_drafts"]
    assert _statuses(services) == {first: "superseded", second: "pending_approval"}
    queue = await owner.reader.list(("pending_approval", "approved", "sending", "failed"))
    assert [v.id for v in queue] == [second]  # the 待审批 list offers only the new one
    with services.store.session() as s:
        new = s.get(Draft, second)
        assert new is not None
        assert new.revision_of == first and new.instruction.endswith("修改：改一下，改成 $750")
    # the old version can never be approved or sent, by any of his surfaces
    with pytest.raises(DraftStateError):
        await owner.decisions.approve(first, actor="owner")
    with pytest.raises(DraftStateError):
        await owner.decisions.send(first, actor="cli")
    assert _statuses(services)[first] == "superseded"


async def test_a_second_reply_to_the_same_customer_supersedes_the_first(
    services: Services, model: Model
) -> None:
    services.settings.update({"drafts.factory_address": "factory@example.com"})
    bob = add_customer(services, "Bob Steward", email="bob@example.com")
    talk = Conversation("t", "desktop", model.assistant, current_inquiry_id=bob)
    model.steps = [
        [{"name": "draft_reply", "arguments": {"inquiry_id": bob, "instruction": "报价"}}],
        [{"name": "forward_to_factory", "arguments": {"inquiry_id": bob, "instruction": "做"}}],
        [{"name": "draft_reply", "arguments": {"inquiry_id": bob, "instruction": "再报价"}}],
        "好的。",
    ]
    reply = await talk.ask("给他回复报价，转给工厂，再重新写一份回复")
    first, factory, second = (json.loads(c.result)["draft_id"] for c in reply.tool_calls)
    # the factory mail is another thread; the reply to Bob is one live draft
    assert _statuses(services) == {
        first: "superseded",
        factory: "pending_approval",
        second: "pending_approval",
    }
    assert f"SUPERSEDED [{first}]" in json.loads(reply.tool_calls[2].result)["superseded_drafts"]
    with services.store.session() as s:
        [event] = s.scalars(select(DraftEvent).where(DraftEvent.to_status == "superseded"))
        assert (event.draft_id, event.note) == (first, f"被草稿 {second} 取代")


async def test_reading_two_customers_leaves_nobody_current_but_a_draft_decides(
    services: Services, model: Model
) -> None:
    amy = add_customer(services, "Amy Lee", email="amy@example.com")
    bob = add_customer(services, "Bob Steward", email="bob@example.com")
    talk = Conversation("t", "desktop", model.assistant, current_inquiry_id=amy)
    model.steps = [
        [{"name": "get_inquiry", "arguments": {"inquiry_id": amy}}],
        [{"name": "get_inquiry", "arguments": {"inquiry_id": bob}}],
        "两位都在等报价。",
    ]
    await talk.ask("Amy 和 Bob 谁先报价？")
    assert talk.current_inquiry_id is None  # "他" after comparing two is a question
    model.steps = [
        [{"name": "get_inquiry", "arguments": {"inquiry_id": amy}}],
        [{"name": "draft_reply", "arguments": {"inquiry_id": bob, "instruction": "报价"}}],
        "已为 Bob Steward 起草。",
    ]
    await talk.ask("先给 Bob 报价")
    assert talk.current_inquiry_id == bob  # the one it wrote for
