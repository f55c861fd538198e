"""A long tool chain gets its answer; a model that never stops is stopped cleanly.

The seed allowed 15 tool rounds plus the answer; a real chain (find the customer, read the
thread, list the files, read the plan, check the pipeline, draft) takes seven or more. Loopback
model over HTTP, real SQLite, the real tools.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.agent.loop import MAX_TOOL_ROUNDS, Assistant
from core.drafts.drafting import build_drafting
from core.llm.client import LLMClient
from tests.support.llm_server import LLMServer


def _chain(steps: int) -> Any:
    """Calls ``pipeline_summary`` until it has read ``steps`` results, then answers."""

    def model(request: dict[str, Any]) -> Any:
        done = sum(1 for m in request["messages"] if m.get("role") == "tool")
        if done < steps:
            return [{"name": "pipeline_summary", "arguments": {}}]
        return f"查了 {done} 次，各阶段都清楚了。"

    return model


async def _ask(services: Any, model: Any) -> tuple[Any, LLMServer]:
    with LLMServer(model) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        client = LLMClient(services.settings, services.secrets, services.store, services.clock)
        try:
            drafting = build_drafting(services, client)
            reply = await Assistant(services, client, drafting).ask("把各阶段查清楚")
        finally:
            await client.aclose()
    return reply, server


@pytest.mark.parametrize("steps", [7, MAX_TOOL_ROUNDS])
async def test_a_long_tool_chain_gets_its_answer(services, steps: int) -> None:  # type: ignore[no-untyped-def]
    reply, server = await _ask(services, _chain(steps))
    assert MAX_TOOL_ROUNDS == 15
    assert reply.text == f"查了 {steps} 次，各阶段都清楚了。"
    assert len(reply.tool_calls) == steps and len(server.chat_requests) == steps + 1


async def test_a_sixteenth_round_of_tools_is_refused_in_chinese(services) -> None:  # type: ignore[no-untyped-def]
    reply, server = await _ask(services, _chain(1_000))
    # 15 rounds ran their tools; the 16th request was the answer round, its calls never ran
    assert len(server.chat_requests) == 16 and len(reply.tool_calls) == 15
    assert (
        reply.text.startswith("（助手连续调用了 15 轮工具仍未给出答复")
        and "请把问题拆小" in reply.text
    )
    assert all(m["role"] in {"assistant", "tool"} for m in reply.messages)
    assert len(reply.messages) == 30  # 15 calls and 15 results: nothing of the refused round
