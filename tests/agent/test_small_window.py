"""The assistant on a llama.cpp server with a 4,096-token window and one slot (#45).

The loopback server counts the whole prompt as llama.cpp does -- messages and the tool
specifications its chat template renders -- stricter than the app's own estimate
(``tests.support.llm_quirks.prompt_tokens``), and refuses a prompt of 4,096 tokens or more with
llama.cpp's real 400 body (``exceed_context_size_error``, ``n_ctx`` and ``n_prompt_tokens`` in
fields of their own). With every tool in full the first question alone did not fit. Ten
questions in a row are answered, each after a tool call, without a context error: the window
is read from ``/props`` (the llama.cpp preset) or learnt from the first refusal (an address the
app does not know as local).
"""

from __future__ import annotations

from typing import Any

import pytest

from core.agent.fitting import ESSENTIAL, tool_specs
from core.app import App
from tests.agent.session_support import SessionModel
from tests.support.llm_quirks import Quirks, prompt_tokens
from tests.support.llm_server import LLMServer

WINDOW = 4096


class LookingUpModel(SessionModel):
    """Tier 3 looks up today's numbers before each answer; tier 1 keeps the notes."""

    def __call__(self, request: dict[str, Any]) -> Any:
        messages = request.get("messages") or []
        last = messages[-1] if messages else {}
        answered = str(last.get("content") or "").startswith("<tool_response>")
        if request.get("tools") and last.get("role") == "user" and not answered:
            return [{"name": "today_numbers", "arguments": {}}]
        return super().__call__(request)


async def _ten_questions(services: Any, srv: LLMServer, provider: str) -> list[str]:
    services.settings.update(
        {"llm.base_url": srv.base_url, "llm.max_retries": 0, "llm.provider": provider}
    )
    app = App(services)
    answers: list[str] = []
    conversation = app.assistant.conversation("small-window", channel="desktop")
    try:
        for n in range(1, 11):
            reply = await conversation.ask(f"第{n}个问题：今天有哪些新询盘？推拉门和折叠门哪个好？")
            answers.append(reply.text)
    finally:
        await app.aclose()
    return answers


def test_every_tool_in_full_does_not_fit_the_window() -> None:
    """The obstacle, measured the server's way: the full tool list and the short one."""
    full = prompt_tokens({"messages": [], "tools": tool_specs(0)})
    short = prompt_tokens({"messages": [], "tools": tool_specs(WINDOW)})
    print(f"tools: full {full} tokens, for a {WINDOW}-token window {short} tokens")
    assert full > 3000 and short < 1400
    assert [t["function"]["name"] for t in tool_specs(WINDOW)] == list(ESSENTIAL)


@pytest.mark.parametrize("provider", ["llamacpp", ""])
async def test_ten_questions_in_a_row_on_a_4096_token_server(services: Any, provider: str) -> None:
    quirks = Quirks(context_tokens=WINDOW)
    with LLMServer(LookingUpModel(answer_chars=300), quirks=quirks, slots=1) as srv:
        answers = await _ten_questions(services, srv, provider)
    assert len(answers) == 10 and all(answers)
    assert not any("上下文" in a or "不支持" in a for a in answers), answers
    assert all(a.startswith("好的") for a in answers)
    refused = quirks.seen_refusals.count("context")
    print(f"provider {provider or 'none'}: {refused} context refusals, "
          f"largest prompt {quirks.largest_prompt} tokens")  # fmt: skip
    # read from /props: never refused; learnt from the refusal: once, then it fits
    assert refused == (0 if provider else 1)
    assert quirks.largest_prompt < WINDOW
    assert srv.max_in_flight == 1
