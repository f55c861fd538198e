"""Writing a merge decision into the store: a new inquiry, a message merged into one, our own
outgoing mail linked to its inquiry.

Merging only fills what is empty (or upgrades what is clearly better) and never overwrites a field
the owner edited by hand (``audit_log`` rows ``edit_field``, see ``core.inquiry.edit``). Nothing
here publishes: ``core.intake.merge`` turns the result into events.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import Clock, naive_utc
from core.db.dialect import insert_ignore
from core.db.models import CUSTOMER_FIELDS, AuditEntry, Inquiry, InquiryPhone, Message
from core.inquiry.replied import mail_at
from core.inquiry.search import build_search_text, phone_digit_forms
from core.inquiry.stages import StageChange, record_initial_stage
from core.intake.matching import _norm, find_email_inquiry, find_thread_inquiry

if TYPE_CHECKING:  # the extractor (pydantic, the glossary) loads with the pipeline, not here
    from core.intake.extract import Extraction

T = TypeVar("T")
CONFIDENCE_RANK = {"low": 0, "medium": 1, "high": 2}
THREAD_SUMMARY_LINES = 40
OWNER_EDITED_KEY = "owner_edited"


class ClassificationLike(Protocol):
    primary: str
    labels: list[str]
    confidence: str
    reason: str


@dataclass
class Applied:
    """The outcome after the session flushed (ids are known; events are published by the caller)."""

    disposition: str
    inquiry_id: int | None
    created: bool = False
    changed_fields: tuple[str, ...] = ()
    stage_change: StageChange | None = None
    parent_inquiry_id: int | None = None
    low_confidence: bool = False
    notes: list[str] = field(default_factory=list)


def owner_edited_fields(session: Session, inquiry: Inquiry) -> set[str]:
    """Fields the owner corrected by hand; the pipeline never overwrites them."""
    fields = set((inquiry.context_data or {}).get(OWNER_EDITED_KEY, []))
    if inquiry.id is not None:
        # no autoflush: the pipeline's pending changes are never owner edits, and flushing them
        # here would cost the writer a second unit of work per merged message
        with session.no_autoflush:
            rows = session.scalars(
                select(AuditEntry.detail).where(
                    AuditEntry.entity == "inquiry",
                    AuditEntry.entity_id == inquiry.id,
                    AuditEntry.action == "edit_field",
                    AuditEntry.actor != "pipeline",
                )
            ).all()
        fields.update(str(d.get("field")) for d in rows if isinstance(d, dict))
    return fields


def summary_line(message: Message, region_name: str | None = None) -> str:
    """One deterministic line per message for ``context_data.thread_summary``."""
    when = message.received_at.strftime("%Y-%m-%d %H:%M")
    arrow = "→" if message.direction == "out" else "←"
    who = region_name or message.from_name or message.from_addr or "?"
    snippet = re.sub(r"\s+", " ", message.body_text or "").strip()
    if len(snippet) > 120:
        snippet = snippet[:117].rstrip() + "…"
    subject = re.sub(r"\s+", " ", message.subject or "").strip()
    line = f"{when} {arrow} {who}: {subject}"
    return f"{line} — {snippet}" if snippet else line


def _append_unique(items: list[T] | None, new: Iterable[T]) -> list[T]:
    out = list(items or [])
    for item in new:
        if item and item not in out:
            out.append(item)
    return out


def index_phones(session: Session, inquiry_id: int, phones: Iterable[str]) -> None:
    """Record numbers in ``inquiry_phones`` so a later message quoting one finds this inquiry."""
    rows = [{"phone": p, "inquiry_id": inquiry_id} for p in dict.fromkeys(phones) if p]
    insert_ignore(session, InquiryPhone, rows)


def add_summary(inquiry: Inquiry, message: Message) -> None:
    context = dict(inquiry.context_data or {})
    lines = [x for x in str(context.get("thread_summary") or "").split("\n") if x]
    line = summary_line(message)
    if line not in lines:
        lines.append(line)
    context["thread_summary"] = "\n".join(lines[-THREAD_SUMMARY_LINES:])
    inquiry.context_data = context


def refresh_search(inquiry: Inquiry, region: str) -> None:
    """``search_text``: name, emails, phone digits (E.164 and local 0-form), suburb, address."""
    context = inquiry.context_data or {}
    base = build_search_text(
        inquiry.customer_name,
        inquiry.customer_email,
        inquiry.customer_phone,
        inquiry.suburb,
        region,
    )
    extra: list[str] = []
    for email in context.get("emails", []):
        if email and email != inquiry.customer_email:
            extra.append(email.lower())
    for phone in context.get("phones", []):
        if phone != inquiry.customer_phone:
            extra.extend(phone_digit_forms(phone, region))
    if inquiry.address:
        extra.append(_norm(inquiry.address))
    words = [base, *extra]
    inquiry.search_text = " ".join(w for w in words if w)


def extraction_dict(extraction: Extraction | None) -> dict[str, Any]:
    if extraction is None:
        return {}
    keys = (
        *CUSTOMER_FIELDS,
        "urgency",
        "language",
        "dates",
        "budget",
        "grounding",  # drops, model-made fields: what the accuracy report counts
    )
    return {k: getattr(extraction, k, None) for k in keys}


def _mark_inbound(inquiry: Inquiry, message: Message) -> None:
    mail_at(inquiry, message.received_at, outbound=False)


def _new_inquiry(
    message: Message,
    classification: ClassificationLike,
    ext: Extraction | None,
    customer_email: str | None,
    language_hint: str | None,
    now: datetime,
) -> Inquiry:
    """The unsaved inquiry row a message starts: what the model extracted, stage ``inquiry``."""
    primary = classification.primary
    if primary not in ("A", "B"):  # an R with nothing to attach to, or R→A without a verdict
        primary = "A" if ext is not None and (ext.address or ext.suburb) else "B"
    name = (ext.customer_name if ext else None) or (
        message.from_name if customer_email == (message.from_addr or "").lower() else None
    )
    confidence = classification.confidence
    return Inquiry(
        classification=primary,
        confidence=confidence if confidence in CONFIDENCE_RANK else "low",
        stage="inquiry",
        stage_changed_at=now,
        customer_name=name,
        customer_email=customer_email,
        customer_phone=ext.customer_phone if ext else None,
        address=ext.address if ext else None,
        suburb=ext.suburb if ext else None,
        product_types=list(dict.fromkeys(ext.product_types)) if ext else [],
        dimensions=list(dict.fromkeys(ext.dimensions)) if ext else [],
        language=(ext.language if ext and ext.language else None) or language_hint or "en",
        urgency=ext.urgency if ext else None,
        owes_reply="us",
        parent_inquiry_id=None,
        context_data={
            "emails": [customer_email] if customer_email else [],
            "phones": [ext.customer_phone] if ext and ext.customer_phone else [],
            "notes": [],
            "extracted": extraction_dict(ext),
        },
        search_text="",
        created_at=now,
        updated_at=now,
    )


def create_inquiry(
    session: Session,
    message: Message,
    classification: ClassificationLike,
    extraction: Extraction | None,
    *,
    customer_email: str | None,
    parent: Inquiry | None,
    reason: str,
    clock: Clock,
    region: str,
    language_hint: str | None,
) -> Applied:
    """A new inquiry at stage ``inquiry``, with its first audit entry (triggered_by pipeline)."""
    now = naive_utc(clock.now())
    inquiry = _new_inquiry(message, classification, extraction, customer_email, language_hint, now)
    if parent is not None:
        inquiry.parent_inquiry_id = parent.id
        inquiry.context_data["notes"].append(
            {
                "text": f"新项目：由询盘 #{parent.id} 的邮件提出（{reason}）",
                "at": now.isoformat() + "Z",
                "by": "pipeline",
            }
        )
    session.add(inquiry)
    session.flush()
    index_phones(session, inquiry.id, inquiry.context_data["phones"])
    _mark_inbound(inquiry, message)
    add_summary(inquiry, message)
    refresh_search(inquiry, region)
    change = record_initial_stage(
        session,
        inquiry,
        reason=f"新询盘（邮件 {message.message_id}）",
        triggered_by="pipeline",
        clock=clock,
        first_received_at=message.received_at,
    )
    if parent is not None:
        context = dict(parent.context_data or {})
        children = _append_unique(context.get("child_inquiry_ids"), [inquiry.id])
        parent.context_data = {**context, "child_inquiry_ids": children}
    message.inquiry_id = inquiry.id
    return Applied(
        "new_inquiry",
        inquiry.id,
        created=True,
        stage_change=change,
        parent_inquiry_id=inquiry.parent_inquiry_id,
        low_confidence=inquiry.confidence == "low",
    )


def merge_into(
    session: Session,
    inquiry: Inquiry,
    message: Message,
    classification: ClassificationLike,
    extraction: Extraction | None,
    *,
    customer_email: str | None,
    clock: Clock,
    region: str,
) -> Applied:
    """Attach ``message`` to ``inquiry``: fill empty fields, append products, move the clock."""
    now = naive_utc(clock.now())
    locked = owner_edited_fields(session, inquiry)
    changed: list[str] = []

    def fill(name: str, value: object) -> None:
        if value in (None, "", []) or name in locked:
            return
        if getattr(inquiry, name) in (None, ""):
            setattr(inquiry, name, value)
            changed.append(name)

    ext = extraction
    context = dict(inquiry.context_data or {})
    if customer_email:
        fill("customer_email", customer_email)
        context["emails"] = _append_unique(context.get("emails"), [customer_email])
    if ext is not None and classification.primary != "C":
        _merge_extraction(session, inquiry, ext, context, locked, fill, changed)
    _upgrade_classification(inquiry, classification, locked, changed)
    if (
        not inquiry.customer_name
        and "customer_name" not in locked
        and message.from_name
        and customer_email
        and customer_email == (message.from_addr or "").lower()
    ):
        inquiry.customer_name = message.from_name
        changed.append("customer_name")
    inquiry.context_data = context
    before = (inquiry.owes_reply, inquiry.last_contact_at)
    _mark_inbound(inquiry, message)
    if (inquiry.owes_reply, inquiry.last_contact_at) != before:
        changed.append("owes_reply" if inquiry.owes_reply != before[0] else "last_contact_at")
    add_summary(inquiry, message)
    refresh_search(inquiry, region)
    inquiry.updated_at = now
    message.inquiry_id = inquiry.id
    return Applied("merged", inquiry.id, changed_fields=tuple(dict.fromkeys(changed)))


def _merge_extraction(
    session: Session,
    inquiry: Inquiry,
    ext: Extraction,
    context: dict[str, Any],
    locked: set[str],
    fill: Callable[[str, object], None],
    changed: list[str],
) -> None:
    """What the model extracted: empty fields filled, products and sizes appended."""
    fill("customer_name", ext.customer_name)
    fill("customer_phone", ext.customer_phone)
    fill("address", ext.address)
    fill("suburb", ext.suburb)
    fill("urgency", ext.urgency)
    if ext.customer_phone:
        context["phones"] = _append_unique(context.get("phones"), [ext.customer_phone])
        index_phones(session, inquiry.id, [ext.customer_phone])
    for name in ("product_types", "dimensions"):
        if name in locked:
            continue
        merged = _append_unique(getattr(inquiry, name), getattr(ext, name) or [])
        if merged != list(getattr(inquiry, name) or []):
            setattr(inquiry, name, merged)
            changed.append(name)
    extracted = dict(context.get("extracted") or {})
    for key, value in extraction_dict(ext).items():
        if value not in (None, "", []) and extracted.get(key) in (None, "", []):
            extracted[key] = value
    context["extracted"] = extracted


def _upgrade_classification(
    inquiry: Inquiry, classification: ClassificationLike, locked: set[str], changed: list[str]
) -> None:
    """A more confident A/B verdict replaces a weaker one (never an owner's correction)."""
    if (
        classification.primary in ("A", "B")
        and "classification" not in locked
        and CONFIDENCE_RANK.get(classification.confidence, 0)
        > CONFIDENCE_RANK.get(inquiry.confidence, 0)
    ):
        if inquiry.classification != classification.primary:
            inquiry.classification = classification.primary
            changed.append("classification")
        inquiry.confidence = classification.confidence
        changed.append("confidence")


def record_outbound(
    session: Session, message: Message, *, to_addrs: Sequence[str], clock: Clock
) -> Inquiry | None:
    """Our own mail (Sent Items, or from an owner address): link it and flip ``owes_reply``."""
    inquiry = find_thread_inquiry(
        session, message.in_reply_to, message.references, message.conversation_id
    )
    if inquiry is None:
        for address in to_addrs:
            inquiry = find_email_inquiry(session, address)
            if inquiry is not None:
                break
    if inquiry is None:
        return None
    mail_at(inquiry, message.received_at, outbound=True)
    add_summary(inquiry, message)
    inquiry.updated_at = naive_utc(clock.now())
    message.inquiry_id = inquiry.id
    return inquiry
