"""The prompt budget of a long conversation, kept so the provider's prompt cache keeps working.

Why this shape: a provider caches the longest prompt prefix it has seen before, so a turn costs
little when its request starts with exactly the bytes of the previous one. The history therefore
goes to the model **whole and unchanged**, as it was sent (never re-shortened turn by turn), and
grows by one turn per question. Only when it would no longer fit the budget is it **folded, in
one step**: the oldest turns are replaced by notes (a cheap-tier call,
``core.agent.session_digest``) after their key facts became memory proposals. Folding goes down
to ``refill_ratio`` of the room — so it happens every few turns, not on every one — but keeps at
least the newest ``keep_whole_messages`` messages whole as long as they leave room for one more
turn (a budget too small for them folds to ``refill_ratio`` rather than refold every turn).
After a fold the prefix is stable again until the next one.

The size is counted in **characters** (message contents plus tool-call names and arguments),
not tokens: no tokenizer ships with the app, and for this mix of Chinese (about one token per
character) and English (about four characters per token) characters bound tokens from above.
The tool specifications are not counted: they are the same for every request. The budget holds
for every request of a turn as long as the turn's own tool calls and results stay within
``tool_reserve_chars`` (kept free when the history is fitted).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from core.agent.session_store import Turn


@dataclass(frozen=True)
class PromptBudget:
    # system, memories, notes, history and the new question. 32,000 (not the 16,000 of the
    # shortening days): the newest 20 messages go whole, tool output included, and at 16,000
    # they left room for only a turn or two between folds (benchmarks/assistant_session.py:
    # 20 folds in 60 turns, 61% of prompt characters cacheable; at 32,000: 3 folds, 91%)
    total_chars: int = 32_000
    keep_whole_messages: int = 20  # the newest messages a fold leaves whole (the seed's 20)
    summary_chars: int = 2_000  # the notes of the folded turns, at most
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


def _chars(turns: list[Turn]) -> int:
    return sum(prompt_chars(t.messages) for t in turns)


def _messages(turns: list[Turn]) -> int:
    return sum(len(t.messages) for t in turns)


def fit(turns: list[Turn], room: int, budget: PromptBudget) -> tuple[list[Turn], list[Turn]]:
    """Split the turns not yet folded into (to fold into the notes, to send whole).

    Nothing is folded while the whole history fits ``room`` (the prefix stays byte-identical).
    Otherwise the oldest turns are folded until the rest fits ``refill_ratio * room``, except
    that a fold stops early rather than leave fewer than ``keep_whole_messages`` messages, as
    long as what is left plus one more turn like the newest fits ``room``. A turn that alone
    overflows ``room`` is folded too.
    """
    if _chars(turns) <= room:
        return [], turns
    target = int(room * budget.refill_ratio)
    cut = 0
    while cut < len(turns) and _chars(turns[cut:]) > target:
        rest = turns[cut:]
        # the newest messages stay whole if they leave room for another turn before a refold
        if _messages(rest[1:]) < budget.keep_whole_messages and (
            _chars(rest) + _chars(turns[-1:]) <= room
        ):
            break
        cut += 1
    return turns[:cut], turns[cut:]


def fitted_budget(budget: PromptBudget, sent_chars: int, error: object) -> PromptBudget:
    """A smaller budget after the server said the prompt exceeds its context window.

    When the server names its window and the prompt's size in tokens (llama.cpp, vLLM, OpenAI
    do), the history shrinks in that ratio with a fifth to spare; otherwise it halves. The
    budget never grows here, and never falls below what one turn needs (the fixed prompt and
    a question): a window smaller than that is the owner's message to read (``llm_context``)."""
    params = getattr(error, "params", {}) or {}
    limit, asked = int(params.get("limit") or 0), int(params.get("asked") or 0)
    ratio = limit / asked if limit and asked and asked > limit else 0.5
    total = int(min(budget.total_chars, sent_chars or budget.total_chars) * ratio * 0.8)
    total = max(total, 2_000)
    return replace(
        budget,
        total_chars=min(total, budget.total_chars),
        keep_whole_messages=min(budget.keep_whole_messages, 4),
        summary_chars=min(budget.summary_chars, max(400, total // 8)),
    )
