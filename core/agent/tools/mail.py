"""The mail the app has seen: search it, read one customer's whole thread, find attachments.

Email search is a word-by-word substring test over subjects and bodies (lower-cased, in SQL),
the same shape of match the board's search box uses (``core.inquiry.search``): every word must
appear. The board's trigram index covers customers, not bodies, so this scans ``messages`` —
measured cheap at the sizes one mailbox reaches; a body index is a migration away if it is not.

Everything returned carries customer text, so it goes back inside <data> tags and marks the turn
as having read customer content. Attachment answers carry ids: front ends open them or send
them as Telegram documents, and ``forward_to_factory`` takes them; the model cannot send them.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any

from sqlalchemy import and_, exists, func, or_, select
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from core.agent.tools.args import data_block, int_arg, iso_local, limit_arg, obj
from core.agent.tools.base import Tool, ToolContext, ToolError
from core.clock import SYDNEY, utc
from core.db.dialect import contains_text
from core.db.models import Attachment, Draft, Inquiry, Message
from core.drafts.attachments import human_size, inquiry_files
from core.inquiry.stages import stage_history

SNIPPET = 240
# the whole thread in front of the model, newest first: within a session's prompt budget
# (core.agent.session_budget: 32,000 characters in all), an older message shrinks to a head
THREAD_CHARS = 8_000
MESSAGE_CHARS = 2_000


def _day(text: str, name: str) -> date:
    try:
        return date.fromisoformat(text.strip()[:10])
    except ValueError:
        raise ToolError(f"{name} must be a date like 2026-11-30") from None


def _utc_midnight(day: date) -> datetime:
    return utc(datetime.combine(day, time.min, SYDNEY)).replace(tzinfo=None)


def _snippet(text: str, words: list[str]) -> str:
    lowered = text.lower()
    at = min((lowered.find(w) for w in words if w in lowered), default=0)
    start = max(0, at - SNIPPET // 3)
    piece = " ".join(text[start : start + SNIPPET].split())
    return ("…" if start else "") + piece + ("…" if start + SNIPPET < len(text) else "")


def _email_conditions(args: dict[str, Any]) -> tuple[list[ColumnElement[bool]], list[str]]:
    words = [w for w in str(args.get("query") or "").lower().split() if w]
    conditions: list[ColumnElement[bool]] = [Message.removed_at.is_(None)]
    for word in words:
        conditions.append(
            or_(
                contains_text(func.lower(Message.subject), word),
                contains_text(func.lower(Message.body_full), word),
                contains_text(func.lower(Message.body_text), word),
            )
        )
    sender = str(args.get("sender") or "").strip().lower()
    if sender:
        conditions.append(
            or_(
                contains_text(func.lower(Message.from_addr), sender),
                contains_text(func.lower(Message.from_name), sender),
            )
        )
    if args.get("since"):
        conditions.append(Message.received_at >= _utc_midnight(_day(args["since"], "since")))
    if args.get("until"):
        last = _day(args["until"], "until") + timedelta(days=1)
        conditions.append(Message.received_at < _utc_midnight(last))
    if args.get("with_attachments"):
        conditions.append(
            exists().where(and_(Attachment.message_pk == Message.id, ~Attachment.is_inline))
        )
    if args.get("inquiry_id") is not None:
        conditions.append(Message.inquiry_id == int_arg(args, "inquiry_id"))
    if len(conditions) == 1:
        raise ToolError("give a query, a sender, a date range or with_attachments")
    return conditions, words


def _attachments_of(session: Session, message_ids: list[int]) -> dict[int, list[dict[str, Any]]]:
    out: dict[int, list[dict[str, Any]]] = {}
    if not message_ids:
        return out
    rows = session.scalars(
        select(Attachment)
        .where(Attachment.message_pk.in_(message_ids), Attachment.is_inline.is_(False))
        .order_by(Attachment.id)
    )
    for att in rows:
        if att.message_pk is not None:
            out.setdefault(att.message_pk, []).append({"id": att.id, "filename": att.filename})
    return out


def _search_emails(session: Session, args: dict[str, Any], limit: int) -> str:
    conditions, words = _email_conditions(args)
    messages = session.scalars(
        select(Message).where(*conditions).order_by(Message.received_at.desc()).limit(limit)
    ).all()
    if not messages:
        return "NO_MATCH — no email matches. Do not guess what such an email said."
    files = _attachments_of(session, [m.id for m in messages])
    found = [
        {
            "message_id": m.id,
            "inquiry_id": m.inquiry_id,
            "direction": "from customer" if m.direction == "in" else "sent by us",
            "from": m.from_addr,
            "from_name": m.from_name,
            "subject": m.subject,
            "at": iso_local(m.received_at),
            "snippet": _snippet(m.body_text or m.body_full or "", words),
            "attachments": files.get(m.id, []),
        }
        for m in messages
    ]
    return data_block(f"FOUND {len(found)} emails (newest first)", {"emails": found})


async def search_emails(ctx: ToolContext, args: dict[str, Any]) -> str:
    limit = limit_arg(args, default=10, most=30)
    return await ctx.services.store.read(lambda s: _search_emails(s, args, limit))


def _thread(session: Session, inquiry_id: int) -> str:
    inquiry = session.get(Inquiry, inquiry_id)
    if inquiry is None:
        raise ToolError(f"no inquiry {inquiry_id}")
    messages = session.scalars(
        select(Message)
        .where(Message.inquiry_id == inquiry_id, Message.removed_at.is_(None))
        .order_by(Message.received_at, Message.id)
    ).all()
    files = _attachments_of(session, [m.id for m in messages])
    budget = THREAD_CHARS
    emails: list[dict[str, Any]] = []
    for m in reversed(messages):  # newest first gets the budget, then put back in order
        body = (m.body_text or m.body_full or "").strip()
        keep = max(200, min(MESSAGE_CHARS, budget))
        budget -= min(len(body), keep)
        emails.append(
            {
                "message_id": m.id,
                "direction": "from customer" if m.direction == "in" else "sent by us",
                "from": m.from_addr,
                "at": iso_local(m.received_at),
                "subject": m.subject,
                "text": body[:keep] + ("…[truncated]" if len(body) > keep else ""),
                "attachments": files.get(m.id, []),
            }
        )
    drafts = session.scalars(select(Draft).where(Draft.inquiry_id == inquiry_id)).all()
    payload = {
        "inquiry_id": inquiry_id,
        "customer": inquiry.customer_name,
        "stage": inquiry.stage,
        "stage_history": stage_history(session, inquiry_id),
        "emails": emails[::-1],
        "drafts": [{"id": d.id, "status": d.status, "subject": d.subject} for d in drafts],
    }
    return data_block(
        f"THREAD of inquiry {inquiry_id}: {len(emails)} emails, oldest first", payload
    )


async def thread_history(ctx: ToolContext, args: dict[str, Any]) -> str:
    inquiry_id = int_arg(args, "inquiry_id")
    return await ctx.services.store.read(lambda s: _thread(s, inquiry_id))


def _by_name(session: Session, words: list[str], limit: int) -> list[dict[str, Any]]:
    stmt = (
        select(Attachment, Message)
        .join(Message, Attachment.message_pk == Message.id)
        .where(Attachment.is_inline.is_(False), Message.removed_at.is_(None))
        .where(*(contains_text(func.lower(Attachment.filename), w) for w in words))
        .order_by(Message.received_at.desc())
        .limit(limit)
    )
    return [
        {
            "id": att.id,
            "filename": att.filename,
            "size": human_size(int(att.size or 0)),
            "inquiry_id": msg.inquiry_id,
            "from": msg.from_addr,
            "received": iso_local(msg.received_at),
            "available": bool(att.stored_path),
        }
        for att, msg in session.execute(stmt)
    ]


def _find_attachments(ctx: ToolContext, session: Session, args: dict[str, Any]) -> str:
    words = [w for w in str(args.get("filename") or "").lower().split() if w]
    limit = limit_arg(args, default=20, most=50)
    if args.get("inquiry_id") is not None:
        inquiry_id = int_arg(args, "inquiry_id")
        options = inquiry_files(session, ctx.services.paths, inquiry_id)
        found = [
            dict(
                o.as_json(),
                size=human_size(o.size),
                inquiry_id=inquiry_id,
                received=iso_local(o.received_at),
            )
            for o in options
            if all(w in o.filename.lower() for w in words)
        ][:limit]
    elif words:
        found = _by_name(session, words, limit)
    else:
        raise ToolError("give inquiry_id or a filename to look for")
    if not found:
        return "NO_MATCH — no such attachment."
    return data_block(
        f"FOUND {len(found)} attachments — each available one is shown to the owner under your "
        "answer (a link on his computer, a document in his Telegram chat), so do not tell him "
        "how to fetch it; forward_to_factory can attach them; you cannot send them to anyone",
        {"attachments": found},
    )


async def find_attachments(ctx: ToolContext, args: dict[str, Any]) -> str:
    return await ctx.services.store.read(lambda s: _find_attachments(ctx, s, args))


TOOLS = (
    Tool(
        "search_emails",
        "Full-text search over every email's subject and body (all words must appear), "
        "optionally by sender, Sydney date range (YYYY-MM-DD), inquiry, or only emails with "
        "attachments.",
        obj(
            {
                "query": {"type": "string"},
                "sender": {"type": "string", "description": "address or name, any part"},
                "since": {"type": "string", "description": "YYYY-MM-DD, Sydney day"},
                "until": {"type": "string", "description": "YYYY-MM-DD, inclusive"},
                "with_attachments": {"type": "boolean"},
                "inquiry_id": {"type": "integer"},
                "limit": {"type": "integer"},
            },
            [],
        ),
        search_emails,
        "正在搜索邮件…",
        "Searching emails…",
        reads_customer_content=True,
    ),
    Tool(
        "thread_history",
        "The whole email history of one inquiry, oldest first, with attachments, drafts and "
        "stage changes.",
        obj({"inquiry_id": {"type": "integer"}}, ["inquiry_id"]),
        thread_history,
        "正在读取往来邮件…",
        "Reading the email thread…",
        reads_customer_content=True,
    ),
    Tool(
        "find_attachments",
        "Files that came with emails (and files added to an inquiry): by inquiry, by file "
        "name, or both. Returns attachment ids the owner can open or receive on Telegram.",
        obj(
            {
                "inquiry_id": {"type": "integer"},
                "filename": {"type": "string", "description": "part of the file name"},
                "limit": {"type": "integer"},
            },
            [],
        ),
        find_attachments,
        "正在查找附件…",
        "Looking for attachments…",
        reads_customer_content=True,
        returns_files=True,
    ),
)
