"""The assistant's tools: the complete list of what the model can make the app do.

Each tool is a JSON-schema'd function with an async handler returning *text for the model*. The
texts state the truth in words the model cannot misread (``DRAFT_PENDING_APPROVAL — NOT SENT``,
``APPOINTMENT_PROPOSED — NOT IN THE CALENDAR``, ``NO_MATCH — … Do not guess``), and each tool
carries a short activity label in Chinese and English for the front ends ("正在查找客户…").

The modules, by what the tools do:
    customers   search_inquiries, search_customers (exact, then fuzzy), get_inquiry
    mail        search_emails, thread_history, find_attachments
    today       today_numbers, pending_items, pipeline_summary
    drive       list_customer_files, read_customer_file, create_customer_folder
    pipeline    change_stage (audited as agent), add_note, audit_pipeline
    drafting    draft_reply, revise_draft, forward_to_factory, batch_drafts, propose_appointment
    memories    remember, list_memories, retire_memory
    knowledge   search_knowledge, propose_knowledge (a proposal: written when he confirms)

A tool that settles on exactly one customer (a search with one exact hit, ``get_inquiry``, a
draft) says so through ``ToolContext.resolved``; a lookup with several hits through
``ambiguous``. The conversation makes that customer its current one ("他") after the turn.

Each tool is one ``Tool`` record (``base``) that also says what it reads (customer content or
not), what it writes, whether it drafts or returns files and which assertions it may back; the loop
(taint, the consent rule for gated writes), the front ends (drafts to open, files to offer) and
the registry test read those records, never lists of names kept elsewhere.

Why no tool can approve or send: a handler can only use what its ``ToolContext`` holds (see
``base``) — a ``DraftComposer``, a ``DraftReader`` and a ``CustomerDrive`` — and none of them
can approve, reject or send a draft, send mail or write the calendar; a test walks the objects
to prove it. Every write a tool makes is audited with the actor ``agent``.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from core.agent.tools import (
    customers,
    drafting,
    drive,
    knowledge,
    mail,
    memories,
    pipeline,
    today,
)
from core.agent.tools.base import Tool, ToolContext, ToolError, marking
from core.db.models import Memory
from core.memory.expiry import expire_due
from core.memory.recall import fit, mark_used, standing_memories

__all__ = [
    "REGISTRY",
    "Tool",
    "ToolContext",
    "ToolError",
    "active_memories",
    "assistant_memories",
    "tool_labels",
]

REGISTRY: dict[str, Tool] = {
    tool.name: marking(tool)
    for module in (customers, mail, today, drive, pipeline, drafting, memories, knowledge)
    for tool in module.TOOLS
}


def tool_labels(name: str) -> tuple[str, str]:
    """(Chinese, English) activity text of a tool, for the chat panel and Telegram."""
    tool = REGISTRY.get(name)
    return (tool.label_zh, tool.label_en) if tool else ("正在处理…", "Working…")


ASSISTANT_MEMORY_CHARS = 4000  # of standing memories in the assistant's prompt
# most relevant first when the budget is short: his rules, then lessons, then notes whose
# customer is not (yet) known to the store
ASSISTANT_KINDS = ("boss_pref", "business_rule", "experience", "customer_note")


def _standing(session: Session, now: datetime | None) -> list[Memory]:
    rows = standing_memories(session, ASSISTANT_KINDS, now)
    ranked = sorted(rows, key=lambda m: ASSISTANT_KINDS.index(m.kind))
    kept = {m.id for m in fit(ranked, ASSISTANT_MEMORY_CHARS)}
    return [m for m in rows if m.id in kept]  # oldest first: the prompt prefix stays stable


def active_memories(session: Session, now: datetime | None = None) -> list[str]:
    """The owner's memories about no one customer, as the assistant's prompt lists them."""
    return [f"[{m.id}] ({m.kind}) {m.text}" for m in _standing(session, now)]


def assistant_memories(session: Session, now: datetime, used_in: str) -> list[str]:
    """``active_memories`` for a turn: what has run out is expired first, and what the prompt
    reads is stamped as used (``used_in``: ``assistant:telegram``)."""
    expire_due(session, now)
    rows = _standing(session, now)
    mark_used(session, [m.id for m in rows], used_in, now)
    return [f"[{m.id}] ({m.kind}) {m.text}" for m in rows]
