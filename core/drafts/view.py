"""A draft as every surface shows it: the CLI's JSON, the 待审批 list, the approval window.

Kept apart from the service so readers (the pending list, the CLI) can build views without
importing drafting's composer and fact guard.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from core.clock import naive_utc
from core.db.attention_rows import open_complaint
from core.db.models import Draft, Inquiry
from core.drafts.attachments import FileOption, selected_files, size_warnings
from core.drafts.translation import is_stale
from core.paths import DataPaths

DEMO_BATCH = "demo"  # batch_id of the demo's code-written sample drafts (shown as 示例)


@dataclass(frozen=True)
class DraftView:
    """A draft as every surface shows it (CLI JSON, 待审批 list, approval window)."""

    id: int
    inquiry_id: int | None
    status: str
    to: list[str]
    cc: list[str]
    subject: str
    body_en: str
    body_zh: str
    instruction: str
    unconfirmed_facts: list[str]
    confirmed_facts: list[str]
    reply_to_message_pk: int | None
    revision_of: int | None
    batch_id: str | None
    error: str | None
    customer_name: str | None
    customer_email: str | None
    created_at: datetime
    updated_at: datetime
    approved_by: str | None
    sent_at: datetime | None
    attachment_ids: list[int] = field(default_factory=list)
    attachments: list[FileOption] = field(default_factory=list)  # the chosen files
    # the newest email that went to this customer in the 14 days before the draft was last
    # changed, other than this draft itself: {"at": ISO UTC, "subject": …}, or None
    recently_mailed: dict[str, str] | None = None
    # the reason of the inquiry's open complaint item (需要您确认 "complaint"), or None: every
    # surface that shows the draft shows ``escalation_line`` with it
    escalation: str | None = None
    # the Chinese is not a translation of this English (edited since, or none yet): approval
    # waits for a new one (core.drafts.translation)
    zh_stale: bool = False
    # flagged values of the English the Chinese does not carry (中文未体现), a part of
    # ``unconfirmed_facts``
    zh_missing: list[str] = field(default_factory=list)

    @property
    def attachment_warnings(self) -> list[str]:
        """Chinese warnings about the chosen files (missing, too big in total)."""
        missing = [
            f"附件 {i} 已不属于此询盘"
            for i in self.attachment_ids
            if i not in {f.id for f in self.attachments}
        ]
        return missing + size_warnings(self.attachments)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "inquiry_id": self.inquiry_id,
            "status": self.status,
            "to": self.to,
            "cc": self.cc,
            "subject": self.subject,
            "body_en": self.body_en,
            "body_zh": self.body_zh,
            "unconfirmed_facts": self.unconfirmed_facts,
            "confirmed_facts": self.confirmed_facts,
            "instruction": self.instruction,
            "revision_of": self.revision_of,
            "batch_id": self.batch_id,
            "error": self.error,
            "created_at": iso_utc(self.created_at),
            "updated_at": iso_utc(self.updated_at),
            "sent_at": iso_utc(self.sent_at),
            "attachments": [f.as_json() for f in self.attachments],
            "recently_mailed": self.recently_mailed,
            "escalation": self.escalation,
            "zh_stale": self.zh_stale,
            "zh_missing": self.zh_missing,
        }

    @property
    def is_sample(self) -> bool:
        """One of the demo's code-written sample replies (marked 示例 wherever it is shown)."""
        return self.batch_id == DEMO_BATCH

    @property
    def recipient_differs(self) -> bool:
        """The draft goes to someone other than the inquiry's customer."""
        if not self.customer_email:
            return False
        return self.customer_email.lower() not in {a.lower() for a in self.to}


def zh_missing(d: Draft) -> list[str]:
    """The draft's flagged values that its Chinese does not carry (中文未体现)."""
    flagged = list(d.unconfirmed_facts or [])
    if not flagged or not (d.body_zh or "").strip():
        return []
    # the fact scanner (phone numbers, amounts, dates) loads with the first flagged draft, not
    # with the views the tray and the board import at start (#44)
    from core.drafts.factguard import rendering_mismatches

    missing = set(rendering_mismatches(d.body_en, d.body_zh, confirmed=d.confirmed_facts or []))
    return [f for f in flagged if f in missing]


def iso_utc(value: datetime | None) -> str | None:
    """A naive-UTC datetime from the store as ISO 8601 with Z (None stays None)."""
    return None if value is None else value.isoformat() + "Z"


def draft_view(session: Session, d: Draft, paths: DataPaths | None = None) -> DraftView:
    """The draft with its customer and, given the data folder, its chosen files."""
    inquiry = session.get(Inquiry, d.inquiry_id) if d.inquiry_id else None
    ids = [int(i) for i in (d.attachment_ids or [])]
    files = selected_files(session, paths, d.inquiry_id, ids) if ids and paths else []
    return DraftView(
        id=d.id,
        inquiry_id=d.inquiry_id,
        status=d.status,
        to=list(d.to_addrs or []),
        cc=list(d.cc_addrs or []),
        subject=d.subject,
        body_en=d.body_en,
        body_zh=d.body_zh,
        instruction=d.instruction,
        unconfirmed_facts=list(d.unconfirmed_facts or []),
        confirmed_facts=list(d.confirmed_facts or []),
        reply_to_message_pk=d.reply_to_message_pk,
        revision_of=d.revision_of,
        batch_id=d.batch_id,
        error=d.error,
        customer_name=inquiry.customer_name if inquiry else None,
        customer_email=inquiry.customer_email if inquiry else None,
        created_at=d.created_at,
        updated_at=d.updated_at,
        approved_by=d.approved_by,
        sent_at=d.sent_at,
        attachment_ids=ids,
        attachments=files,
        recently_mailed=recently_mailed(session, d),
        escalation=open_complaint(session, d.inquiry_id),
        zh_stale=is_stale(d),
        zh_missing=zh_missing(d),
    )


def escalation_line(reason: str) -> str:
    """The flag a draft to a complaining customer carries wherever it is shown (Chinese)."""
    return f"⚠ 该客户在投诉：{reason}，请先看一下再批准"


def recently_mailed(session: Session, d: Draft) -> dict[str, str] | None:
    """The 14-day warning for every surface that shows a draft (CLI, Telegram, the window)."""
    from core.drafts.recent import recent_contact

    if d.inquiry_id is None or d.status == "sent":
        return None
    moment = max(x for x in (d.created_at, d.updated_at) if x is not None)
    for contact in recent_contact(session, d.inquiry_id, now=moment):
        if d.internet_message_id and contact.subject == d.subject and contact.source == "app":
            continue
        return {"at": naive_utc(contact.at).isoformat() + "Z", "subject": contact.subject}
    return None
