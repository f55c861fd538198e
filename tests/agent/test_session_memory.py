"""After a conversation the cheap tier proposes memories; what he already has is not proposed
again. Loopback model, real SQLite; the owner sees proposals waiting for his confirmation."""

from __future__ import annotations

from sqlalchemy import select

from core.agent.memory import is_duplicate_memory, save_memory
from core.app import App
from core.db.models import Memory
from tests.agent.session_support import SessionModel
from tests.support.llm_server import LLMServer, schema_name


def test_duplicates_are_judged_on_normalised_text() -> None:
    known = ["报价都含GST", "Wednesday: no site visits"]
    assert is_duplicate_memory("报价都含 gst。", known)  # spaces, case, punctuation
    assert is_duplicate_memory("所有报价都含GST", known)  # one contains the other
    assert is_duplicate_memory("wednesdays: no site visit", known)  # near-copy (ratio >= 0.8)
    assert not is_duplicate_memory("周三不上门量尺", known)
    assert not is_duplicate_memory("Billy 的门宽 2400", known)


async def test_close_proposes_new_memories_once(services) -> None:  # type: ignore[no-untyped-def]
    save_memory(services, "business_rule", "报价都含GST", source="desktop")
    review = [
        {"kind": "business_rule", "text": "报价都含 GST。"},  # he has it already
        {"kind": "boss_pref", "text": "周三不上门量尺"},
        {"kind": "boss_pref", "text": "周三不上门量尺！"},  # the same twice
        {"kind": "customer_note", "text": "Billy (#3) 要 2400 宽的推拉门"},
    ]
    model = SessionModel(answer_chars=40, review=review)
    with LLMServer(model) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        app = App(services)
        conversation = app.assistant.conversation("day", channel="desktop")
        await conversation.ask("周三我不上门量尺")
        proposed = await conversation.close()
        assert await conversation.close() == []  # nothing new to review: no second call
        reviews = [r for r in srv.chat_requests if schema_name(r.body) == "sessionmemories"]
        await app.aclose()
    assert len(reviews) == 1
    prompt = "\n".join(str(m["content"]) for m in reviews[0].body["messages"])
    assert "周三我不上门量尺" in prompt and '"报价都含GST"' in prompt
    with services.store.session() as s:
        rows = s.scalars(select(Memory).order_by(Memory.id)).all()
    assert [(m.text, m.status) for m in rows] == [
        ("报价都含GST", "active"),
        ("周三不上门量尺", "proposed"),
        ("Billy (#3) 要 2400 宽的推拉门", "proposed"),
    ]
    assert proposed == [rows[1].id, rows[2].id]


async def test_a_session_resumed_after_idle_is_reviewed(services) -> None:  # type: ignore[no-untyped-def]
    model = SessionModel(answer_chars=40, review=[{"kind": "boss_pref", "text": "周三不上门"}])
    with LLMServer(model) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        app = App(services)
        conversation = app.assistant.conversation("day", channel="desktop")
        await conversation.ask("周三我不上门")
        services.clock.advance(conversation.idle_seconds + 1)  # he came back much later
        resumed = App(services).assistant.conversation("day", channel="desktop")
        await resumed.ask("今天有什么事？")
        await resumed.settle()
        await app.aclose()
        await resumed.assistant.llm.aclose()
    reviews = [r for r in srv.chat_requests if schema_name(r.body) == "sessionmemories"]
    assert len(reviews) == 1
    with services.store.session() as s:
        assert [(m.text, m.status) for m in s.scalars(select(Memory))] == [
            ("周三不上门", "proposed")
        ]
