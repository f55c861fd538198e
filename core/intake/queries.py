"""The JSON views of ``inquiries --json`` and ``mail --json`` (docs/contracts.md contracts).

The field names here are checked from outside the repo, so they are spelled once, in this module.
Times are ISO 8601 UTC with a ``Z``. Both exports read in two or three set-based queries (no query
per row), so they stay quick on a mailbox of tens of thousands of messages.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.models import Attachment, Inquiry, Message
from core.db.quote_totals import current_totals
from core.inquiry.stage_policy import stage_time
from core.mail.message_ids import original_message_id

INBOUND_MERGED = ("new_inquiry", "merged")


def iso(dt: datetime | None) -> str | None:
    """Naive-UTC database time → ``2026-03-23T08:47:00Z``."""
    if dt is None:
        return None
    if dt.tzinfo is not None:
        from core.clock import utc

        dt = utc(dt).replace(tzinfo=None)
    return dt.replace(microsecond=0).isoformat() + "Z"


def inquiries_json(session: Session, now: datetime | None = None) -> list[dict[str, Any]]:
    """Every inquiry, oldest first, with the Message-IDs of every email merged into it.

    ``days_in_stage`` and ``overdue_days`` are Sydney working days at ``now`` by the one stage
    policy (the board, ``reminders`` and the briefing count the same way); without ``now`` they
    are counted at the stage's own start (0).
    """
    ids_by_inquiry: dict[int | None, list[str]] = defaultdict(list)
    rows = session.execute(
        select(Message.inquiry_id, Message.message_id)
        .where(Message.inquiry_id.is_not(None), Message.disposition.in_(INBOUND_MERGED))
        .order_by(Message.received_at, Message.id)
    )
    for inquiry_id, message_id in rows:
        ids_by_inquiry[inquiry_id].append(original_message_id(message_id))
    out: list[dict[str, Any]] = []
    quoted = current_totals(session)
    for inquiry in session.scalars(select(Inquiry).order_by(Inquiry.id)):
        context = inquiry.context_data or {}
        timed = stage_time(inquiry.stage, inquiry.stage_changed_at, now or inquiry.stage_changed_at)
        out.append(
            {
                "id": inquiry.id,
                "classification": inquiry.classification,
                "confidence": inquiry.confidence,
                "stage": inquiry.stage,
                "stage_since": iso(inquiry.stage_changed_at),
                "days_in_stage": timed.days_in_stage,
                "overdue_days": timed.overdue_days,
                "customer_name": inquiry.customer_name,
                "customer_email": inquiry.customer_email,
                "customer_phone": inquiry.customer_phone,
                "address": inquiry.address,
                "suburb": inquiry.suburb,
                "product_types": list(inquiry.product_types or []),
                "dimensions": list(inquiry.dimensions or []),
                "language": inquiry.language,
                "urgency": inquiry.urgency,
                "message_ids": ids_by_inquiry.get(inquiry.id, []),
                "parent_inquiry_id": inquiry.parent_inquiry_id,
                "owes_reply": inquiry.owes_reply,
                "last_inbound_at": iso(inquiry.last_inbound_at),
                "last_outbound_at": iso(inquiry.last_outbound_at),
                "last_contact_at": iso(inquiry.last_contact_at),
                "other_emails": [
                    e for e in context.get("emails", []) if e != inquiry.customer_email
                ],
                "other_phones": [
                    p for p in context.get("phones", []) if p != inquiry.customer_phone
                ],
                "thread_summary": context.get("thread_summary", ""),
                "created_at": iso(inquiry.created_at),
                "updated_at": iso(inquiry.updated_at),
                # the current quote's total inc GST (newest version not superseded), or None
                "quote_total_inc_gst": (
                    float(quoted[inquiry.id]) if inquiry.id in quoted else None
                ),
            }
        )
    return out


def mail_json(session: Session) -> list[dict[str, Any]]:
    """Every message ever ingested, in arrival order, with its one disposition."""
    attachments: dict[int | None, list[dict[str, Any]]] = defaultdict(list)
    for att in session.scalars(select(Attachment).order_by(Attachment.id)):
        attachments[att.message_pk].append(
            {
                "filename": att.filename,
                "content_type": att.content_type,
                "size": att.size,
                "stored": att.stored_path is not None,
                "skipped_reason": att.skipped_reason,
            }
        )
    out: list[dict[str, Any]] = []
    for msg in session.scalars(select(Message).order_by(Message.id)):
        out.append(
            {
                "message_id": original_message_id(msg.message_id),
                "received_at": iso(msg.received_at),
                "from": msg.from_addr,
                "from_name": msg.from_name,
                "reply_to": msg.reply_to,
                "to": list(msg.to_addrs or []),
                "subject": msg.subject,
                "body_text": msg.body_text,
                "disposition": msg.disposition,
                "inquiry_id": msg.inquiry_id,
                "classification": msg.classification,
                "confidence": msg.confidence,
                "direction": msg.direction,
                "folder": msg.folder,
                "source": msg.source,
                "source_ref": msg.source_ref,
                "source_id": msg.source_id,
                "attempts": msg.attempts,
                "last_error": msg.last_error,
                "parse_notes": list(msg.parse_notes or []),
                "attachments": attachments.get(msg.id, []),
                "removed": msg.removed_at is not None,
            }
        )
    return out
