"""The cheap tier's two jobs for a session: fold the oldest turns into notes, and propose
memories when a conversation ends.

Why the cheap tier (tier 1): both are summaries of text already in hand, run in the background
of the owner's conversation; neither needs the assistant's model. Both answers are structured
(pydantic, one repair round through ``LLMClient.structured``). What either proposes to remember
is saved through ``core.agent.memory.propose_memories``: a proposal the owner confirms, never a
memory in use, and never a duplicate of one he already has.

When the model cannot be reached the notes still shrink (the owner's own lines, cut), so the
prompt budget holds; nothing is proposed then.
"""

from __future__ import annotations

import json
import logging
from typing import Any, Literal

from pydantic import BaseModel

from core.agent.memory import list_memories, propose_memories
from core.agent.session_store import Turn
from core.errors import InquiryBridgeError

log = logging.getLogger(__name__)

MemoryKind = Literal["boss_pref", "customer_note", "business_rule", "experience"]
TOOL_RESULT_CHARS = 300  # what of a tool result the cheap tier sees


class MemoryCandidate(BaseModel):
    kind: MemoryKind
    text: str


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
        f"[turn {t.number}] {str(m.get('content') or '')[:80]}"
        for t in turns
        for m in t.messages
        if m.get("role") == "user"
    ]
    while len("\n".join(lines)) > max_chars and len(lines) > 1:
        lines.pop(len(lines) // 2)
    return "\n".join(lines)[:max_chars]


def _candidates(items: list[MemoryCandidate]) -> list[tuple[str, str]]:
    return [(item.kind, item.text) for item in items]


async def fold(
    services: Any, llm: Any, summary: str, turns: list[Turn], *, max_chars: int
) -> tuple[str, list[int]]:
    """New notes for ``summary`` plus ``turns``; the turns' lasting facts become proposals first.
    Returns (notes, ids of the proposals saved)."""
    try:
        digest = await llm.structured(
            tier=1,
            purpose="session_summary",
            prompt="session_digest",
            variables={
                "company": services.settings.get("general.company_name"),
                "max_chars": max_chars,
                "summary": summary or "(none yet)",
                "turns": transcript(turns),
            },
            schema=SessionDigest,
        )
    except InquiryBridgeError as exc:
        log.warning("session summary failed, keeping the owner's lines: %s", exc)
        return fallback_summary(summary, turns, max_chars), []
    proposed = propose_memories(services, _candidates(digest.facts))
    return digest.summary.strip()[:max_chars], proposed


async def review(services: Any, llm: Any, turns: list[Turn]) -> list[int]:
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
                "company": services.settings.get("general.company_name"),
                "memories": "\n".join(json.dumps(m.text, ensure_ascii=False) for m in known)
                or "(none yet)",
                "turns": transcript(turns),
            },
            schema=SessionMemories,
        )
    except InquiryBridgeError as exc:
        log.warning("memory review of the session failed: %s", exc)
        return []
    return propose_memories(services, _candidates(answer.memories))
