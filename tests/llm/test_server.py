"""The loopback server itself, through the real openai client (others rely on it)."""

from __future__ import annotations

import json

import httpx
import openai

from tests.support.llm_server import LLMServer, Reply, last_user_text


async def test_tool_calls_and_models_and_usage() -> None:
    def responder(request: dict) -> object:
        assert last_user_text(request) == "find Ryde"
        return [{"name": "search_inquiries", "arguments": {"suburb": "Ryde"}}]

    with LLMServer(responder) as srv:
        client = openai.AsyncOpenAI(base_url=srv.base_url, api_key="x", max_retries=0)
        response = await client.chat.completions.create(
            model="m",
            messages=[{"role": "user", "content": "find Ryde"}],
            tools=[
                {"type": "function", "function": {"name": "search_inquiries", "parameters": {}}}
            ],
        )
        models = await client.models.list()
        await client.close()
        assert httpx.get(srv.base_url.removesuffix("/v1") + "/chat/completions").status_code == 404
    call = response.choices[0].message.tool_calls[0]
    assert call.function.name == "search_inquiries"
    assert json.loads(call.function.arguments) == {"suburb": "Ryde"}
    assert response.choices[0].finish_reason == "tool_calls"
    assert response.usage.prompt_tokens >= 1
    assert [m.id for m in models.data] == ["test-tier1", "test-tier2", "test-tier3"]


async def test_streaming_reassembles_content() -> None:
    with LLMServer(lambda r: "one two three") as srv:
        client = openai.AsyncOpenAI(base_url=srv.base_url, api_key="x", max_retries=0)
        stream = await client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}], stream=True
        )
        text = "".join([c.choices[0].delta.content or "" async for c in stream])
        await client.close()
    assert text == "one two three"


def test_error_reply_carries_retry_after() -> None:
    with LLMServer(lambda r: Reply.error(429, retry_after=2)) as srv:
        response = httpx.post(srv.base_url + "/chat/completions", json={"messages": []})
    assert response.status_code == 429
    assert response.headers["retry-after"] == "2"
    assert response.json()["error"]["type"] == "rate_limit_error"
