"""The assistant's request fitted to a small context window (a model on the owner's PC).

Why: the tool specifications alone are ~11,400 characters (~2,900 tokens), the system prompt
~3,500 more; a llama.cpp server at 4,096 tokens overflowed on the third question, and at its
default 2,048 on every one (#45). Where the window is known (``ModelClient.context_window``:
read from the server, or learnt from its refusal) the assistant sends what fits:

- below ``SMALL_WINDOW`` tokens the tools go in their short form (the first sentence of each
  description, no parameter descriptions); below ``TINY_WINDOW`` only the tools plain questions
  need (``ESSENTIAL``: find, read, today's numbers, draft, note, remember…);
- the conversation's budget (characters, ``core.agent.session_budget``) is set from what is
  left of the window after the tools, the fixed prompt, a spare tenth and the answer's room;
  history beyond it is folded into notes as usual;
- a tool result is cut to what the window can take.

Tokens are estimated (``core.llm.pricing.estimate_tokens``: one per CJK character, one per four
other characters); a real tokenizer may count a tenth or so more, which the spare tenth covers.
The history's characters are counted at one per token (Chinese), so mixed text fits with room.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any

from core.agent.caps import MAX_TOOL_RESULT_CHARS
from core.agent.session_budget import PromptBudget
from core.agent.tools import REGISTRY, Tool
from core.llm.pricing import estimate_tokens

SMALL_WINDOW = 16_384  # tokens: below, the tools go in their short form
TINY_WINDOW = 8_192  # tokens: below, only the essential tools
ANSWER_TOKENS = 600  # kept free for the answer (or a tool call)
SPARE = 0.1  # of the window: our estimate against the server's tokenizer
ESSENTIAL = (
    "search_inquiries", "get_inquiry", "search_emails", "today_numbers", "pending_items",
    "draft_reply", "revise_draft", "change_stage", "add_note", "remember", "search_knowledge",
)  # fmt: skip
_FIRST_SENTENCE = re.compile(r"(?<=[.;。；])\s")


def _bare(node: object) -> object:
    """A JSON schema without its descriptions and closing words (names, types, enums and a
    non-empty ``required`` stay)."""
    if isinstance(node, dict):
        return {
            k: _bare(v)
            for k, v in node.items()
            if k not in {"description", "examples", "additionalProperties"}
            and not (k == "required" and not v)
        }
    if isinstance(node, list):
        return [_bare(v) for v in node]
    return node


def short_spec(tool: Tool) -> dict[str, Any]:
    """The tool as a small window can take it: its first sentence, its bare parameters."""
    first = _FIRST_SENTENCE.split(tool.description.strip(), maxsplit=1)[0]
    return {
        "type": "function",
        "function": {"name": tool.name, "description": first, "parameters": _bare(tool.parameters)},
    }


def tokens_of(value: object) -> int:
    return estimate_tokens(
        value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    )


def tool_specs(window: int) -> list[dict[str, Any]]:
    """The tools sent to a model whose context window is ``window`` tokens (0: not known)."""
    if not window or window >= SMALL_WINDOW:
        return [tool.spec() for tool in REGISTRY.values()]
    if window >= TINY_WINDOW:
        return [short_spec(tool) for tool in REGISTRY.values()]
    return [short_spec(REGISTRY[name]) for name in ESSENTIAL]


def history_room(window: int, tools: list[dict[str, Any]], prefix_tokens: int) -> int:
    """Tokens left for the history, the question and the turn's tool results."""
    spare = int(window * SPARE)
    return window - spare - ANSWER_TOKENS - tokens_of(tools) - prefix_tokens


def fitted(budget: PromptBudget, window: int, prefix: list[dict[str, Any]]) -> PromptBudget:
    """The conversation's budget for a window of ``window`` tokens: never larger than
    ``budget``; unchanged when the window is unknown or roomy enough."""
    if not window:
        return budget
    prefix_chars = sum(len(str(m.get("content") or "")) for m in prefix)
    prefix_tokens = sum(tokens_of(str(m.get("content") or "")) for m in prefix)
    room = history_room(window, tool_specs(window), prefix_tokens)  # in tokens = characters
    total = prefix_chars + max(room, 400)
    if total >= budget.total_chars:
        return budget
    reserve = max(200, min(budget.tool_reserve_chars, room // 3))
    return replace(
        budget,
        total_chars=total,
        tool_reserve_chars=reserve,
        keep_whole_messages=min(budget.keep_whole_messages, 4),
        summary_chars=min(budget.summary_chars, max(200, room // 5)),
    )


def tool_result_chars(window: int) -> int:
    """The most of one tool result a model with this window gets (characters): a sixth of
    the window, so a listing cannot fill what the turn's next request needs."""
    if not window:
        return MAX_TOOL_RESULT_CHARS
    return max(400, min(MAX_TOOL_RESULT_CHARS, window // 6))
