"""The detail read model: one inquiry with its thread, attachments, stage history and notes.

Frozen dataclasses with plain values, read in one session, safe to hand from a worker thread to a
view. Stage history comes from the ``StageEvent`` rows (the one record of it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from sqlalchemy import (
    select,
)
from sqlalchemy.orm import Session

from core.db.models import (
    Attachment,
    Draft,
    DriveItem,
    Inquiry,
    Memory,
    Message,
    StageEvent,
)
from core.db.quote_totals import current_total
from core.inquiry.stage_policy import stage_time


@dataclass(frozen=True)
class AttachmentInfo:
    id: int
    filename: str
    content_type: str
    size: int
    stored_path: str | None
    skipped_reason: str | None


@dataclass(frozen=True)
class MessageInfo:
    id: int
    direction: str
    from_addr: str | None
    from_name: str | None
    to_addrs: tuple[str, ...]
    subject: str
    received_at: datetime
    body_text: str
    body_full: str
    translation_zh: str | None
    attachments: tuple[AttachmentInfo, ...]
    # attachments the intake counted but did not keep (over ``core.mail.parse.MAX_ATTACHMENTS``)
    attachments_not_kept: int = 0
    # a reply sent from here whose copy the Sent folder's sync has not brought yet: shown from
    # the draft itself (its id here), so the thread has it the moment it went
    sent_draft_id: int | None = None


@dataclass(frozen=True)
class StageEventInfo:
    from_stage: str | None
    to_stage: str
    at: datetime
    reason: str
    triggered_by: str


@dataclass(frozen=True)
class NoteInfo:
    id: int
    kind: str
    text: str
    source: str
    status: str
    created_at: datetime


@dataclass(frozen=True)
class InquiryDetail:
    """One inquiry with its thread (oldest first), stage history, notes and drive folder."""

    id: int
    classification: str
    confidence: str
    stage: str
    stage_changed_at: datetime
    customer_name: str | None
    customer_email: str | None
    customer_phone: str | None
    address: str | None
    suburb: str | None
    product_types: tuple[str, ...]
    dimensions: tuple[str, ...]
    language: str
    urgency: str | None
    owes_reply: str
    created_at: datetime
    drive_folder_name: str | None
    drive_web_url: str | None
    messages: tuple[MessageInfo, ...]
    stage_events: tuple[StageEventInfo, ...]
    notes: tuple[NoteInfo, ...]
    pending_drafts: tuple[int, ...]
    # files the owner added from his computer (添加本机文件), oldest first; no email carried them
    owner_files: tuple[AttachmentInfo, ...] = ()
    quote_total_inc_gst: Decimal | None = None  # the current quote (newest not superseded)

    def days_in_stage(self, now: datetime) -> int:
        """Sydney working days in the stage, as the board's column counts them."""
        return stage_time(self.stage, self.stage_changed_at, now).days_in_stage

    def overdue_days(self, now: datetime) -> int:
        """Working days past the stage's limit, by the one stage policy (0 when not overdue)."""
        return stage_time(self.stage, self.stage_changed_at, now).overdue_days


_NOT_KEPT = re.compile(r"^还有 (\d+) 个附件未保存")


def not_kept(parse_notes: list[str] | None) -> int:
    """How many attachments the parser counted past its cap (its note, ``core.mail.parse``)."""
    for note in parse_notes or ():
        match = _NOT_KEPT.match(str(note))
        if match:
            return int(match.group(1))
    return 0


def _attachment_info(a: Attachment) -> AttachmentInfo:
    return AttachmentInfo(a.id, a.filename, a.content_type, a.size, a.stored_path, a.skipped_reason)


def _message_infos(session: Session, inquiry_id: int) -> tuple[MessageInfo, ...]:
    """The live messages of the thread, oldest first, each with its attachments."""
    messages = session.scalars(
        select(Message)
        .where(Message.inquiry_id == inquiry_id, Message.removed_at.is_(None))
        .order_by(Message.received_at, Message.id)
    ).all()
    pks = [m.id for m in messages]
    attachments: dict[int, list[AttachmentInfo]] = {}
    if pks:
        for a in session.scalars(
            select(Attachment).where(Attachment.message_pk.in_(pks)).order_by(Attachment.id)
        ):
            if a.is_inline and (a.content_type or "").startswith("image/") and a.size < 20_000:
                continue  # signature logos
            if a.message_pk is not None:  # always, by the query; says so to the type checker
                attachments.setdefault(a.message_pk, []).append(_attachment_info(a))
    infos = [
        MessageInfo(
            id=m.id,
            direction=m.direction,
            from_addr=m.from_addr,
            from_name=m.from_name,
            to_addrs=tuple(m.to_addrs or ()),
            subject=m.subject,
            received_at=m.received_at,
            body_text=m.body_text,
            body_full=m.body_full,
            translation_zh=m.translation_zh,
            attachments=tuple(attachments.get(m.id, ())),
            attachments_not_kept=not_kept(m.parse_notes),
        )
        for m in messages
    ]
    infos.extend(_sent_not_synced(session, inquiry_id, {_bare(m.message_id) for m in messages}))
    return tuple(sorted(infos, key=lambda m: (m.received_at, m.id)))


