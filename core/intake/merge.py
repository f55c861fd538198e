"""Which inquiry a message belongs to, and how it changes that inquiry. Deterministic, no LLM.

Principle 1 of DESIGN.md: the model classifies and extracts; *this* module decides. The order of
evidence, strongest first:

1. **Thread** — ``In-Reply-To`` / ``References`` (nearest first) or the Graph ``conversation_id``
   name a message we already filed under an inquiry (our own sent replies count: a customer who
   answers our quote is in that quote's thread).
2. **Customer email** — from the headers only (``From``, or ``Reply-To`` for website forms), never
   from model output; alternative addresses a customer used before count too.
3. **Phone** (E.164). With a model the extracted phone is validated and reliable enough alone;
   offline (regex extraction) a phone must come with the same customer name.

The R→A rule: a message that would merge but describes a *different job* — another address, or
(for a message the classifier calls A/B) products the inquiry does not have — starts a new inquiry
whose ``parent_inquiry_id`` points at the old one. A ``C`` message inside a customer's thread (a
"thanks", a photo with no text) is still part of that conversation, so it is merged for context
but never creates an inquiry.

Merging only fills what is empty (or upgrades what is clearly better) and never overwrites a field
the owner edited by hand (``audit_log`` rows ``edit_field``, see ``core.inquiry_edit``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import select
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Session

from core.board import build_search_text, phone_digit_forms
from core.clock import Clock
from core.db.models import AuditEntry, Inquiry, InquiryPhone, Message
from core.deals.stages import StageChange, record_initial_stage

CONFIDENCE_RANK = {"low": 0, "medium": 1, "high": 2}
THREAD_SUMMARY_LINES = 40
OWNER_EDITED_KEY = "owner_edited"


class ClassificationLike(Protocol):
    primary: str
    labels: list[str]
    confidence: str
    reason: str


class ExtractionLike(Protocol):
    customer_name: str | None
    customer_email: str | None
    customer_phone: str | None
    address: str | None
    suburb: str | None
    product_types: list[str]
    dimensions: list[str]
    urgency: str | None
    language: str | None


@dataclass
class Decision:
    """What to do with one understood inbound message."""

    disposition: str  # new_inquiry | merged | not_inquiry
    target: Inquiry | None = None  # inquiry merged into, or the parent of a new one
    matched_by: str | None = None  # thread | email | phone | name_phone
    reason: str = ""


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


# ------------------------------------------------------------------------------------------------
# small normalisers


def _norm(text: str | None) -> str:
    return re.sub(r"\s+", " ", (text or "").strip().lower())


_STREET_NO = re.compile(r"\b(\d+[a-z]?)\s*(?:/\s*\d+[a-z]?\s*)?([a-z][a-z'\-]+)", re.I)


def street_key(address: str | None) -> str | None:
    """``"27 Quarry Rd, Ryde NSW"`` → ``"27 quarry"``: enough to tell two job sites apart."""
    if not address:
        return None
    match = _STREET_NO.search(address)
    if not match:
        return None
    return f"{match.group(1).lower()} {match.group(2).lower()}"


def names_match(a: str | None, b: str | None) -> bool:
    """Same person: equal, or one name's words all appear in the other (``Priya`` ⊂ ``Priya Raman``
    is not enough — at least two words, or the full single-word name on both sides)."""
    wa, wb = set(_norm(a).replace(",", " ").split()), set(_norm(b).replace(",", " ").split())
    if not wa or not wb:
        return False
    if wa == wb:
        return True
    small, big = (wa, wb) if len(wa) <= len(wb) else (wb, wa)
    return len(small) >= 2 and small <= big


# ------------------------------------------------------------------------------------------------
# finding the inquiry a message belongs to


def thread_ids(in_reply_to: str | None, references: Sequence[str] | None) -> list[str]:
    """Message-IDs of the thread, nearest first (In-Reply-To, then References newest→oldest)."""
    ids: list[str] = []
    for mid in [in_reply_to, *reversed(list(references or []))]:
        if mid and mid not in ids:
            ids.append(mid)
    return ids


def find_thread_inquiry(
    session: Session,
    in_reply_to: str | None,
    references: Sequence[str] | None,
    conversation_id: str | None,
    *,
    exclude_pk: int | None = None,
) -> Inquiry | None:
    ids = thread_ids(in_reply_to, references)
    if ids:
        rows = session.execute(
            select(Message.message_id, Message.inquiry_id).where(
                Message.message_id.in_(ids), Message.inquiry_id.is_not(None)
            )
        ).all()
        by_id = {mid: iid for mid, iid in rows}
        for mid in ids:
            if mid in by_id:
                return session.get(Inquiry, by_id[mid])
    if conversation_id:
        query = select(Message.inquiry_id).where(
            Message.conversation_id == conversation_id, Message.inquiry_id.is_not(None)
        )
        if exclude_pk is not None:
            query = query.where(Message.id != exclude_pk)
        iid = session.scalars(query.order_by(Message.received_at.desc()).limit(1)).first()
        if iid is not None:
            return session.get(Inquiry, iid)
    return None


def _latest(inquiries: Iterable[Inquiry]) -> Inquiry | None:
    items = list(inquiries)
    if not items:
        return None
    return max(items, key=lambda i: (i.last_contact_at or i.created_at, i.id))


def find_email_inquiry(session: Session, email: str | None) -> Inquiry | None:
    """The customer's most recently active inquiry, by their address (or one they used before)."""
    if not email:
        return None
    email = email.lower()
    found = _latest(session.scalars(select(Inquiry).where(Inquiry.customer_email == email)))
    if found is not None:
        return found
    ids = session.scalars(
        select(Message.inquiry_id)
        .where(
            Message.direction == "in",
            Message.inquiry_id.is_not(None),
            Message.from_addr == email,
        )
        .distinct()
    ).all()
    return _latest(session.get(Inquiry, i) for i in ids)


