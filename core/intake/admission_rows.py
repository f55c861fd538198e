"""The ``Message`` row admission writes for an arrival, and its first disposition.

Kept apart from ``admission`` (which orders, batches and reports) because this is the one place
that decides what a new row says: parse failures, outgoing mail, the prefilter's skip rules, a
message without a sender, or ``pending`` for the model.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import Clock, naive_utc
from core.db.models import Message
from core.intake import records
from core.intake.jobs import PENDING, Arrival
from core.mail.headers import arrival_from_header
from core.mail.parse import ParsedMessage
from core.mail.prefilter import prefilter


class RowFactory:
    """Builds unsaved rows; the caller adds them to its session and flushes."""

    def __init__(self, clock: Clock, own_addresses: list[str]) -> None:
        self.clock = clock
        self.own_addresses = own_addresses

    def now(self) -> datetime:
        return naive_utc(self.clock.now())

    def new_row(self, item: Arrival, customers: set[str]) -> tuple[Message, str]:
        """The unsaved row of one new message and its first disposition."""
        if item.parsed is None:
            return self._failed_row(item)
        disposition = self.first_disposition(item, item.parsed, customers)
        return self._parsed_row(item, item.parsed, disposition), disposition

    def first_disposition(self, item: Arrival, parsed: ParsedMessage, customers: set[str]) -> str:
        """``pending`` unless a rule already settles it (outgoing mail is linked later, in order)."""
        if item.outgoing:
            return PENDING
        email = item.customer_email
        known_customer = bool(email) and (email or "").lower() in customers
        rule = prefilter(parsed, known_customer=known_customer, own_addresses=self.own_addresses)
        if rule:
            return f"skipped:{rule}"
        if not email:
            return "failed:no_sender"
        return PENDING

    def _arrival_columns(self, item: Arrival) -> dict[str, Any]:
        """What every row of an arrival records, parsed or not: where it came from, its bytes."""
        raw, now = item.raw, self.now()
        return {
            "message_id": item.message_id,
            "source_id": raw.source_id,
            "source": raw.source,
            "source_ref": raw.source_ref,
            "folder": raw.folder,
            "conversation_id": raw.conversation_id,
            "raw_size": raw.size,
            "raw_path": item.raw_path,
            "created_at": now,
            "updated_at": now,
        }

    def _failed_row(self, item: Arrival) -> tuple[Message, str]:
        disposition = f"failed:{item.failure or ''}"
        msg = Message(
            **self._arrival_columns(item),
            direction="in",
            subject="",
            received_at=naive_utc(item.raw.received_at or self.clock.now()),
            disposition=disposition,
            last_error=item.detail[:2000],
        )
        return msg, disposition

    def _parsed_row(self, item: Arrival, parsed: ParsedMessage, disposition: str) -> Message:
        raw = item.raw
        msg = Message(
            **self._arrival_columns(item),
            direction="out" if item.outgoing else "in",
            in_reply_to=records.normalise_message_id(parsed.in_reply_to),
            references=records.normalise_many(parsed.references),
            from_addr=(parsed.from_addr or None),
            from_name=parsed.from_name or None,
            reply_to=(parsed.reply_to or None),
            to_addrs=list(parsed.to),
            cc_addrs=list(parsed.cc),
            subject=parsed.subject or "",
            # the source's own time when it has one (Graph, IMAP); else a plausible Date header
            received_at=naive_utc(
                raw.received_at
                or arrival_from_header(parsed.date, self.clock.now())
                or self.clock.now()
            ),
            body_text=item.body_text,
            body_full=parsed.text or "",
            body_html=parsed.html,
            parse_notes=list(parsed.notes),
            disposition=disposition,
            attempts=0,
        )
        msg.attachments = records.attachment_rows(item.stored)
        return msg

    @staticmethod
    def pending(session: Session) -> list[tuple[int, str | None, str, str | None]]:
        """``pending`` rows of earlier runs, oldest first: (pk, raw_path, direction, conv id)."""
        rows = session.execute(
            select(Message.id, Message.raw_path, Message.direction, Message.conversation_id)
            .where(Message.disposition == PENDING)
            .order_by(Message.id)
        ).all()
        return [(r[0], r[1], r[2], r[3]) for r in rows]

    def set_disposition(self, session: Session, pk: int, disposition: str) -> None:
        msg = session.get(Message, pk)
        if msg is not None:
            msg.disposition = disposition
            msg.updated_at = self.now()
