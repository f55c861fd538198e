"""LLMClient against a real loopback chat-completions server (tests/support/llm_server.py)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import BaseModel
from sqlalchemy import select

from core.db.models import LLMCall
from core.errors import LLMError, LLMSchemaError, LLMUnavailable
from core.llm import ledger
from core.llm.client import LLMClient, parse_json_answer
from core.services import Services
from tests.support.llm_server import LLMServer, Reply, schema_name, sequence


class Answer(BaseModel):
    labels: list[str]
    confidence: str


GOOD = {"labels": ["B"], "confidence": "high"}
BROKEN = {"labels": "B"}  # wrong type and a missing field


_made: list[LLMClient] = []


@pytest.fixture(autouse=True)
async def close_clients() -> AsyncIterator[None]:
    """Clients hold keep-alive sockets; close them so no ResourceWarning escapes a test."""
    yield
    while _made:
        await _made.pop().aclose()


def make_client(services: Services, srv: LLMServer | None, **settings: Any) -> LLMClient:
    if srv is not None:
        settings = {"llm.base_url": srv.base_url, "llm.max_retries": 2, **settings}
    services.settings.update(settings)
    client = LLMClient(services.settings, services.secrets, services.store, services.clock)
    _made.append(client)
    return client


def rows(services: Services) -> list[LLMCall]:
    with services.store.session() as s:
        return list(s.scalars(select(LLMCall).order_by(LLMCall.id)))


async def ask(client: LLMClient, **refs: int) -> Answer:
    return await client.structured(
        tier=1,
        purpose="classify",
        prompt="classify",
        variables=dict.fromkeys(
            ["subject", "sender", "is_reply", "known_customer", "attachments", "thread", "body"],
            "x",
        ),
        schema=Answer,
        refs=refs,
    )


async def test_structured_success_sends_json_schema_and_writes_ledger(services: Services) -> None:
    with LLMServer(lambda r: GOOD) as srv:
        client = make_client(services, srv, **{"llm.tier1": "gpt-4o-mini"})
        answer = await ask(client, message_pk=7)
    assert answer == Answer(labels=["B"], confidence="high")
    body = srv.chat_requests[0].body
    assert body["model"] == "gpt-4o-mini"
    assert schema_name(body) == "answer"
    fmt = body["response_format"]["json_schema"]
    assert fmt["strict"] is True
    assert fmt["schema"]["additionalProperties"] is False
    assert set(fmt["schema"]["required"]) == {"labels", "confidence"}
    assert srv.chat_requests[0].headers["authorization"] == "Bearer not-needed"
    [row] = rows(services)
    assert (row.tier, row.purpose, row.ok, row.message_pk) == (1, "classify", True, 7)
    assert row.prompt_tokens > 0 and row.completion_tokens > 0
    assert row.cost_usd > 0  # gpt-4o-mini has a price


async def test_fenced_answer_is_accepted(services: Services) -> None:
    with LLMServer(
        lambda r: 'Here you go:\n```json\n{"labels": ["A"], "confidence": "low"}\n```'
    ) as srv:
        client = make_client(services, srv)
        answer = await ask(client)
    assert answer.labels == ["A"]
    assert len(srv.chat_requests) == 1


async def test_schema_break_is_repaired_once(services: Services) -> None:
    with LLMServer(sequence([BROKEN, GOOD])) as srv:
        client = make_client(services, srv)
        answer = await ask(client)
    assert answer.confidence == "high"
    repair = srv.chat_requests[1].body["messages"]
    assert repair[-2] == {"role": "assistant", "content": '{"labels": "B"}'}
    assert "confidence" in repair[-1]["content"]  # the validation error is sent back
    assert [(r.purpose, r.ok) for r in rows(services)] == [
        ("classify", False),
        ("classify:repair", True),
    ]
    assert "schema" in rows(services)[0].error


async def test_two_breaks_raise_schema_error_with_all_calls_in_ledger(services: Services) -> None:
    with LLMServer(sequence([BROKEN, "not json at all"])) as srv:
        client = make_client(services, srv)
        with pytest.raises(LLMSchemaError):
            await ask(client, inquiry_id=3)
    assert len(srv.chat_requests) == 2
    ledger_rows = rows(services)
    assert [(r.purpose, r.ok, r.inquiry_id) for r in ledger_rows] == [
        ("classify", False, 3),
        ("classify:repair", False, 3),
    ]
    with services.store.session() as s:
        assert ledger.calls_by_tier(s) == {1: 2}
        assert ledger.totals(s, inquiry_id=3).failed == 2


async def test_429_is_retried_by_the_client(services: Services) -> None:
    with LLMServer(sequence([Reply.error(429, retry_after=0.01)], then=GOOD)) as srv:
        client = make_client(services, srv)
        answer = await ask(client)
    assert answer.labels == ["B"]
    assert len(srv.chat_requests) == 2
    assert [(r.ok, r.purpose) for r in rows(services)] == [(True, "classify")]


async def test_persistent_500_is_unavailable(services: Services) -> None:
    with LLMServer(lambda r: Reply.error(500, retry_after=0.01)) as srv:
        client = make_client(services, srv, **{"llm.max_retries": 1})
        with pytest.raises(LLMUnavailable):
            await ask(client)
    assert len(srv.chat_requests) == 2
    [row] = rows(services)
    assert not row.ok and "500" in row.error


async def test_malformed_body_is_an_llm_error_not_a_crash(services: Services) -> None:
    with LLMServer(lambda r: Reply.malformed()) as srv:
        client = make_client(services, srv, **{"llm.max_retries": 0})
        with pytest.raises(LLMError):
            await ask(client)
    assert rows(services)[0].ok is False


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_server_down_is_unavailable_quickly(services: Services) -> None:
    client = make_client(
        services,
        None,
        **{"llm.base_url": f"http://127.0.0.1:{_free_port()}/v1", "llm.max_retries": 0},
    )
    with pytest.raises(LLMUnavailable) as info:
        await ask(client)
    assert "AI" in info.value.user_message()  # Chinese message for the owner
    assert [row.ok for row in rows(services)] == [False]  # one attempt, no hidden retry loop


async def test_slow_endpoint_times_out_as_unavailable(services: Services) -> None:
    with LLMServer(lambda r: GOOD, latency=1.0) as srv:
        client = make_client(services, srv, **{"llm.timeout_seconds": 0.2, "llm.max_retries": 0})
        with pytest.raises(LLMUnavailable):
            await ask(client)
    [row] = rows(services)
    assert not row.ok and "timeout" in row.error


async def test_not_configured_is_unavailable(services: Services) -> None:
    client = make_client(services, None)
    assert client.available is False
    with pytest.raises(LLMUnavailable):
        await ask(client)


async def test_concurrency_bound_is_respected(services: Services) -> None:
    with LLMServer(lambda r: GOOD, latency=0.1) as srv:
        client = make_client(services, srv, **{"llm.concurrency": 3})
        answers = await asyncio.gather(*(ask(client) for _ in range(12)))
    assert len(answers) == 12
    assert srv.max_in_flight == 3  # saturated, never above the bound


async def test_api_key_comes_from_secrets(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_LLM_API_KEY", "sk-test-123")
    with LLMServer(lambda r: "你好") as srv:
        client = make_client(services, srv)
        text = await client.translate_to_chinese("Hello")
    assert text == "你好"
    assert srv.chat_requests[0].headers["authorization"] == "Bearer sk-test-123"
    body = srv.chat_requests[0].body
    assert body["model"] == services.settings.get("llm.tier2")
    assert "<text>\nHello\n</text>" in body["messages"][-1]["content"]
    [row] = rows(services)
    assert row.purpose == "translate" and row.tier == 2


async def test_empty_text_answer_is_an_error(services: Services) -> None:
    with LLMServer(lambda r: "") as srv:
        client = make_client(services, srv)
        with pytest.raises(LLMError):
            await client.translate_to_chinese("Hello")
    assert rows(services)[0].ok is False


async def test_structured_answer_in_tool_call_is_accepted(services: Services) -> None:
    with LLMServer(lambda r: [{"name": "answer", "arguments": GOOD}]) as srv:
        client = make_client(services, srv)
        answer = await ask(client)
    assert answer.labels == ["B"]


async def test_without_json_schema_support_the_schema_goes_into_the_prompt(
    services: Services,
) -> None:
    with LLMServer(lambda r: GOOD) as srv:
        client = make_client(services, srv, **{"llm.use_json_schema": False})
        await ask(client)
    body = srv.chat_requests[0].body
    assert "response_format" not in body
    assert '"confidence"' in body["messages"][0]["content"]


def test_parse_json_answer_tolerates_chatter() -> None:
    assert parse_json_answer('Sure! {"a": 1} hope that helps') == {"a": 1}
    with pytest.raises(ValueError):
        parse_json_answer("no json here")