def is_known_customer(session: Session, email: str | None) -> bool:
    """Cheap existence test (prefilter: a known customer is never skipped as bulk)."""
    if not email:
        return False
    email = email.lower()
    if session.scalar(select(Inquiry.id).where(Inquiry.customer_email == email).limit(1)):
        return True
    return bool(
        session.scalar(
            select(Message.id)
            .where(
                Message.from_addr == email,
                Message.direction == "in",
                Message.inquiry_id.is_not(None),
            )
            .limit(1)
        )
    )


def known_customers(session: Session, emails: Iterable[str | None]) -> set[str]:
    """``is_known_customer`` for a whole admission chunk: two ``IN`` queries instead of two per
    message (the writer thread's CPU is what the model calls of the next messages wait behind)."""
    wanted = {e.lower() for e in emails if e}
    if not wanted:
        return set()
    known = set(
        session.scalars(select(Inquiry.customer_email).where(Inquiry.customer_email.in_(wanted)))
    )
    rest = wanted - known
    if rest:
        known.update(
            session.scalars(
                select(Message.from_addr)
                .where(
                    Message.from_addr.in_(rest),
                    Message.direction == "in",
                    Message.inquiry_id.is_not(None),
                )
                .distinct()
            )
        )
    return {e for e in known if e}


def find_phone_inquiry(
    session: Session, phone: str | None, name: str | None, *, require_name: bool
) -> tuple[Inquiry | None, str | None]:
    if not phone:
        return None, None
    candidates = list(session.scalars(select(Inquiry).where(Inquiry.customer_phone == phone)))
    if not candidates:  # a second number the customer gave earlier
        known = select(InquiryPhone.inquiry_id).where(InquiryPhone.phone == phone)
        candidates = list(session.scalars(select(Inquiry).where(Inquiry.id.in_(known))))
    if require_name:
        candidates = [i for i in candidates if names_match(i.customer_name, name)]
        return _latest(candidates), "name_phone"
    return _latest(candidates), "phone"


def is_new_project(
    inquiry: Inquiry, primary: str, extraction: ExtractionLike | None
) -> tuple[bool, str]:
    """The R→A rule: does this message describe a different job than ``inquiry``?

    A different address is decisive whatever the classifier said (same customer, other house).
    New products alone only count when the classifier also saw a new request (A/B): an R that
    mentions "the flyscreen too" is the same job growing.
    """
    if extraction is None:
        return False, ""
    suburb_new, suburb_old = _norm(extraction.suburb), _norm(inquiry.suburb)
    if suburb_new and suburb_old and suburb_new != suburb_old:
        return True, f"new address: {extraction.suburb} (was {inquiry.suburb})"
    key_new, key_old = street_key(extraction.address), street_key(inquiry.address)
    if key_new and key_old and key_new != key_old:
        return True, f"new address: {extraction.address} (was {inquiry.address})"
    if primary in ("A", "B"):
        extra = [p for p in extraction.product_types if p not in (inquiry.product_types or [])]
        if extra and inquiry.product_types:
            return True, f"new products: {', '.join(extra)}"
    return False, ""


def decide(
    session: Session,
    message: Message,
    classification: ClassificationLike,
    extraction: ExtractionLike | None,
    *,
    customer_email: str | None,
    offline: bool,
) -> Decision:
    """Pick the disposition and the inquiry for an understood inbound message."""
    with session.no_autoflush:  # the caller flushed earlier messages; this one is irrelevant
        return _decide(session, message, classification, extraction, customer_email, offline)


