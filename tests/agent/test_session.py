"""Sessions in SQLite: a restart continues the conversation with the same customer.

Real SQLite, the real client against the loopback model. What the owner would notice: after
the app restarts, today's conversation is still there, "他" still means the customer he picked,
the next question is answered knowing the earlier ones, a stopped turn leaves no trace, and
``ask --session`` continues where the last one stopped.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from core.agent.session_store import today_name
from core.app import App
from core.app.assistant import today_name as app_today_name
from core.clock import FakeClock
from core.db.models import AssistantSession, AssistantTurn
from tests.agent.session_support import SessionModel, assistant_requests
from tests.drafts.support import add_inquiry
from tests.support.llm_server import LLMServer, Reply, sequence


@pytest.fixture
def server(services):  # type: ignore[no-untyped-def]
    with LLMServer(SessionModel(answer_chars=60)) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        yield srv


def test_today_name_is_the_sydney_date() -> None:
    # 14:30 UTC on 30 November is 01:30 on 1 December in Sydney
    clock = FakeClock(datetime(2026, 11, 30, 14, 30, tzinfo=UTC))
    assert today_name(clock) == "2026-12-01" == app_today_name(clock)


async def test_restart_continues_the_session_with_its_customer(services, server) -> None:  # type: ignore[no-untyped-def]
    inquiry_id, _ = add_inquiry(services, name="Billy Nguyen")
    name = today_name(services.clock)
    app = App(services)
    first = app.assistant.conversation(name, channel="desktop")
    first.current_inquiry_id = inquiry_id
    await first.ask("他要的推拉门宽 2400")
    await app.aclose()

    again = App(services).assistant.conversation(name, channel="desktop")  # a fresh process
    assert again is not first
    assert again.current_inquiry_id == inquiry_id
    assert [role for role, _ in again.transcript()] == ["user", "assistant"]
    assert again.transcript()[0][1] == "他要的推拉门宽 2400"
    await again.ask("给他回复")
    await again.assistant.llm.aclose()

    last = assistant_requests(server)[-1]["messages"]
    texts = [str(m.get("content") or "") for m in last]
    assert any("他要的推拉门宽 2400" in t for t in texts)  # the earlier turn is in the prompt
    context = [t for t in texts if "Current customer" in t]
    assert context and f"#{inquiry_id}" in context[0] and "Billy Nguyen" in context[0]
    with services.store.session() as s:
        rows = s.scalars(select(AssistantTurn).order_by(AssistantTurn.id)).all()
        assert [(r.turn, r.role) for r in rows] == [
            (1, "user"), (1, "assistant"), (2, "user"), (2, "assistant"),
        ]  # fmt: skip
        assert {r.created_at for r in rows} == {services.clock.now().replace(tzinfo=None)}
        (session,) = s.scalars(select(AssistantSession)).all()
        assert (session.channel, session.name) == ("desktop", name)


async def test_tool_calls_and_results_survive_a_restart(services) -> None:  # type: ignore[no-untyped-def]
    answers = sequence([[{"name": "pipeline_summary", "arguments": {}}], "各阶段都看过了。"])
    with LLMServer(lambda r: answers(r)) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        app = App(services)
        conversation = app.assistant.conversation("s", channel="cli")
        await conversation.ask("各阶段多少？")
        await app.aclose()
    reloaded = App(services).assistant.conversation("s", channel="cli")
    history = reloaded.history
    assert [m["role"] for m in history] == ["user", "assistant", "tool", "assistant"]
    call = history[1]["tool_calls"][0]
    assert call["function"]["name"] == "pipeline_summary"
    assert history[2]["tool_call_id"] == call["id"]
    assert json.loads(history[2]["content"])  # the tool's result, whole
    assert reloaded.transcript() == [("user", "各阶段多少？"), ("assistant", "各阶段都看过了。")]


async def test_a_stopped_turn_leaves_no_trace(services) -> None:  # type: ignore[no-untyped-def]
    with LLMServer(lambda r: Reply(content="太慢了", delay=5)) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        app = App(services)
        conversation = app.assistant.conversation("s", channel="desktop")
        task = asyncio.ensure_future(conversation.ask("你好"))
        while not srv.chat_requests:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await app.aclose()
    assert conversation.history == []
    with services.store.session() as s:
        assert s.scalars(select(AssistantTurn)).all() == []


async def test_one_shot_conversation_is_not_kept(services, server) -> None:  # type: ignore[no-untyped-def]
    app = App(services)
    await app.assistant.conversation("ask", channel="cli", persist=False).ask("你好")
    fresh = app.assistant.conversation("ask", channel="cli", persist=False)
    await app.aclose()
    assert fresh.history == []
    with services.store.session() as s:
        assert s.scalars(select(AssistantTurn)).all() == []


def test_ask_session_continues_headless(home, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    from core.cli.main import main
    from core.services import build_services

    with LLMServer(SessionModel(answer_chars=40)) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", srv.base_url)
        services = build_services(home)
        inquiry_id, _ = add_inquiry(services, name="Steward Lee")
        services.close()
        args = ["--home", str(home), "--session", "steward"]
        assert main(["ask", *args, "--inquiry", str(inquiry_id), "平面图在哪"]) == 0
        assert main(["ask", *args, "给他回复"]) == 0
        assert main(["ask", "--home", str(home), "你好"]) == 0  # one-shot: no session
    out = capsys.readouterr().out
    assert "好的，关于" in out
    asks = assistant_requests(srv)
    second = "\n".join(str(m.get("content") or "") for m in asks[1]["messages"])
    assert "平面图在哪" in second and "Steward Lee" in second
    third = "\n".join(str(m.get("content") or "") for m in asks[2]["messages"])
    assert "平面图在哪" not in third and "Steward Lee" not in third


async def test_a_months_long_session_loads_only_what_is_shown(services) -> None:  # type: ignore[no-untyped-def]
    from core.agent.session_store import SHOWN_TURNS, SessionStore, Turn

    store = SessionStore(services)
    state = store.open("telegram", "chat-42")
    total = SHOWN_TURNS + 10
    for n in range(1, total + 1):
        messages = [{"role": "user", "content": f"q{n}"}, {"role": "assistant", "content": "a"}]
        await store.append_turn(state.id, Turn(n, messages))
    await store.save_summary(state.id, "notes", total - 5)
    numbers = [t.number for t in store.open("telegram", "chat-42").turns]
    assert numbers == list(range(11, total + 1))  # the last SHOWN_TURNS, all unsummarised ones
    await store.save_summary(state.id, "notes", 3)
    numbers = [t.number for t in store.open("telegram", "chat-42").turns]
    assert numbers == list(range(4, total + 1))
