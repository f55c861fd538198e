"""The cheap tier's two jobs for a session: fold the oldest turns into notes, and propose
memories when a conversation ends.

Why the cheap tier (tier 1): both are summaries of text already in hand, run in the background
of the owner's conversation; neither needs the assistant's model. Both answers are structured
(pydantic, one repair round through ``LLMClient.structured``). What either proposes to remember
is saved through ``core.agent.memory_dedupe.propose_memories``: a proposal the owner confirms,
never a memory in use, and never a second copy of one he already has (a duplicate is merged into
it). What the model adds about a candidate — the customer it names, the day it stops being true —
is a proposal too: code resolves the customer and verifies the date.

When the model cannot be reached the notes still shrink (the owner's own lines, cut), so the
prompt budget holds; nothing is proposed then.
"""

from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel

from core.agent.memory import list_memories
from core.agent.memory_dedupe import Candidate, propose_memories
from core.agent.session_store import Turn
from core.agent.turn_context import owner_words
from core.clock import to_sydney
from core.errors import InquiryBridgeError

if TYPE_CHECKING:
    from core.llm.model import ModelClient
    from core.services import Services

log = logging.getLogger(__name__)

MemoryKind = Literal["boss_pref", "customer_note", "business_rule", "experience"]
TOOL_RESULT_CHARS = 300  # what of a tool result the cheap tier sees


class MemoryCandidate(BaseModel):
    kind: MemoryKind
    text: str
    customer: str | None = None  # the customer named (customer_note), checked by code
    inquiry_id: int | None = None
    expires_on: str | None = None  # YYYY-MM-DD: the last day it holds, verified by code


class SessionDigest(BaseModel):
    summary: str
    facts: list[MemoryCandidate]


class SessionMemories(BaseModel):
    memories: list[MemoryCandidate]


def transcript(turns: list[Turn]) -> str:
    """The turns as plain lines: the owner, tools (results cut), the assistant."""
    lines: list[str] = []
    for turn in turns:
        for message in turn.messages:
            role = message.get("role")
            content = str(message.get("content") or "").strip()
            if role == "user":
                content = owner_words(content).strip()
                lines.append(f"[turn {turn.number}] Owner: {content}")
            elif role == "tool":
                lines.append(f"  tool result: {content[:TOOL_RESULT_CHARS]}")
            elif message.get("tool_calls"):
                for call in message["tool_calls"]:
                    function = call.get("function") or {}
                    lines.append(f"  tool call: {function.get('name')} {function.get('arguments')}")
            elif content:
                lines.append(f"  Assistant: {content}")
    return "\n".join(lines)


def fallback_summary(summary: str, turns: list[Turn], max_chars: int) -> str:
    """Notes without a model: the old notes' lines and the owner's own lines (each cut to 80
    characters); over ``max_chars``, lines go from the middle — the start of a conversation
    usually sets its subject, its end is what is being worked on."""
    lines = [line for line in summary.splitlines() if line]
    lines += [
        f"[turn {t.number}] {owner_words(str(m.get('content') or ''))[:80]}"
        for t in turns
        for m in t.messages
        if m.get("role") == "user"
    ]
    while len("\n".join(lines)) > max_chars and len(lines) > 1:
        lines.pop(len(lines) // 2)
    return "\n".join(lines)[:max_chars]


def _candidates(items: list[MemoryCandidate]) -> list[Candidate]:
    return [
        Candidate(item.kind, item.text, item.customer, item.inquiry_id, item.expires_on)
        for item in items
    ]


async def fold(
    services: Services,
    llm: ModelClient,
    summary: str,
    turns: list[Turn],
    *,
    max_chars: int,
    channel: str | None = None,
) -> tuple[str, list[int]]:
    """New notes for ``summary`` plus ``turns``; the turns' lasting facts become proposals first.
    Returns (notes, ids of the proposals saved)."""
    try:
        digest = await llm.structured(
            tier=1,
            purpose="session_summary",
            prompt="session_digest",
            variables={
                "company": services.settings.text("general.company_name"),
                "max_chars": max_chars,
                "summary": summary or "(none yet)",
                "turns": transcript(turns),
            },
            schema=SessionDigest,
        )
    except InquiryBridgeError as exc:
        log.warning("session summary failed, keeping the owner's lines: %s", exc)
        return fallback_summary(summary, turns, max_chars), []
    proposed = await propose_memories(services, llm, _candidates(digest.facts), channel=channel)
    return digest.summary.strip()[:max_chars], proposed


async def review(
    services: Services, llm: ModelClient, turns: list[Turn], *, channel: str | None = None
) -> list[int]:
    """After a conversation: the cheap tier proposes memories; duplicates of active or proposed
    ones are skipped. Returns the ids of the proposals saved."""
    if not turns:
        return []
    known = await services.store.read(lambda s: list_memories(s, ("active", "proposed")))
    try:
        answer = await llm.structured(
            tier=1,
            purpose="session_memories",
            prompt="session_review",
            variables={
                "company": services.settings.text("general.company_name"),
                "memories": "\n".join(json.dumps(m.text, ensure_ascii=False) for m in known)
                or "(none yet)",
                "today": to_sydney(services.clock.now()).strftime("%Y-%m-%d %A"),
                "turns": transcript(turns),
            },
            schema=SessionMemories,
        )
    except InquiryBridgeError as exc:
        log.warning("memory review of the session failed: %s", exc)
        return []
    return await propose_memories(services, llm, _candidates(answer.memories), channel=channel)
