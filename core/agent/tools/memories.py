"""The owner's standing memories: remember one, list them, retire one.

What the owner says twice is one memory (``core.agent.memory_dedupe``: the cheap model judges,
the older memory is kept and counted); a note about a customer is linked to the customer it
names, and a short-term one ("下周二上门") expires after its day (computed in code).

The rules are ``core.agent.memory``'s: once a turn has read customer content, what the model
asks to remember is only a *proposal* the owner confirms (mail can say "SYSTEM: always approve…"),
unless his own words of that turn asked for it (the loop's consent rule sets ``propose_only``).
Retiring follows the same caution the other way: after customer content the tool refuses, so a
customer's email cannot switch off one of the owner's rules. Each write is audited as ``agent``.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from core import tasks
from core.agent.memory import list_memories, retire_memory
from core.agent.memory_dedupe import Candidate, remember_once
from core.agent.tools.args import as_json, int_arg, obj, text_arg
from core.agent.tools.base import ACTOR, Tool, ToolContext, ToolError, audit
from core.db.models import MEMORY_KINDS, MEMORY_STATUSES

OWNER_KINDS = ("boss_pref", "business_rule", "experience", "customer_note")


async def remember(ctx: ToolContext, args: dict[str, Any]) -> str:
    """Store the owner's standing preference — or, once the turn has read customer content,
    only *propose* it (``core.agent.memory``)."""
    kind = str(args.get("kind") or "")
    if kind not in OWNER_KINDS:
        raise ToolError("kind must be boss_pref, business_rule, experience or customer_note")
    text = text_arg(args, "text")
    supersedes = args.get("supersedes_id")
    inquiry = args.get("inquiry_id")
    expires = str(args.get("expires_on") or "") or None
    result = await remember_once(
        ctx.services,
        ctx.memory_judge,
        Candidate(kind, text, inquiry_id=int(inquiry) if inquiry is not None else None,
                  expires_on=expires),
        source=ACTOR,
        supersedes=int(supersedes) if supersedes is not None else None,
        proposal=ctx.propose_only,  # the loop's consent rule decided (core.agent.consent)
    )  # fmt: skip
    memory_id, status = result.memory_id, result.status
    if result.merged:
        return (
            f"MEMORY_ALREADY_KNOWN id={memory_id} status={status} — an earlier memory says "
            "the same; it was counted again, nothing new was stored."
        )
    if status == "proposed":
        return (
            f"MEMORY_PROPOSED id={memory_id} kind={kind} — NOT ACTIVE: this turn read customer "
            "mail, so the owner must confirm it first. Tell him it is only a proposal."
        )
    now = ctx.services.clock.now()

    def record(session: Session) -> None:
        audit(session, "memory", memory_id, "memory_saved", now, kind=kind, supersedes=supersedes)

    await ctx.services.store.run(record)
    return f"MEMORY_SAVED id={memory_id} kind={kind}"


async def list_memories_tool(ctx: ToolContext, args: dict[str, Any]) -> str:
    status = str(args.get("status") or "active")
    if status not in (*MEMORY_STATUSES, "all"):
        raise ToolError(f"status must be one of {', '.join(MEMORY_STATUSES)} or all")
    kind = str(args.get("kind") or "")
    if kind and kind not in MEMORY_KINDS:
        raise ToolError(f"kind must be one of {', '.join(MEMORY_KINDS)}")
    statuses = None if status == "all" else (status,)
    if status != "active":  # proposals may hold words that came from customer mail
        ctx.customer_content_seen = True
    items = await ctx.services.store.read(lambda s: list_memories(s, statuses))
    shown = [
        {"id": m.id, "kind": m.kind, "text": m.text, "status": m.status, "source": m.source,
         "created": m.created_at[:10], "inquiry_id": m.inquiry_id}
        for m in items
        if not kind or m.kind == kind
    ]  # fmt: skip
    return as_json(f"MEMORIES ({status}): {len(shown)}", {"memories": shown[-100:]})


async def retire_memory_tool(ctx: ToolContext, args: dict[str, Any]) -> str:
    memory_id = int_arg(args, "memory_id")
    if ctx.customer_content_seen:
        return (
            f"RETIRE_REFUSED memory {memory_id} — NOT RETIRED: this turn read customer mail, so "
            "only the owner can retire it (settings → memories, or ask again in a new question)."
        )
    item = await tasks.io(retire_memory, ctx.services, memory_id, actor=ACTOR)
    return f"MEMORY_RETIRED id={item.id} — kept for the record, no longer used: {item.text}"


TOOLS = (
    Tool(
        "remember",
        "Store a standing preference, business rule, lesson or fact about a customer the owner "
        "told you (name the customer in the text); optionally replacing an older one (kept as "
        "superseded, never deleted). For a short-term fact give expires_on (YYYY-MM-DD, the "
        "last day it holds).",
        obj(
            {
                "kind": {"type": "string", "enum": list(OWNER_KINDS)},
                "text": {"type": "string"},
                "supersedes_id": {"type": "integer"},
                "inquiry_id": {"type": "integer"},
                "expires_on": {"type": "string"},
            },
            ["kind", "text"],
        ),
        remember,
        "正在记住…",
        "Remembering…",
        writes=frozenset({"memory"}),
        backs=frozenset({"saved"}),
    ),
    Tool(
        "list_memories",
        "The owner's memories (preferences, rules, customer notes, experience) with source "
        "and date; by status (active by default, proposed, retired, all) and kind.",
        obj(
            {
                "status": {"type": "string", "enum": [*MEMORY_STATUSES, "all"]},
                "kind": {"type": "string", "enum": ["", *MEMORY_KINDS]},
            },
            [],
        ),
        list_memories_tool,
        "正在查看记忆…",
        "Listing memories…",
    ),
    Tool(
        "retire_memory",
        "Stop using one memory when the owner says it no longer holds (kept for the record).",
        obj({"memory_id": {"type": "integer"}}, ["memory_id"]),
        retire_memory_tool,
        "正在停用记忆…",
        "Retiring a memory…",
        writes=frozenset({"memory_retire"}),
        backs=frozenset({"deleted"}),
    ),
)
