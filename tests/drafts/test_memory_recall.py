"""What the owner told the assistant about a customer comes back in that customer's drafts —
and only his: asserted on the request body the loopback model receives."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from sqlalchemy import select

from core.agent.memory import confirm_memory
from core.agent.session_digest import review
from core.agent.session_store import Turn
from core.db.models import AuditEntry, Memory
from core.services import Services
from tests.drafts.support import add_inquiry
from tests.support.llm_server import last_user_text, schema_name


def _memory_block(request: dict) -> str:  # type: ignore[type-arg]
    text = last_user_text(request)
    return text.split("<owner_memory>", 1)[1].split("</owner_memory>", 1)[0]


def _everything(request: dict) -> str:  # type: ignore[type-arg]
    return json.dumps(request, ensure_ascii=False)


def _memory(services: Services, memory_id: int) -> Memory:
    with services.store.session() as s:
        memory = s.get(Memory, memory_id)
        assert memory is not None
        s.expunge(memory)
        return memory


def _proposing(model, memories: list[dict]):  # type: ignore[no-untyped-def,type-arg]
    """The drafting model, plus the cheap tier's review of a conversation proposing memories."""

    def respond(request):  # type: ignore[no-untyped-def]
        if schema_name(request) == "sessionmemories":
            return {"memories": memories}
        return model(request)

    return respond


async def test_a_confirmed_note_from_telegram_reaches_billys_draft_and_no_one_elses(  # type: ignore[no-untyped-def]
    services, drafting, llm, llm_server, model
) -> None:
    billy, _ = add_inquiry(services, email="billy@example.com", name="Billy Nguyen")
    amy, _ = add_inquiry(services, email="amy@example.com", name="Amy Lee")
    llm_server.responder = _proposing(
        model,
        [{"kind": "customer_note", "text": "Billy 预算有限", "customer": "Billy",
          "inquiry_id": None, "expires_on": None}],
    )  # fmt: skip
    turns = [Turn(1, [{"role": "user", "content": "Billy 说他预算有限，记一下"}], None)]
    (memory_id,) = await review(services, llm, turns, channel="telegram")
    proposed = _memory(services, memory_id)
    assert (proposed.status, proposed.inquiry_id, proposed.channel) == (
        "proposed",
        billy,
        "telegram",
    )

    await drafting.composer.compose(billy, "报价15000含GST", actor="owner")
    assert "预算有限" not in _everything(llm_server.last_drafting().body)  # a proposal is unused

    confirm_memory(services, memory_id)
    draft_id = await drafting.composer.compose(billy, "报价15000含GST", actor="owner")
    request = llm_server.last_drafting().body
    assert "[note about this customer] Billy 预算有限" in _memory_block(request)
    used = _memory(services, memory_id)
    assert used.last_used_in == f"draft:{draft_id}" and used.last_used_at is not None

    await drafting.composer.compose(amy, "报价9000含GST", actor="owner")
    assert "预算有限" not in _everything(llm_server.last_drafting().body)

    # Billy writes again about another job: a new inquiry of the same customer reads it too
    again, _ = add_inquiry(services, email="billy@example.com", name="Billy Nguyen",
                           subject="Another window")  # fmt: skip
    await drafting.composer.compose(again, "报价3000含GST", actor="owner")
    assert "Billy 预算有限" in _memory_block(llm_server.last_drafting().body)


async def test_a_name_two_customers_share_links_no_one(services, drafting, llm_server) -> None:  # type: ignore[no-untyped-def]
    from core.agent.memory import save_memory

    first, _ = add_inquiry(services, email="billy@example.com", name="Billy Nguyen")
    second, _ = add_inquiry(services, email="billy.t@example.com", name="Billy Tran")
    vague, _ = save_memory(services, "customer_note", "Billy 要黑色边框", source="telegram")
    exact, _ = save_memory(services, "customer_note", "Billy Tran 要白色边框", source="telegram")
    assert _memory(services, vague).inquiry_id is None  # which Billy? nobody's, not the wrong one
    assert _memory(services, exact).inquiry_id == second
    await drafting.composer.compose(first, "报价15000含GST", actor="owner")
    block = _memory_block(llm_server.last_drafting().body)
    assert "黑色" not in block and "白色" not in block


async def test_a_memory_past_its_day_is_expired_and_unused(  # type: ignore[no-untyped-def]
    services, drafting, llm_server, clock
) -> None:
    from core.agent.memory import save_memory

    billy, _ = add_inquiry(services, email="billy@example.com", name="Billy Nguyen")
    # Wednesday 1 April 2026, 11:00 in Sydney: 下周二 is Tuesday 7 April
    memory_id, _ = save_memory(services, "customer_note", "Billy 下周二上门量尺", source="desktop")
    memory = _memory(services, memory_id)
    assert memory.inquiry_id == billy
    assert memory.expires_at == datetime(2026, 4, 7, 14, 0)  # 8 April 00:00 Sydney, in UTC

    await drafting.composer.compose(billy, "报价15000含GST", actor="owner")
    assert "下周二上门量尺" in _memory_block(llm_server.last_drafting().body)

    clock.advance(timedelta(days=6, hours=13).total_seconds())  # Tuesday 7 April, 23:00 Sydney
    await drafting.composer.compose(billy, "报价15000含GST", actor="owner")
    assert "下周二上门量尺" in _memory_block(llm_server.last_drafting().body)  # still that day
    assert _memory(services, memory_id).status == "active"

    clock.advance(timedelta(hours=2).total_seconds())  # Wednesday 8 April, 01:00 Sydney
    assert clock.now() == datetime(2026, 4, 7, 15, 0, tzinfo=UTC)
    await drafting.composer.compose(billy, "报价15000含GST", actor="owner")
    assert "下周二上门量尺" not in _everything(llm_server.last_drafting().body)
    assert _memory(services, memory_id).status == "expired"  # kept, not deleted
    with services.store.session() as s:
        actions = s.scalars(
            select(AuditEntry.action).where(
                AuditEntry.entity == "memory", AuditEntry.entity_id == memory_id
            )
        ).all()
    assert "memory_expired" in actions
