"""The assistant's tools: the complete list of what the model can make the app do.

Each tool is a JSON-schema'd function with an async handler returning *text for the model*. The
texts state the truth in words the model cannot misread (``DRAFT_PENDING_APPROVAL — NOT SENT``).

Why no tool can approve or send a draft: a handler can only use what its ``ToolContext`` holds,
and for drafting that is a ``DraftComposer`` (writes drafts into the owner's queue) and a
``DraftReader`` (reads them). Approving, rejecting and sending live on ``OwnerDecisions``, which
is handed only to the owner's own surfaces (approval window, local CLI, paired Telegram buttons);
nothing reachable from a ``ToolContext`` refers to it or to the sender — a test walks the
objects to prove it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import to_sydney
from core.db.models import ALL_STAGES, MEMORY_KINDS, Draft, Inquiry, Memory, Message
from core.drafts.composing import DraftComposer
from core.drafts.reader import DraftReader, describe
from core.errors import InquiryBridgeError
from core.glossary import product_name
from core.inquiry.board import BoardQuery, fetch_rows, stage_counts
from core.inquiry.stages import STAGE_NAMES_ZH, StageService, stage_history
from core.services import Services

if TYPE_CHECKING:
    from core.drafts.drafting import Drafting


class ToolError(InquiryBridgeError):
    """A tool refused its arguments; the message goes back to the model."""


@dataclass
class ToolContext:
    """What the tools may use: the data folder's services, and of drafting only the composer
    and the reader (never the owner's decisions)."""

    services: Services
    composer: DraftComposer
    reader: DraftReader
    customer_content_seen: bool = False  # this turn read customer text: memories are proposals

    @classmethod
    def from_drafting(cls, services: Services, drafting: Drafting) -> ToolContext:
        """Take only the composer and the reader out of a ``core.drafts.drafting.Drafting``."""
        return cls(services, drafting.composer, drafting.reader)


Handler = Callable[[ToolContext, dict[str, Any]], Awaitable[str]]


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict[str, Any]
    handler: Handler

    def spec(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


def _obj(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


def _iso_local(value: datetime | None) -> str | None:
    return to_sydney(value).strftime("%Y-%m-%d %H:%M") if value else None


def _int_arg(args: dict[str, Any], name: str) -> int:
    try:
        return int(args[name])
    except (KeyError, TypeError, ValueError):
        raise ToolError(f"argument {name} must be an integer") from None


def _inquiry_line(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "customer": row.customer_name,
        "email": row.customer_email,
        "phone": row.customer_phone,
        "suburb": row.suburb,
        "products": [product_name(p) for p in row.product_types],
        "class": row.classification,
        "stage": row.stage,
        "stage_zh": STAGE_NAMES_ZH.get(row.stage, row.stage),
        "owes_reply": row.owes_reply,
        "last_contact": _iso_local(row.last_contact_at),
        "pending_drafts": row.pending_drafts,
    }


async def search_inquiries(ctx: ToolContext, args: dict[str, Any]) -> str:
    stage = str(args.get("stage") or "")
    if stage and stage not in ALL_STAGES:
        raise ToolError(f"unknown stage {stage!r}; stages are {', '.join(ALL_STAGES)}")
    limit = max(1, min(int(args.get("limit") or 10), 50))
    query = BoardQuery(
        stages=(stage,) if stage else (),
        search=str(args.get("query") or ""),
        needs_me=bool(args.get("needs_me")),
    )
    now = ctx.services.clock.now()
    rows = await ctx.services.store.read(lambda s: fetch_rows(s, query, now, limit=limit))
    return json.dumps(
        {"count": len(rows), "inquiries": [_inquiry_line(r) for r in rows]}, ensure_ascii=False
    )


def _inquiry_detail(session: Session, inquiry_id: int) -> dict[str, Any]:
    inquiry = session.get(Inquiry, inquiry_id)
    if inquiry is None:
        raise ToolError(f"no inquiry {inquiry_id}")
    messages = session.scalars(
        select(Message)
        .where(Message.inquiry_id == inquiry_id)
        .order_by(Message.received_at.desc())
        .limit(5)
    ).all()
    notes = session.scalars(
        select(Memory)
        .where(Memory.inquiry_id == inquiry_id, Memory.status == "active")
        .order_by(Memory.id)
    ).all()
    drafts = session.scalars(
        select(Draft).where(Draft.inquiry_id == inquiry_id).order_by(Draft.id.desc()).limit(5)
    ).all()
    return {
        "id": inquiry.id,
        "customer_name": inquiry.customer_name,
        "customer_email": inquiry.customer_email,
        "customer_phone": inquiry.customer_phone,
        "address": inquiry.address,
        "suburb": inquiry.suburb,
        "products": [product_name(p) for p in inquiry.product_types or []],
        "dimensions": inquiry.dimensions or [],
        "class": inquiry.classification,
        "stage": inquiry.stage,
        "stage_history": stage_history(session, inquiry.id),
        "latest_emails": [
            {
                "direction": m.direction,
                "at": _iso_local(m.received_at),
                "subject": m.subject,
                "text": (m.body_text or "")[:1500],
            }
            for m in reversed(messages)
        ],
        "notes": [n.text for n in notes],
        "drafts": [{"id": d.id, "status": d.status, "subject": d.subject} for d in drafts],
    }


async def get_inquiry(ctx: ToolContext, args: dict[str, Any]) -> str:
    inquiry_id = _int_arg(args, "inquiry_id")
    detail = await ctx.services.store.read(lambda s: _inquiry_detail(s, inquiry_id))
    return "<data>\n" + json.dumps(detail, ensure_ascii=False) + "\n</data>"


async def pipeline_summary(ctx: ToolContext, args: dict[str, Any]) -> str:
    now = ctx.services.clock.now()
    counts = await ctx.services.store.read(lambda s: stage_counts(s, BoardQuery(), now))
    pending = await ctx.services.store.read(
        lambda s: s.query(Draft).filter(Draft.status == "pending_approval").count()
    )
    return json.dumps({"per_stage": counts, "drafts_pending_approval": pending}, ensure_ascii=False)


async def draft_reply(ctx: ToolContext, args: dict[str, Any]) -> str:
    inquiry_id = _int_arg(args, "inquiry_id")
    instruction = str(args.get("instruction") or "").strip()
    if not instruction:
        raise ToolError("instruction is empty")
    draft_id = await ctx.composer.compose(inquiry_id, instruction, actor="agent")
    view = await ctx.reader.get(draft_id)
    status_line = describe(view)
    return json.dumps(
        {
            "draft_id": draft_id,
            "status": status_line,
            "to": view.to,
            "subject": view.subject,
            "unconfirmed_facts": view.unconfirmed_facts,
            "note": "The owner must approve it in 待审批; you cannot send it.",
        },
        ensure_ascii=False,
    )


async def add_note(ctx: ToolContext, args: dict[str, Any]) -> str:
    inquiry_id = _int_arg(args, "inquiry_id")
    text = str(args.get("text") or "").strip()
    if not text:
        raise ToolError("text is empty")
    from core.inquiry.edit import InquiryEditor

    note_id = InquiryEditor(ctx.services).add_note(inquiry_id, text, actor="agent", source="agent")
    return f"NOTE_SAVED id={note_id} on inquiry {inquiry_id}"


async def remember(ctx: ToolContext, args: dict[str, Any]) -> str:
    """Store the owner's standing preference — or, once the turn has read customer content,
    only *propose* it (``core.agent.memory``): mail can say "SYSTEM: always approve…"."""
    from core.agent.memory import save_memory

    kind = str(args.get("kind") or "")
    if kind not in MEMORY_KINDS or kind == "customer_note":
        raise ToolError("kind must be boss_pref, business_rule or experience")
    text = str(args.get("text") or "").strip()
    if not text:
        raise ToolError("text is empty")
    supersedes = args.get("supersedes_id")
    memory_id, status = save_memory(
        ctx.services,
        kind,
        text,
        source="agent",
        supersedes=int(supersedes) if supersedes is not None else None,
        proposal=ctx.customer_content_seen,
    )
    if status == "proposed":
        return (
            f"MEMORY_PROPOSED id={memory_id} kind={kind} — NOT ACTIVE: this turn read customer "
            "mail, so the owner must confirm it first. Tell him it is only a proposal."
        )
    return f"MEMORY_SAVED id={memory_id} kind={kind}"


async def change_stage(ctx: ToolContext, args: dict[str, Any]) -> str:
    inquiry_id = _int_arg(args, "inquiry_id")
    to_stage = str(args.get("to_stage") or "")
    reason = str(args.get("reason") or "").strip()
    if not reason:
        raise ToolError("a reason is required")
    service = StageService(ctx.services.store, ctx.services.bus, ctx.services.clock)
    change = service.advance(inquiry_id, to_stage, reason=reason, triggered_by="agent")
    if change is None:
        return f"STAGE_UNCHANGED inquiry {inquiry_id} is already {to_stage}"
    return f"STAGE_CHANGED inquiry {inquiry_id}: {change.from_stage} -> {change.to_stage}"


REGISTRY: dict[str, Tool] = {
    tool.name: tool
    for tool in (
        Tool(
            "search_inquiries",
            "Find customer inquiries by name, email, phone (any format) or suburb, optionally "
            "filtered by stage or to those needing the owner.",
            _obj(
                {
                    "query": {"type": "string"},
                    "stage": {"type": "string", "enum": ["", *ALL_STAGES]},
                    "needs_me": {"type": "boolean"},
                    "limit": {"type": "integer"},
                },
                ["query"],
            ),
            search_inquiries,
        ),
        Tool(
            "get_inquiry",
            "One inquiry in full: fields, stage history, latest emails, notes and drafts.",
            _obj({"inquiry_id": {"type": "integer"}}, ["inquiry_id"]),
            get_inquiry,
        ),
        Tool(
            "pipeline_summary",
            "How many inquiries are in each stage and how many drafts await approval.",
            _obj({}, []),
            pipeline_summary,
        ),
        Tool(
            "draft_reply",
            "Write an English reply draft to an inquiry's customer from a Chinese instruction. "
            "The draft is NOT sent: it waits for the owner's approval.",
            _obj(
                {"inquiry_id": {"type": "integer"}, "instruction": {"type": "string"}},
                ["inquiry_id", "instruction"],
            ),
            draft_reply,
        ),
        Tool(
            "add_note",
            "Add a note to an inquiry (what the owner told you about this customer).",
            _obj(
                {"inquiry_id": {"type": "integer"}, "text": {"type": "string"}},
                ["inquiry_id", "text"],
            ),
            add_note,
        ),
        Tool(
            "remember",
            "Store a standing preference or business rule of the owner; optionally replacing "
            "an older one (it is kept as superseded, never deleted).",
            _obj(
                {
                    "kind": {
                        "type": "string",
                        "enum": ["boss_pref", "business_rule", "experience"],
                    },
                    "text": {"type": "string"},
                    "supersedes_id": {"type": "integer"},
                },
                ["kind", "text"],
            ),
            remember,
        ),
        Tool(
            "change_stage",
            "Move an inquiry to another sales stage when the owner asks; the reason is audited.",
            _obj(
                {
                    "inquiry_id": {"type": "integer"},
                    "to_stage": {"type": "string", "enum": list(ALL_STAGES)},
                    "reason": {"type": "string"},
                },
                ["inquiry_id", "to_stage", "reason"],
            ),
            change_stage,
        ),
    )
}


def active_memories(session: Session) -> list[str]:
    rows = session.scalars(
        select(Memory)
        .where(Memory.status == "active", Memory.kind.in_(("boss_pref", "business_rule")))
        .order_by(Memory.id)
    ).all()
    return [f"[{m.id}] ({m.kind}) {m.text}" for m in rows]
