"""The assistant over a local-model server: tool calls written in the text, JSON mode only.

Measured with llama.cpp's server: in tool "auto" mode it writes ``{"name": "search_inquiries",
"query": …}`` into the answer, and refuses ``json_schema`` with HTTP 500. The owner must get the
same turn as with OpenAI: the tools run, the draft waits for approval, and neither the raw call
nor the model's ``<think>`` text is ever shown (streamed or final).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from sqlalchemy import select

from core.agent.loop import Assistant
from core.db.models import Draft, Inquiry
from core.drafts.drafting import build_drafting
from core.inquiry.search import refresh_search_text
from core.llm.client import LLMClient
from tests.drafts.support import add_inquiry
from tests.support.llm_quirks import Quirks
from tests.support.llm_server import LLMServer, schema_name

_RESULT = re.compile(r"<tool_response>\s*(.*?)\s*</tool_response>", re.DOTALL)


def tool_results(request: dict[str, Any]) -> list[str]:
    """Tool results as the server sees them: ``role: tool`` or ``<tool_response>`` text."""
    found = []
    for message in request["messages"]:
        content = str(message.get("content") or "")
        if message.get("role") == "tool":
            found.append(content)
        elif message.get("role") == "user":
            found += _RESULT.findall(content)
    return found


def local_model(request: dict[str, Any]) -> Any:
    if schema_name(request):  # the composer's structured call (tier 2)
        return {
            "subject": "Re: Sliding door quote",
            "body_en": "Dear Jane,\n\nWe can measure on site next Tuesday.\n\nKind regards",
            "body_zh": "亲爱的 Jane：\n\n我们可以在下周二上门测量。\n\n此致",
        }
    results = tool_results(request)
    if not results:
        return [{"name": "search_inquiries", "arguments": {"query": "0412 345 678"}}]
    if len(results) == 1:
        found = json.loads(results[0])["inquiries"]
        return [{"name": "draft_reply",
                 "arguments": {"inquiry_id": found[0]["id"], "instruction": "下周二上门量尺"}}]  # fmt: skip
    return "已为客户起草回复，草稿尚未发送，请在待审批中确认。"


@pytest.mark.parametrize("style", ["flat", "tagged"])
@pytest.mark.parametrize("streamed", [False, True], ids=["whole", "streamed"])
async def test_written_tool_calls_run_and_are_never_shown(  # type: ignore[no-untyped-def]
    services, style: str, streamed: bool
) -> None:
    quirks = Quirks(json_schema_status=500, text_tools=style, think=True)
    inquiry_id, _ = add_inquiry(services)
    services.store.write(lambda s: refresh_search_text(s.get(Inquiry, inquiry_id)))
    pieces: list[str] = []
    with LLMServer(local_model, quirks=quirks) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        client = LLMClient(services.settings, services.secrets, services.store, services.clock)
        assistant = Assistant(services, client, build_drafting(services, client))
        try:
            reply = await assistant.ask(
                "给 0412 345 678 那位客户回信，下周二上门量尺",
                on_text=pieces.append if streamed else None,
            )
        finally:
            await client.aclose()
    assert [c.name for c in reply.tool_calls] == ["search_inquiries", "draft_reply"]
    assert "DRAFT_PENDING_APPROVAL — NOT SENT" in reply.tool_calls[1].result
    shown = reply.text + "".join(pieces)
    for raw in ("{", "search_inquiries", "tool_call", "think", "arguments"):
        assert raw not in shown, shown
    assert "尚未发送" in reply.text
    with services.store.session() as s:
        drafts = s.scalars(select(Draft)).all()
    assert [(d.inquiry_id, d.status) for d in drafts] == [(inquiry_id, "pending_approval")]


@pytest.mark.parametrize(
    "written",
    [
        '```json\n{"name": "new_inquiries", "arguments": []}\n```',
        '<reply>{"name": "new_inquiries", "arguments": ["today"]}</reply>',
        '{"name": "get_inquiry", "arguments": [12]}',
    ],
    ids=["fenced-unknown", "reply-tag-list-args", "known-list-args"],
)
async def test_a_text_call_to_a_tool_that_does_not_exist_is_never_shown(  # type: ignore[no-untyped-def]
    services, written: str
) -> None:
    """#45: a weak model writes a call to a tool the app does not have (or with list
    arguments) as its answer; the model is told the real tool list once, the owner sees only
    the answer that follows."""
    seen: list[list[str]] = []

    def weak_model(request: dict[str, Any]) -> Any:
        results = tool_results(request)
        seen.append(results)
        if not results:
            return written
        return "今天有 0 个新询盘。"

    quirks = Quirks(text_tools="flat")
    with LLMServer(weak_model, quirks=quirks) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        client = LLMClient(services.settings, services.secrets, services.store, services.clock)
        assistant = Assistant(services, client, build_drafting(services, client))
        try:
            reply = await assistant.ask("今天有哪些新询盘")
        finally:
            await client.aclose()
    for raw in ("{", "new_inquiries", "arguments", "reply>"):
        assert raw not in reply.text, reply.text
    assert reply.text == "今天有 0 个新询盘。"
    told = seen[-1][-1]
    assert told.startswith("ERROR") and "search_inquiries" in told  # the real tool list