def _decide(
    session: Session,
    message: Message,
    classification: ClassificationLike,
    extraction: ExtractionLike | None,
    customer_email: str | None,
    offline: bool,
) -> Decision:
    primary = classification.primary
    thread = find_thread_inquiry(
        session,
        message.in_reply_to,
        message.references,
        message.conversation_id,
        exclude_pk=message.id,
    )
    if primary == "C":
        if thread is not None:
            return Decision("merged", thread, "thread", "not an inquiry, but in the thread")
        by_email = find_email_inquiry(session, customer_email)
        if by_email is not None:
            return Decision("merged", by_email, "email", "not an inquiry, from a known customer")
        return Decision("not_inquiry", reason=classification.reason)

    target, matched_by = thread, "thread" if thread is not None else None
    if target is None:
        target = find_email_inquiry(session, customer_email)
        matched_by = "email" if target is not None else None
    if target is None and extraction is not None:
        name = extraction.customer_name or message.from_name
        target, matched_by = find_phone_inquiry(
            session, extraction.customer_phone, name, require_name=offline
        )
        if target is None:
            matched_by = None
    if target is None:
        return Decision("new_inquiry", reason="no earlier inquiry matches")
    new, why = is_new_project(target, primary, extraction)
    if new:
        return Decision("new_inquiry", target, matched_by, why)
    return Decision("merged", target, matched_by, f"same job (by {matched_by})")


# ------------------------------------------------------------------------------------------------
# applying a decision


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


def _append_unique(items: list[Any] | None, new: Iterable[Any]) -> list[Any]:
    out = list(items or [])
    for item in new:
        if item and item not in out:
            out.append(item)
    return out


def index_phones(session: Session, inquiry_id: int, phones: Iterable[str]) -> None:
    """Record numbers in ``inquiry_phones`` so a later message quoting one finds this inquiry."""
    rows = [{"phone": p, "inquiry_id": inquiry_id} for p in dict.fromkeys(phones) if p]
    if rows:
        session.execute(sqlite_insert(InquiryPhone).values(rows).on_conflict_do_nothing())


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


def _extraction_dict(extraction: ExtractionLike | None) -> dict[str, Any]:
    if extraction is None:
        return {}
    keys = (
        "customer_name",
        "customer_email",
        "customer_phone",
        "address",
        "suburb",
        "product_types",
        "dimensions",
        "urgency",
        "language",
        "dates",
        "budget",
        "grounding",  # drops, model-made fields: what the accuracy report counts
    )
    return {k: getattr(extraction, k, None) for k in keys}


def _mark_inbound(inquiry: Inquiry, message: Message) -> None:
    at = message.received_at
    if inquiry.last_inbound_at is None or at >= inquiry.last_inbound_at:
        inquiry.last_inbound_at = at
    if inquiry.last_contact_at is None or at >= inquiry.last_contact_at:
        inquiry.last_contact_at = at
    if inquiry.last_outbound_at is None or at >= inquiry.last_outbound_at:
        inquiry.owes_reply = "us"


def create_inquiry(
    session: Session,
    message: Message,
    classification: ClassificationLike,
    extraction: ExtractionLike | None,
    *,
    customer_email: str | None,
    parent: Inquiry | None,
    reason: str,
    clock: Clock,
    region: str,
    language_hint: str | None,
) -> Applied:
    """A new inquiry at stage ``inquiry``, with its first audit entry (triggered_by pipeline)."""
    now = clock.now().replace(tzinfo=None)
    primary = classification.primary
    ext = extraction
    if primary not in ("A", "B"):  # an R with nothing to attach to, or R→A without a verdict
        primary = "A" if ext is not None and (ext.address or ext.suburb) else "B"
    name = (ext.customer_name if ext else None) or (
        message.from_name if customer_email == (message.from_addr or "").lower() else None
    )
    inquiry = Inquiry(
        classification=primary,
        confidence=classification.confidence
        if classification.confidence in CONFIDENCE_RANK
        else "low",
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
        parent_inquiry_id=parent.id if parent is not None else None,
        context_data={
            "emails": [customer_email] if customer_email else [],
            "phones": [ext.customer_phone] if ext and ext.customer_phone else [],
            "notes": [],
            "extracted": _extraction_dict(ext),
        },
        search_text="",
        created_at=now,
        updated_at=now,
    )
    if parent is not None:
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
    extraction: ExtractionLike | None,
    *,
    customer_email: str | None,
    clock: Clock,
    region: str,
) -> Applied:
    """Attach ``message`` to ``inquiry``: fill empty fields, append products, move the clock."""
    now = clock.now().replace(tzinfo=None)
    locked = owner_edited_fields(session, inquiry)
    changed: list[str] = []

    def fill(name: str, value: Any) -> None:
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
        for key, value in _extraction_dict(ext).items():
            if value not in (None, "", []) and extracted.get(key) in (None, "", []):
                extracted[key] = value
        context["extracted"] = extracted
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
    at = message.received_at
    if inquiry.last_outbound_at is None or at >= inquiry.last_outbound_at:
        inquiry.last_outbound_at = at
    if inquiry.last_contact_at is None or at >= inquiry.last_contact_at:
        inquiry.last_contact_at = at
    if inquiry.last_inbound_at is None or at >= inquiry.last_inbound_at:
        inquiry.owes_reply = "customer"
    add_summary(inquiry, message)
    inquiry.updated_at = clock.now().replace(tzinfo=None)
    message.inquiry_id = inquiry.id
    return inquiry
