"""Streaming turns: the text arrives while the model writes, a tool is announced as it starts,
and what the owner finally reads is the assertion guard's checked answer.

The loopback model streams real server-sent events (content pieces, tool-call deltas, usage,
``[DONE]``); the real client and assistant run unchanged.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from sqlalchemy import func, select

from core.agent.conversation import TextDelta, ToolActivity, TurnDone
from core.app import App
from core.db.models import Draft, Inquiry, LLMCall
from core.inquiry.search import refresh_search_text
from core.llm.client import LLMClient
from tests.agent.test_assistant import ScriptedModel
from tests.drafts.support import add_inquiry
from tests.support.llm_server import LLMServer, Reply


async def test_stream_assembles_text_tool_calls_and_usage(services) -> None:  # type: ignore[no-untyped-def]
    call = {"name": "get_inquiry", "arguments": {"inquiry_id": 7, "note": "x" * 40}}
    answers = iter([Reply(content="让我看看", tool_calls=[call]), "Billy 要推拉门。"])
    with LLMServer(lambda _r: next(answers)) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        client = LLMClient(services.settings, services.secrets, services.store, services.clock)
        pieces: list[str] = []
        messages = [{"role": "user", "content": "Billy 要什么"}]
        first = await client.stream(
            tier=3, purpose="assistant", messages=messages, on_text=pieces.append
        )
        second = await client.stream(
            tier=3, purpose="assistant", messages=messages, on_text=pieces.append
        )
        await client.aclose()
    assert first.content == "让我看看" and first.finish_reason == "tool_calls"
    (assembled,) = first.tool_calls
    assert assembled["name"] == "get_inquiry" and assembled["id"].startswith("call_")
    assert assembled["arguments"] == '{"inquiry_id": 7, "note": "' + "x" * 40 + '"}'
    assert second.content == "Billy 要推拉门。" and len(pieces) >= 3
    assert "".join(pieces) == "让我看看Billy 要推拉门。"
    assert srv.chat_requests[0].body["stream"] is True
    with services.store.session() as s:
        rows = s.scalars(select(LLMCall).order_by(LLMCall.id)).all()
    assert [(r.purpose, r.ok) for r in rows] == [("assistant", True), ("assistant", True)]
    # the endpoint's own usage (the server counts characters / 4), not a second estimate
    assert rows[0].prompt_tokens == len("Billy 要什么") // 4 and rows[0].completion_tokens > 0


async def test_stream_error_is_one_failed_ledger_row(services) -> None:  # type: ignore[no-untyped-def]
    from core.errors import LLMUnavailable

    with LLMServer(lambda _r: Reply.error(503)) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        client = LLMClient(services.settings, services.secrets, services.store, services.clock)
        with pytest.raises(LLMUnavailable):
            await client.stream(
                tier=3, purpose="assistant", messages=[{"role": "user", "content": "?"}]
            )
        await client.aclose()
    with services.store.session() as s:
        assert [r.ok for r in s.scalars(select(LLMCall))] == [False]


async def test_panel_events_tool_first_text_as_it_comes_checked_answer_last(services) -> None:  # type: ignore[no-untyped-def]
    inquiry_id, _ = add_inquiry(services)
    services.store.write(lambda s: refresh_search_text(s.get(Inquiry, inquiry_id)))
    scripted = ScriptedModel()

    def model(request: dict[str, Any]) -> Any:
        answer = scripted(request)
        if isinstance(answer, str) and not request.get("response_format"):
            # the model asserts the mail went out, in pieces 0.1 s apart
            return Reply(content="好的，邮件已发送给客户 Jane，下周二上门量尺。", chunk_delay=0.1)
        return answer

    with LLMServer(model) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        app = App(services)
        conversation = app.assistant.conversation("panel", channel="desktop")
        events: list[tuple[float, Any, int]] = []

        def sink(event: Any) -> None:
            with services.store.session() as s:
                drafts = s.scalar(select(func.count()).select_from(Draft))
            events.append((time.monotonic(), event, drafts))

        reply = await conversation.ask("给 0412 345 678 回信，下周二上门量尺", on_event=sink)
        await app.aclose()
    kinds = [type(e).__name__ for _t, e, _d in events]
    tools = [(e.name, d) for _t, e, d in events if isinstance(e, ToolActivity)]
    # announced as each tool starts: the draft did not exist yet when 起草 was shown
    assert tools == [("search_inquiries", 0), ("draft_reply", 0)]
    assert events[-1][2] == 1
    assert kinds[-1] == "TurnDone" and kinds.count("TurnDone") == 1
    deltas = [(t, e.text) for t, e, _d in events if isinstance(e, TextDelta)]
    assert len(deltas) >= 4 and kinds.index("TextDelta") > kinds.index("ToolActivity")
    streamed = "".join(text for _t, text in deltas)
    assert "已发送" in streamed  # what the model wrote, shown while it wrote
    assert deltas[-1][0] - deltas[0][0] > 0.2  # progressively, not all at the end
    done = events[-1][1]
    assert isinstance(done, TurnDone) and done.reply is reply
    assert "已发送" not in reply.text and reply.corrections  # the guard's answer replaces it
    assert len(done.draft_ids) == 1
    assert all(r.body.get("stream") for r in srv.chat_requests if r.body.get("tools"))


async def test_stop_while_streaming_keeps_history_and_records_the_call(services) -> None:  # type: ignore[no-untyped-def]
    slow = Reply(content="这是一段很长的回答，" * 20, chunk_delay=0.05)
    with LLMServer(lambda _r: slow) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        app = App(services)
        conversation = app.assistant.conversation("panel", channel="desktop")
        seen: list[Any] = []
        task = asyncio.ensure_future(conversation.ask("讲讲", on_event=seen.append))
        while not any(isinstance(e, TextDelta) for e in seen):
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await app.aclose()
    assert not any(isinstance(e, TurnDone) for e in seen)
    assert conversation.history == [] and conversation.transcript() == []
    with services.store.session() as s:
        rows = s.scalars(select(LLMCall)).all()
    assert [(r.purpose, r.ok, r.error) for r in rows] == [("assistant", False, "cancelled")]


async def test_an_endpoint_that_refuses_streaming_still_answers(services) -> None:  # type: ignore[no-untyped-def]
    def no_sse(request: dict[str, Any]) -> Any:
        if request.get("stream"):
            return Reply.error(400, "Unrecognized request argument supplied: stream_options")
        return "周三不上门。"

    with LLMServer(no_sse) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        app = App(services)
        seen: list[Any] = []
        reply = await app.assistant.conversation("p", channel="desktop").ask(
            "?", on_event=seen.append
        )
        await app.aclose()
    assert reply.text == "周三不上门。"
    assert [type(e).__name__ for e in seen] == ["TextDelta", "TurnDone"]
    assert seen[0].text == "周三不上门。"
    # once without stream_options (what it named), then whole answers from then on
    assert [bool(r.body.get("stream")) for r in srv.chat_requests] == [True, True, False]
    assert "stream_options" not in srv.chat_requests[1].body
