"""The assistant reads back what the owner taught it: his rules and lessons in every turn, a
customer's notes while that customer is the one being talked about — never another's — and
nothing whose day has passed. Asserted on what the loopback model receives."""

from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import select

from core.agent.memory import save_memory
from core.app import App
from core.db.models import Memory
from tests.drafts.support import add_inquiry
from tests.support.llm_server import LLMServer, schema_name


def _last_turn(srv: LLMServer) -> str:
    """The messages of the last assistant request (the ones offering tools)."""
    asks = [r.body for r in srv.chat_requests if r.body and r.body.get("tools")]
    return json.dumps(asks[-1]["messages"], ensure_ascii=False)


async def test_the_current_customers_memories_reach_the_assistant_and_no_one_elses(  # type: ignore[no-untyped-def]
    services, clock
) -> None:
    billy, _ = add_inquiry(services, email="billy@example.com", name="Billy Nguyen")
    amy, _ = add_inquiry(services, email="amy@example.com", name="Amy Lee")
    note, _ = save_memory(services, "customer_note", "Billy 预算有限", source="telegram")
    save_memory(services, "experience", "Ryde 市政审批很慢", source="telegram")
    visit, _ = save_memory(services, "boss_pref", "明天不上门", source="desktop")
    # the assistant answers; the cheap tier's review (the conversation went idle) finds nothing
    with LLMServer(lambda r: {"memories": []} if schema_name(r) else "好的。") as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        app = App(services)
        conversation = app.assistant.conversation("memories", channel="desktop")
        conversation.current_inquiry_id = billy
        await conversation.ask("给他报价要注意什么？")
        first = _last_turn(srv)
        conversation.current_inquiry_id = amy
        clock.advance(timedelta(days=2).total_seconds())  # 明天 is over
        await conversation.ask("那她呢？")
        second = _last_turn(srv)
        asked = [r.body for r in srv.chat_requests if r.body and r.body.get("tools")]
        about_amy = json.dumps(asked[-1]["messages"][-1], ensure_ascii=False)
        await app.aclose()
    # Billy's note came with the turn about him (it stays in that turn, as sent: the history
    # is never rewritten); the turn about Amy carries none of it
    assert "Billy 预算有限" in first and "Amy Lee" in about_amy
    assert "Billy 预算有限" not in about_amy
    assert "Ryde 市政审批很慢" in first and "Ryde 市政审批很慢" in second  # a lesson: always
    assert "明天不上门" in first and "明天不上门" not in second
    with services.store.session() as s:
        rows = {m.id: m for m in s.scalars(select(Memory))}
        assert rows[visit].status == "expired"
        assert rows[note].last_used_in == "assistant:desktop"
