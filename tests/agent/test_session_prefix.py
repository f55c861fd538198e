"""Every request of a conversation starts with the bytes of the one before: the provider's
prompt cache can serve it. Asserted on the request bodies the loopback model received.

What the owner would notice: a long day with the assistant costs a fraction of the uncached
price, and the assistant still sees every earlier turn whole (tool output included), as sent.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from core.agent.session_budget import PromptBudget
from core.app import App
from tests.agent.session_support import SessionModel, assistant_requests
from tests.drafts.support import add_inquiry
from tests.support.llm_server import LLMServer, last_user_text


class ToolModel(SessionModel):
    """Reads the pipeline first when asked to "查一下", then answers."""

    def __call__(self, request: dict[str, Any]) -> Any:
        if (
            request.get("tools")
            and "查一下" in last_user_text(request)
            and request["messages"][-1]["role"] == "user"
        ):
            return [{"name": "pipeline_summary", "arguments": {}}]
        return super().__call__(request)


def _bytes(messages: list[dict[str, Any]]) -> str:
    return json.dumps(messages, ensure_ascii=False)


def _first_requests(srv: LLMServer) -> list[list[dict[str, Any]]]:
    """The messages of each turn's first assistant request (the one ending in his message)."""
    return [b["messages"] for b in assistant_requests(srv) if b["messages"][-1]["role"] == "user"]


async def _session(services, budget: PromptBudget, turns: int, restart: bool = False):  # type: ignore[no-untyped-def]
    inquiry_id, _ = add_inquiry(services, name="Bob Steward")
    model = ToolModel(answer_chars=300)
    with LLMServer(model) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        app = App(services)
        conversation = app.assistant.conversation("cache", channel="desktop")
        conversation.budget = budget
        conversation.current_inquiry_id = inquiry_id
        for n in range(1, turns + 1):
            ask = "请查一下各阶段，" if n % 3 == 0 else ""
            if n == 5:
                conversation.current_inquiry_id = None  # the owner clears the customer
            await conversation.ask(f"第{n}个问题：{ask}" + "这位客户的窗户怎么选？" * 5)
        await app.aclose()
        if restart:  # the app restarts; the session is read back from SQLite
            app = App(services)
            again = app.assistant.conversation("cache", channel="desktop")
            again.budget = budget
            await again.ask("重启之后的问题")
            await app.aclose()
    return srv, conversation, model


async def test_each_turn_starts_with_exactly_what_the_last_one_sent(services) -> None:  # type: ignore[no-untyped-def]
    srv, conversation, model = await _session(services, PromptBudget(total_chars=60_000), 8, True)
    sent = _first_requests(srv)
    assert len(sent) == 9 and model.folds == 0  # the ninth after a restart: same bytes too
    for before, after in itertools.pairwise(sent):
        # the whole previous request, then its tool rounds and answer, then the new question
        assert _bytes(after[: len(before)]) == _bytes(before)  # key order and all
        assert after[-1]["role"] == "user" and after[len(before)]["role"] == "assistant"
    # the history stored is what was sent, byte for byte (tool calls and results included)
    last = sent[-2]
    assert conversation.history[: len(last) - 3] == last[2:-1]
    assert any(m["role"] == "tool" for m in last)
    # what changes per turn rides in the newest message: the customer, then none
    assert "Current customer: inquiry #1, Bob Steward" in last[2]["content"]
    assert "Current customer: (none selected)" in last[-1]["content"]
    assert conversation.transcript()[0] == ("user", "第1个问题：" + "这位客户的窗户怎么选？" * 5)


async def test_a_fold_is_one_step_then_the_prefix_is_stable_again(services) -> None:  # type: ignore[no-untyped-def]
    # a budget a little above the fixed prompt (system text, memories, tool specs), so that
    # history folds several times in 20 turns; it grew with the fixed prompt (the visit tools)
    budget = PromptBudget(total_chars=11_000, summary_chars=600, tool_reserve_chars=800)
    srv, _conversation, model = await _session(services, budget, 20)
    sent = _first_requests(srv)
    changed = [n for n, (a, b) in enumerate(itertools.pairwise(sent), 2) if b[: len(a)] != a]
    assert 1 <= model.folds == len(changed) < 10  # each fold breaks the prefix once, no more
    assert changed[0] > 2 and all(b - a > 1 for a, b in itertools.pairwise(changed))


async def test_a_memory_confirmed_mid_conversation_comes_in_the_newest_message_once(  # type: ignore[no-untyped-def]
    services,
) -> None:
    from core.agent.memory import save_memory

    with LLMServer(SessionModel(answer_chars=100)) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        app = App(services)
        conversation = app.assistant.conversation("rules", channel="desktop")
        await conversation.ask("第一个问题")
        save_memory(services, "boss_pref", "报价单一律发 PDF", source="desktop")  # the 记忆 page
        await conversation.ask("第二个问题")
        await conversation.ask("第三个问题")
        await app.aclose()
    first, second, third = _first_requests(srv)
    assert _bytes(second[: len(first)]) == _bytes(first)  # the prefix did not change for it
    assert "报价单一律发 PDF" not in _bytes(first)
    assert (
        "报价单一律发 PDF" in second[-1]["content"]
        and "报价单一律发 PDF" not in third[-1]["content"]
    )