def _bare(message_id: str | None) -> str:
    return (message_id or "").strip().strip("<>").lower()


def _sent_not_synced(session: Session, inquiry_id: int, seen: set[str]) -> list[MessageInfo]:
    """Replies sent from the app whose Message-ID is not in the thread yet (the Sent folder's
    copy arrives with the next sync and then takes their place)."""
    drafts = session.scalars(
        select(Draft).where(Draft.inquiry_id == inquiry_id, Draft.status == "sent")
    ).all()
    return [
        MessageInfo(
            id=-d.id,  # never a message's id: a draft's, negated
            direction="out",
            from_addr=None,
            from_name=None,
            to_addrs=tuple(d.to_addrs or ()),
            subject=d.subject,
            received_at=d.sent_at or d.updated_at,
            body_text=d.body_en,
            body_full=d.body_en,
            translation_zh=d.body_zh or None,
            attachments=(),
            sent_draft_id=d.id,
        )
        for d in drafts
        if _bare(d.internet_message_id) not in seen or not d.internet_message_id
    ]


def _owner_files(session: Session, inquiry_id: int) -> tuple[AttachmentInfo, ...]:
    """Files the owner attached to the inquiry itself, not to a message."""
    owner_files = session.scalars(
        select(Attachment)
        .where(Attachment.inquiry_id == inquiry_id, Attachment.message_pk.is_(None))
        .order_by(Attachment.id)
    ).all()
    return tuple(_attachment_info(a) for a in owner_files)


def _stage_events(session: Session, inquiry_id: int) -> tuple[StageEventInfo, ...]:
    events = session.scalars(
        select(StageEvent)
        .where(StageEvent.inquiry_id == inquiry_id)
        .order_by(StageEvent.at, StageEvent.id)
    ).all()
    return tuple(
        StageEventInfo(e.from_stage, e.to_stage, e.at, e.reason, e.triggered_by) for e in events
    )


def _notes(session: Session, inquiry_id: int) -> tuple[NoteInfo, ...]:
    """Customer notes, newest first."""
    notes = session.scalars(
        select(Memory)
        .where(Memory.inquiry_id == inquiry_id)
        .order_by(Memory.created_at.desc(), Memory.id.desc())
    ).all()
    return tuple(NoteInfo(n.id, n.kind, n.text, n.source, n.status, n.created_at) for n in notes)


def _drive_web_url(session: Session, inquiry: Inquiry) -> str | None:
    if not inquiry.drive_folder_id:
        return None
    item = session.get(DriveItem, inquiry.drive_folder_id)
    return item.web_url if item is not None else None


def load_detail(session: Session, inquiry_id: int) -> InquiryDetail | None:
    inquiry = session.get(Inquiry, inquiry_id)
    if inquiry is None:
        return None
    messages = _message_infos(session, inquiry_id)
    owner_files = _owner_files(session, inquiry_id)
    events = _stage_events(session, inquiry_id)
    notes = _notes(session, inquiry_id)
    drafts = session.scalars(
        select(Draft.id).where(Draft.inquiry_id == inquiry_id, Draft.status == "pending_approval")
    ).all()
    return InquiryDetail(
        id=inquiry.id,
        classification=inquiry.classification,
        confidence=inquiry.confidence,
        stage=inquiry.stage,
        stage_changed_at=inquiry.stage_changed_at,
        customer_name=inquiry.customer_name,
        customer_email=inquiry.customer_email,
        customer_phone=inquiry.customer_phone,
        address=inquiry.address,
        suburb=inquiry.suburb,
        product_types=tuple(inquiry.product_types or ()),
        dimensions=tuple(inquiry.dimensions or ()),
        language=inquiry.language,
        urgency=inquiry.urgency,
        owes_reply=inquiry.owes_reply,
        created_at=inquiry.created_at,
        drive_folder_name=inquiry.drive_folder_name,
        drive_web_url=_drive_web_url(session, inquiry),
        messages=messages,
        stage_events=events,
        notes=notes,
        pending_drafts=tuple(drafts),
        owner_files=owner_files,
        quote_total_inc_gst=current_total(session, inquiry.id),
    )
