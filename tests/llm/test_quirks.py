"""The client against servers that answer as real providers do, not as the app would like.

Each server follows one measured or documented quirk (tests/support/llm_quirks.py): llama.cpp's
HTTP 500 on json_schema, DeepSeek's 400, tool calls written in the text, ``<think>`` prefixes and
``reasoning_content``, 400 on parameters a server does not know, 429 with and without
Retry-After, no streaming. What is checked is what the owner would notice: the answer arrives,
reasoning and raw tool calls never reach him, errors are one readable sentence.
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest
from pydantic import BaseModel

from core.errors import (
    LLMAddressWrong,
    LLMBusy,
    LLMKeyRejected,
    LLMModelUnknown,
    LLMUnsupported,
)
from core.llm.client import LLMClient
from core.services import Services
from tests.support.llm_quirks import Quirks
from tests.support.llm_server import LLMServer, Reply, schema_name, sequence

TOOL = {
    "type": "function",
    "function": {
        "name": "search_inquiries",
        "description": "Search inquiries",
        "parameters": {"type": "object", "properties": {"query": {"type": "string"}}},
    },
}


class Answer(BaseModel):
    labels: list[str]
    confidence: str


GOOD = {"labels": ["B"], "confidence": "high"}
_made: list[LLMClient] = []


@pytest.fixture(autouse=True)
async def close_clients() -> AsyncIterator[None]:
    yield
    while _made:
        await _made.pop().aclose()


def client_for(services: Services, srv: LLMServer, **settings: Any) -> LLMClient:
    services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 2, **settings})
    client = LLMClient(services.settings, services.secrets, services.store, services.clock)
    _made.append(client)
    return client


async def ask(client: LLMClient) -> Answer:
    return await client.structured(
        tier=1, purpose="classify", prompt="repair",
        variables={"schema_name": "x", "error": "y"}, schema=Answer,
    )  # fmt: skip


def answer_or_search(request: dict[str, Any]) -> Any:
    """A structured answer when one is asked for, else a search tool call."""
    if schema_name(request):
        return GOOD
    if any(m.get("role") == "tool" or (m.get("role") == "user" and "<tool_response>"
           in str(m.get("content"))) for m in request["messages"]):  # fmt: skip
        return "找到 2 个新询盘。"
    return [{"name": "search_inquiries", "arguments": {"query": "new"}}]


@pytest.mark.parametrize("status", [500, 400], ids=["llama.cpp-500", "deepseek-400"])
async def test_json_schema_refused_falls_back_to_json_object_and_is_remembered(
    services: Services, status: int
) -> None:
    quirks = Quirks(json_schema_status=status)
    with LLMServer(answer_or_search, quirks=quirks) as srv:
        client = client_for(services, srv)
        assert (await ask(client)).labels == ["B"]
        assert (await ask(client)).labels == ["B"]
        second = LLMClient(services.settings, services.secrets, services.store, services.clock)
        _made.append(second)
        assert (await ask(second)).labels == ["B"]  # a new client: the store remembers
    formats = [(r.body or {}).get("response_format", {}).get("type") for r in srv.chat_requests]
    refused = formats.count("json_schema")  # llama.cpp's 500 is retried by the client first
    assert formats == ["json_schema"] * refused + ["json_object"] * 3
    assert quirks.seen_refusals == ["json_schema"] * refused
    assert (await client.capabilities(1)).structured == "json_object"


async def test_no_response_format_at_all_means_json_from_text(services: Services) -> None:
    with LLMServer(lambda r: "Here you go:\n```json\n" + '{"labels": ["A"], "confidence": "low"}'
                   + "\n```", quirks=Quirks(response_format_status=400)) as srv:  # fmt: skip
        client = client_for(services, srv)
        assert (await ask(client)).labels == ["A"]
    assert "response_format" not in (srv.chat_requests[-1].body or {})
    assert '"confidence"' in srv.chat_requests[-1].body["messages"][0]["content"]


@pytest.mark.parametrize("style", ["flat", "bare", "tagged", "fenced"])
async def test_tool_calls_written_in_the_text_become_tool_calls(
    services: Services, style: str
) -> None:
    with LLMServer(answer_or_search, quirks=Quirks(text_tools=style)) as srv:
        client = client_for(services, srv)
        messages = [{"role": "user", "content": "今天有什么新询盘？"}]
        completion = await client.complete(
            tier=3, purpose="assistant", messages=messages, tools=[TOOL]
        )
        assert [c["name"] for c in completion.tool_calls] == ["search_inquiries"]
        assert '"query": "new"' in completion.tool_calls[0]["arguments"]
        assert "{" not in completion.content and "tool_call" not in completion.content
        assert (await client.capabilities(3)).tools == "text"
        # the next round: the call and its result go back as text the server understands
        call = completion.tool_calls[0]
        history = [
            *messages,
            {"role": "assistant", "content": None, "tool_calls": [
                {"id": call["id"], "type": "function",
                 "function": {"name": call["name"], "arguments": call["arguments"]}}]},
            {"role": "tool", "tool_call_id": call["id"], "content": '{"inquiries": []}'},
        ]  # fmt: skip
        final = await client.complete(tier=3, purpose="assistant", messages=history, tools=[TOOL])
    assert final.content == "找到 2 个新询盘。" and not final.tool_calls
    sent = srv.chat_requests[-1].body["messages"]
    assert all(m["role"] != "tool" and "tool_calls" not in m for m in sent)
    assert "<tool_response>" in sent[-1]["content"]


async def test_a_json_answer_is_not_mistaken_for_a_tool_call(services: Services) -> None:
    with LLMServer(lambda r: '{"name": "Jane", "phone": "0412"}') as srv:
        client = client_for(services, srv)
        completion = await client.complete(
            tier=3, purpose="assistant", messages=[{"role": "user", "content": "?"}], tools=[TOOL]
        )
    assert completion.tool_calls == [] and "Jane" in completion.content


async def test_tools_field_refused_means_tools_described_in_the_prompt(services: Services) -> None:
    quirks = Quirks(tools_status=400, text_tools="tagged")
    with LLMServer(answer_or_search, quirks=quirks) as srv:
        client = client_for(services, srv)
        completion = await client.complete(
            tier=3, purpose="assistant", messages=[{"role": "user", "content": "?"}], tools=[TOOL]
        )
    assert completion.tool_calls[0]["name"] == "search_inquiries"
    last = srv.chat_requests[-1].body
    assert "tools" not in last
    assert any("search_inquiries" in str(m["content"]) and m["role"] == "system"
               for m in last["messages"])  # fmt: skip


async def test_reasoning_never_reaches_the_answer_or_the_stream(services: Services) -> None:
    quirks = Quirks(think=True, reasoning_content=True)
    with LLMServer(lambda r: GOOD if schema_name(r) else "您好，今天有两个新询盘。",
                   quirks=quirks) as srv:  # fmt: skip
        client = client_for(services, srv)
        assert (await ask(client)).labels == ["B"]
        text = await client.text(tier=2, purpose="x", prompt="repair",
                                 variables={"schema_name": "x", "error": "y"})  # fmt: skip
        pieces: list[str] = []
        streamed = await client.stream(
            tier=3, purpose="assistant", messages=[{"role": "user", "content": "?"}],
            on_text=pieces.append, tools=[TOOL],
        )  # fmt: skip
    for seen in (text, streamed.content, "".join(pieces)):
        assert seen == "您好，今天有两个新询盘。"
        assert "think" not in seen and "Reasoning" not in seen


async def test_streamed_text_tool_call_is_never_shown(services: Services) -> None:
    with LLMServer(answer_or_search, quirks=Quirks(text_tools="flat")) as srv:
        client = client_for(services, srv)
        pieces: list[str] = []
        completion = await client.stream(
            tier=3, purpose="assistant", messages=[{"role": "user", "content": "?"}],
            on_text=pieces.append, tools=[TOOL],
        )  # fmt: skip
    assert completion.tool_calls and pieces == []


@pytest.mark.parametrize("param", ["stream_options", "parallel_tool_calls"])
async def test_unknown_parameters_refused_are_dropped(services: Services, param: str) -> None:
    quirks = Quirks(unknown_params=frozenset({"stream_options", "parallel_tool_calls"}))
    with LLMServer(lambda r: "好的，马上处理。", quirks=quirks) as srv:
        client = client_for(services, srv)
        pieces: list[str] = []
        completion = await client.stream(
            tier=3,
            purpose="assistant",
            messages=[{"role": "user", "content": "?"}],
            on_text=pieces.append,
        )
    assert completion.content == "好的，马上处理。" and "".join(pieces) == completion.content
    assert all(param not in (r.body or {}) for r in srv.chat_requests[1:])
    assert (await client.capabilities(3)).streaming


@pytest.mark.parametrize("mode", ["refuse", "ignore"])
async def test_no_streaming_gives_the_whole_answer(services: Services, mode: str) -> None:
    with LLMServer(lambda r: "整段回答。", quirks=Quirks(streaming=mode)) as srv:
        client = client_for(services, srv)
        pieces: list[str] = []
        for _ in range(2):
            completion = await client.stream(
                tier=3, purpose="assistant", messages=[{"role": "user", "content": "?"}],
                on_text=pieces.append,
            )  # fmt: skip
            assert completion.content == "整段回答。"
    assert pieces == ["整段回答。", "整段回答。"]
    assert [bool((r.body or {}).get("stream")) for r in srv.chat_requests] == [True, False, False]


@pytest.mark.parametrize("retry_after", [0.05, None], ids=["retry-after", "no-retry-after"])
async def test_429_is_retried_then_answered(services: Services, retry_after: float | None) -> None:
    busy = Reply.error(429, "Rate limit reached", retry_after=retry_after)
    with LLMServer(sequence([busy], then=GOOD)) as srv:
        client = client_for(services, srv)
        assert (await ask(client)).labels == ["B"]
    assert len(srv.chat_requests) == 2


async def test_429_that_never_ends_is_busy_in_words(services: Services) -> None:
    with LLMServer(lambda r: Reply.error(429, "Rate limit reached", retry_after=0.01)) as srv:
        client = client_for(services, srv, **{"llm.max_retries": 1})
        with pytest.raises(LLMBusy) as caught:
            await ask(client)
    assert caught.value.transient
    assert caught.value.user_message("zh_CN") == "AI 服务繁忙（请求太多），稍后会自动重试"


@pytest.mark.parametrize(
    ("reply", "error", "words"),
    [
        (Reply.error(401, "Incorrect API key provided: sk-xx"), LLMKeyRejected, "密钥"),
        (Reply.error(404, "The model `gpt-9` does not exist"), LLMModelUnknown, "模型名称"),
        (Reply.error(400, "Invalid value for 'messages'"), LLMUnsupported, "不支持"),
    ],
    ids=["key", "model", "unsupported"],
)
async def test_errors_are_one_sentence_with_the_cause(
    services: Services, reply: Reply, error: type, words: str
) -> None:
    with LLMServer(lambda r: reply) as srv:
        client = client_for(services, srv)
        with pytest.raises(error) as caught:
            await ask(client)
    zh, en = caught.value.user_message("zh_CN"), caught.value.user_message("en")
    assert words in zh and "HTTP" not in zh and "sk-xx" not in zh and "gpt-9" not in zh
    assert not any("\u4e00" <= ch <= "\u9fff" for ch in en)
    assert "HTTP" in caught.value.detail  # the detail stays, for the log


async def test_llama_cpp_stack_text_never_reaches_the_owner(services: Services) -> None:
    """Text mode refused too (nothing plainer left): the 500's stack text stays in the log."""
    quirks = Quirks(json_schema_status=500, response_format_status=500)
    with LLMServer(lambda r: Reply.error(500, 'File "/llama_cpp/server/app.py", line 376'),
                   quirks=quirks) as srv:  # fmt: skip
        client = client_for(services, srv, **{"llm.max_retries": 0})
        with pytest.raises(Exception) as caught:
            await ask(client)
    message = caught.value.user_message("zh_CN")  # type: ignore[attr-defined]
    assert "llama_cpp" not in message and "File" not in message and "：" not in message[-3:]


