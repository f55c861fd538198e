"""The prompt budget of a long conversation: what of the history still goes to the model.

Why: a day of questions would otherwise send every earlier turn (and every email a tool read)
with each new question, until the prompt costs more than the answer is worth or no longer fits.
Compression is progressive:

1. the newest ``keep_whole_turns`` turns go whole;
2. older turns go with their tool results cut to ``tool_result_chars``;
3. when that still does not fit, the oldest turns are folded into the session's summary (a
   cheap-tier call, ``core.agent.session_digest``), after their key facts became memory
   proposals. Folding goes down to ``refill_ratio`` of the room, so it happens every few turns,
   not on every one.

The size is counted in **characters** (message contents plus tool-call names and arguments),
not tokens: no tokenizer ships with the app, and for this mix of Chinese (about one token per
character) and English (about four characters per token) characters bound tokens from above.
The tool specifications are not counted: they are the same for every request. The budget holds
for every request of a turn as long as the turn's own tool calls and results stay within
``tool_reserve_chars`` (kept free when the history is fitted).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.agent.session_store import Turn, flatten


@dataclass(frozen=True)
class PromptBudget:
    total_chars: int = 16_000  # system, memories, context, history and the new question
    keep_whole_turns: int = 4
    tool_result_chars: int = 400  # a tool result of an older turn is cut to this
    summary_chars: int = 2_000  # the summary of the folded turns, at most
    refill_ratio: float = 0.6  # folding leaves the history this full
    # kept free for the current turn's own tool calls and results (its later rounds)
    tool_reserve_chars: int = 2_000


def message_chars(message: dict[str, Any]) -> int:
    size = len(str(message.get("content") or ""))
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        size += len(str(function.get("name") or "")) + len(str(function.get("arguments") or ""))
    return size


def prompt_chars(messages: list[dict[str, Any]]) -> int:
    """The budget's measure of a prompt (characters; see the module docstring)."""
    return sum(message_chars(m) for m in messages)


def _cut(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… [cut: {len(text) - limit} more characters; ask the tool again]"


def shortened(turn: Turn, limit: int) -> list[dict[str, Any]]:
    """The turn's messages with each tool result cut to ``limit`` characters."""
    out = []
    for message in turn.messages:
        if message.get("role") == "tool":
            message = {**message, "content": _cut(str(message.get("content") or ""), limit)}
        out.append(message)
    return out


def render(turns: list[Turn], budget: PromptBudget) -> list[dict[str, Any]]:
    """The history as it goes into the prompt: newest turns whole, older ones shortened."""
    whole_from = max(0, len(turns) - budget.keep_whole_turns)
    messages: list[dict[str, Any]] = []
    for index, turn in enumerate(turns):
        if index >= whole_from:
            messages += turn.messages
        else:
            messages += shortened(turn, budget.tool_result_chars)
    return messages


def fit(turns: list[Turn], room: int, budget: PromptBudget) -> tuple[list[Turn], list[Turn]]:
    """Split the turns not yet summarised into (to fold into the summary, to keep).

    Nothing is folded while the rendered history fits ``room``. Otherwise the oldest turns are
    folded until the rest fits ``refill_ratio * room``; the newest turn is always kept.
    """
    if prompt_chars(render(turns, budget)) <= room:
        return [], turns
    target = int(room * budget.refill_ratio)
    cut = 0
    while cut < len(turns) - 1 and prompt_chars(render(turns[cut:], budget)) > target:
        cut += 1
    return turns[:cut], turns[cut:]


def squeeze(turns: list[Turn], room: int, budget: PromptBudget) -> list[dict[str, Any]]:
    """The kept turns' messages; if even they overflow (one huge tool result in the newest
    turn), every tool result is shortened, then halved until the history fits."""
    messages = render(turns, budget)
    limit = budget.tool_result_chars
    while prompt_chars(messages) > room and limit > 40:
        messages = flatten(Turn(t.number, shortened(t, limit)) for t in turns)
        limit //= 2
    return messages
