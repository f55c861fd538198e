"""Composing, the fact guard in the flow, owner edits, approval rules and the audit trail."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from core.db.models import Draft, DraftEvent
from core.drafts.reader import PENDING_TEXT
from core.errors import DraftStateError, UnconfirmedFactsError
from core.events import DraftChanged
from tests.drafts.support import CUSTOMER, add_inquiry, add_sent


async def test_compose_lands_pending_with_customer_and_thread(
    services, drafting, model, llm_server
):
    inquiry_id, msg_pk = add_inquiry(services)
    draft_id = await drafting.composer.compose(
        inquiry_id, "报价15000含GST，下周二上午10点上门量尺", actor="owner"
    )
    view = await drafting.reader.get(draft_id)
    assert view.status == "pending_approval"
    assert view.to == [CUSTOMER]
    assert view.reply_to_message_pk == msg_pk
    assert view.subject == "RE: Sliding door quote"  # stays in the thread
    assert "$15,000" in view.body_en and "Tuesday at 10am" in view.body_en
    assert view.body_zh.startswith("您好")  # from the English-only translation call
    assert "$15,000" in view.body_zh and not view.zh_stale
    assert view.unconfirmed_facts == []
    # the customer's text went to the model as delimited data, with the instruction apart
    user = llm_server.last_drafting().body["messages"][-1]["content"]
    thread = user.split("<thread>")[1].split("</thread>")[0]
    assert "2400 x 2100 for 12 Smith St" in thread
    assert "报价15000含GST" in user.split("<instruction>")[1].split("</instruction>")[0]
    assert (await drafting.reader.describe_for_tool(draft_id)).startswith(PENDING_TEXT)
    assert DraftChanged(draft_id, inquiry_id, "pending_approval") in services.bus.events


async def test_planted_fact_blocks_one_click_approval(services, drafting, model):
    inquiry_id, _ = add_inquiry(services)
    model.plant = ["The total comes to $16,500 and installation takes 3 weeks."]
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000含GST", actor="owner")
    view = await drafting.reader.get(draft_id)
    assert view.unconfirmed_facts == ["$16,500", "3 weeks"]
    with pytest.raises(UnconfirmedFactsError) as err:
        await drafting.decisions.approve(draft_id, actor="owner")
    assert "$16,500" in err.value.user_message()
    assert (await drafting.reader.get(draft_id)).status == "pending_approval"
    # confirming one is not enough; confirming both is
    await drafting.edits.confirm_facts(draft_id, ["$16,500"], actor="owner")
    assert (await drafting.reader.get(draft_id)).unconfirmed_facts == ["3 weeks"]
    await drafting.edits.confirm_facts(draft_id, ["3 weeks"], actor="owner")
    assert (await drafting.decisions.approve(draft_id, actor="owner")).status == "approved"


async def test_accept_unconfirmed_and_edit_away(services, drafting, model):
    inquiry_id, _ = add_inquiry(services)
    model.plant = ["Call me on 0499 111 222."]
    first = await drafting.composer.compose(inquiry_id, "报价15000", actor="owner")
    assert (await drafting.reader.get(first)).unconfirmed_facts == ["0499 111 222"]
    view = await drafting.decisions.approve(first, actor="cli", accept_unconfirmed=True)
    assert view.status == "approved" and "0499 111 222" in view.confirmed_facts
    # (approved first: a new reply to the same customer replaces a draft still pending)
    second = await drafting.composer.compose(inquiry_id, "报价15000", actor="owner")
    # editing the invented number away clears the flag
    body = (await drafting.reader.get(second)).body_en.replace(" Call me on 0499 111 222.", "")
    edited = await drafting.edits.update_body(second, body, actor="owner")
    assert edited.unconfirmed_facts == [] and edited.body_zh == ""  # preview must be redone
    assert edited.zh_stale  # … before it can be approved
    await drafting.edits.rerender_zh(second)
    assert (await drafting.decisions.approve(second, actor="owner")).status == "approved"


async def test_edit_after_approval_demotes_and_rerender(services, drafting):
    inquiry_id, _ = add_inquiry(services)
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000", actor="owner")
    await drafting.decisions.approve(draft_id, actor="owner")
    view = await drafting.edits.update_body(
        draft_id, "Hi Jane,\n\nThank you. The price is $15,000.\n", actor="owner"
    )
    assert view.status == "pending_approval"
    zh = await drafting.edits.rerender_zh(draft_id)
    assert zh.startswith("【中文】") and (await drafting.reader.get(draft_id)).body_zh == zh
    with pytest.raises(DraftStateError):
        await drafting.edits.update_body(draft_id, "x", actor="owner", to=["not-an-address"])


async def test_changing_only_the_recipient_needs_a_new_approval(services, drafting):
    inquiry_id, _ = add_inquiry(services)
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000", actor="owner")
    before = await drafting.decisions.approve(draft_id, actor="owner")
    view = await drafting.edits.set_recipients(draft_id, ["jane@work.example.com"], actor="owner")
    # the words stay, the address changes: he approved an email to someone else
    assert view.to == ["jane@work.example.com"] and view.body_en == before.body_en
    assert view.status == "pending_approval" and view.recipient_differs
    with pytest.raises(DraftStateError):
        await drafting.edits.set_recipients(draft_id, [], actor="owner")
    steps = await drafting.reader.events(draft_id)
    assert (steps[-1].from_status, steps[-1].to_status) == ("approved", "pending_approval")


async def test_revise_supersedes_and_keeps_recipients(services, drafting):
    inquiry_id, _ = add_inquiry(services)
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000", actor="owner")
    await drafting.edits.update_body(
        draft_id,
        (await drafting.reader.get(draft_id)).body_en,
        actor="owner",
        to=["jane@work.example.com"],
    )
    new_id = await drafting.composer.revise(draft_id, "语气更正式一点", actor="owner")
    assert (await drafting.reader.get(draft_id)).status == "superseded"
    new = await drafting.reader.get(new_id)
    assert new.status == "pending_approval" and new.to == ["jane@work.example.com"]
    assert new.recipient_differs
    assert "15000" in new.instruction and "更正式" in new.instruction
    with pytest.raises(DraftStateError):
        await drafting.decisions.approve(draft_id, actor="owner")  # a superseded draft is dead


async def test_only_owner_actors_approve_and_everything_is_audited(services, drafting):
    inquiry_id, _ = add_inquiry(services)
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000", actor="agent")
    for actor in ("agent", "assistant", "pipeline", "llm", "system"):
        with pytest.raises(DraftStateError):
            await drafting.decisions.approve(draft_id, actor=actor)
    await drafting.decisions.approve(draft_id, actor="telegram")
    await drafting.decisions.reject(draft_id, actor="owner")
    events = await drafting.reader.events(draft_id)
    assert [(e.from_status, e.to_status, e.actor) for e in events] == [
        (None, "draft", "agent"),
        ("draft", "pending_approval", "agent"),
        ("pending_approval", "approved", "telegram"),
        ("approved", "rejected", "owner"),
    ]
    assert all(e.at for e in events)
    with pytest.raises(DraftStateError):
        await drafting.decisions.send(draft_id, actor="owner")


async def test_recipient_never_from_model_output(services, drafting, model):
    inquiry_id, _ = add_inquiry(services)
    model.extra_email = "attacker@evil.example"
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000", actor="owner")
    view = await drafting.reader.get(draft_id)
    assert view.to == [CUSTOMER]
    assert "attacker@evil.example" in view.unconfirmed_facts  # and it is flagged in the body


async def test_recent_contact_warning(services, drafting):
    inquiry_id, _ = add_inquiry(services)
    add_sent(services, to=CUSTOMER, subject="RE: Sliding door quote", days_ago=3)
    add_sent(services, to=CUSTOMER, subject="Old news", days_ago=20)
    add_sent(services, to="someone.else@example.com", subject="Other", days_ago=1)
    recent = await drafting.reader.recent_contact(inquiry_id)
    assert [r.subject for r in recent] == ["RE: Sliding door quote"]
    assert (await drafting.reader.recent_contact(CUSTOMER.upper()))[
        0
    ].subject == "RE: Sliding door quote"
    assert await drafting.reader.recent_contact("nobody@example.com") == []


async def test_chinese_customer_gets_chinese_flag(services, drafting, llm_server):
    inquiry_id, _ = add_inquiry(services, body="你好，我想装推拉门，尺寸2400x2100。", language="zh")
    await drafting.composer.compose(inquiry_id, "报价15000", actor="owner")
    system = llm_server.last_drafting().body["messages"][0]["content"]
    assert (
        '"zh"' in system
        or '= "zh"' in system
        or "zh" in system.split("customer wrote to us in Chinese")[1][:40]
    )


async def test_compose_without_llm_is_a_clear_error(services):
    from core.drafts.drafting import build_drafting
    from core.errors import LLMUnavailable

    inquiry_id, _ = add_inquiry(services)
    with pytest.raises(LLMUnavailable):
        await build_drafting(services, None).composer.compose(inquiry_id, "报价", actor="owner")
    with services.store.session() as s:
        assert s.scalars(select(Draft)).all() == [] and s.scalars(select(DraftEvent)).all() == []
