"""The owner's standing memories shape every draft: they reach the model as delimited data."""

from __future__ import annotations

from datetime import datetime

from core.db.models import Memory
from tests.drafts.support import add_inquiry
from tests.support.llm_server import last_user_text, system_text


def remember(services, kind: str, text: str, *, inquiry_id=None, status="active") -> None:  # type: ignore[no-untyped-def]
    now = datetime(2026, 4, 1, 9, 0)

    def do(session):  # type: ignore[no-untyped-def]
        session.add(
            Memory(
                kind=kind,
                inquiry_id=inquiry_id,
                text=text,
                source="voice",
                status=status,
                created_at=now,
                updated_at=now,
            )
        )

    services.store.write(do)


def _memory_block(request: dict) -> str:
    text = last_user_text(request)
    return text.split("<owner_memory>", 1)[1].split("</owner_memory>", 1)[0]


async def test_standing_preferences_reach_compose_and_revise(services, drafting, llm_server):
    inquiry_id, _ = add_inquiry(services)
    other_id, _ = add_inquiry(services, email="bob@example.com", name="Bob")
    services.settings.update({"drafts.style_notes": "Sign as Peter"})
    remember(services, "boss_pref", "Always offer a free site measure in the Sydney metro area")
    remember(services, "business_rule", "Deposit is 50% on order, balance on installation")
    remember(services, "customer_note", "Jane prefers calls after 3pm", inquiry_id=inquiry_id)
    remember(
        services, "customer_note", "Bob is a builder, wants trade pricing", inquiry_id=other_id
    )
    remember(services, "boss_pref", "Old rule: quote in USD", status="superseded")
    remember(services, "experience", "Ryde council is slow with approvals")

    draft_id = await drafting.composer.compose(inquiry_id, "报价15000含GST", actor="owner")

    request = llm_server.last_drafting().body
    block = _memory_block(request)
    assert "[owner preference] Always offer a free site measure" in block
    assert "[business rule] Deposit is 50% on order" in block
    assert "[note about this customer] Jane prefers calls after 3pm" in block
    assert "Bob is a builder" not in block  # another customer's note
    assert "USD" not in block  # superseded
    assert "Ryde council" not in block  # experience is not a standing preference
    assert "Sign as Peter" in system_text(request)
    assert "<owner_memory>" in system_text(request)  # the model is told what the block is

    await drafting.composer.revise(draft_id, "更正式一点", actor="owner")
    assert "Deposit is 50% on order" in _memory_block(llm_server.last_drafting().body)


async def test_a_value_from_a_business_rule_is_not_flagged(services, drafting, model):
    inquiry_id, _ = add_inquiry(services)
    remember(services, "business_rule", "Our aluminium frames carry a 10 year warranty")
    model.plant = ["All frames carry a 10 year warranty."]
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000含GST", actor="owner")
    assert (await drafting.reader.get(draft_id)).unconfirmed_facts == []


async def test_no_memories_says_none(services, drafting, llm_server):
    inquiry_id, _ = add_inquiry(services)
    await drafting.composer.compose(inquiry_id, "报价15000含GST", actor="owner")
    assert _memory_block(llm_server.last_drafting().body).strip() == "(none)"