async def test_nothing_listening_is_address_wrong(services: Services) -> None:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    services.settings.update({"llm.base_url": f"http://127.0.0.1:{port}/v1",
                              "llm.max_retries": 0})  # fmt: skip
    client = LLMClient(services.settings, services.secrets, services.store, services.clock)
    _made.append(client)
    with pytest.raises(LLMAddressWrong) as caught:
        await ask(client)
    assert "地址" in caught.value.user_message("zh_CN")


async def test_every_call_carries_a_cap_on_what_the_model_may_write(services: Services) -> None:
    """#45: without ``max_tokens`` a small local model ran one draft to 2,802 tokens (213 s)."""
    with LLMServer(lambda r: GOOD if schema_name(r) else "好的。") as srv:
        client = client_for(services, srv)
        await ask(client)
        await client.stream(
            tier=3, purpose="assistant", messages=[{"role": "user", "content": "?"}]
        )
    caps = [(r.body or {}).get("max_tokens") for r in srv.chat_requests]
    assert len(caps) == 2 and all(isinstance(c, int) and 0 < c <= 2000 for c in caps), caps


async def test_a_server_that_refuses_max_tokens_is_asked_without_it(services: Services) -> None:
    quirks = Quirks(unknown_params=frozenset({"max_tokens"}))
    with LLMServer(lambda r: GOOD, quirks=quirks) as srv:
        client = client_for(services, srv)
        assert (await ask(client)).labels == ["B"]
        assert (await ask(client)).labels == ["B"]  # learnt: the next call asks right away
    sent = ["max_tokens" in (r.body or {}) for r in srv.chat_requests]
    assert sent == [True, False, False]
    assert not (await client.capabilities(1)).max_tokens
