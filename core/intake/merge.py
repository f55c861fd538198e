"""Which inquiry a message belongs to, and how it changes that inquiry. Deterministic, no LLM.

Principle 1 of docs/contracts.md: the model classifies and extracts; *this* module decides. The order of
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
the owner edited by hand (``audit_log`` rows ``edit_field``, see ``core.inquiry.edit``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from core.clock import Clock
from core.db.models import Inquiry, Message
from core.events import (
    Event,
    InquiryCreated,
    InquiryUpdated,
    MessageMerged,
    MessageRecorded,
    NeedsAttention,
)
from core.intake.escalation import AFTER_SALE, escalation_in
from core.intake.inquiry_writes import (
    CONFIDENCE_RANK,
    OWNER_EDITED_KEY,
    THREAD_SUMMARY_LINES,
    Applied,
    ClassificationLike,
    add_summary,
    create_inquiry,
    extraction_dict,
    index_phones,
    merge_into,
    owner_edited_fields,
    record_outbound,
    refresh_search,
    summary_line,
)
from core.intake.matching import (
    _norm,
    find_email_inquiry,
    find_phone_inquiry,
    find_thread_inquiry,
    is_known_customer,
    known_customers,
    names_match,
    street_key,
    thread_ids,
)

if TYPE_CHECKING:
    from core.intake.escalation_opinion import Opinion
    from core.intake.extract import Extraction

OUTGOING = "skipped:outgoing"
Outcome = tuple[str, list[Event], int | None]


@dataclass
class Decision:
    """What to do with one understood inbound message."""

    disposition: str  # new_inquiry | merged | not_inquiry
    target: Inquiry | None = None  # inquiry merged into, or the parent of a new one
    matched_by: str | None = None  # thread | email | phone | name_phone
    reason: str = ""


def is_new_project(
    inquiry: Inquiry, primary: str, extraction: Extraction | None
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


@dataclass(frozen=True)
class Understood:
    """An inbound message as the pipeline understood it: what merge decides on and writes."""

    message: Message
    classification: ClassificationLike
    extraction: Extraction | None
    customer_email: str | None


def decide(session: Session, seen: Understood, *, offline: bool) -> Decision:
    """Pick the disposition and the inquiry for an understood inbound message."""
    message, classification, extraction = seen.message, seen.classification, seen.extraction
    customer_email = seen.customer_email
    with session.no_autoflush:  # the caller flushed earlier messages; this one is irrelevant
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
                return Decision(
                    "merged", by_email, "email", "not an inquiry, from a known customer"
                )
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
# decision → disposition and events


def apply_understood(
    session: Session,
    seen: Understood,
    *,
    offline: bool,
    clock: Clock,
    region: str,
    language_hint: str | None,
    opinion: Opinion | None = None,
) -> Outcome:
    """Decide, write the decision, and name the events it makes (published after the commit).
    ``opinion``: the model's verified view on a complaint (``escalation_opinion.Opinion``)."""
    decision = decide(session, seen, offline=offline)
    message, classification, extraction = seen.message, seen.classification, seen.extraction
    customer_email = seen.customer_email
    pk = message.id
    if decision.disposition == "new_inquiry":
        applied = create_inquiry(
            session,
            message,
            classification,
            extraction,
            customer_email=customer_email,
            parent=decision.target,
            reason=decision.reason,
            clock=clock,
            region=region,
            language_hint=language_hint,
        )
        created = _created_events(pk, applied, classification)
        created += _escalated(message, applied.inquiry_id, after_sale=False, opinion=opinion)
        return applied.disposition, created, applied.inquiry_id
    if decision.disposition == "merged" and decision.target is not None:
        target = decision.target
        applied = merge_into(
            session,
            target,
            message,
            classification,
            extraction,
            customer_email=customer_email,
            clock=clock,
            region=region,
        )
        events: list[Event] = [
            MessageRecorded(pk, "merged"),
            MessageMerged(target.id, pk),
            InquiryUpdated(target.id, applied.changed_fields),
        ]
        if decision.matched_by == "phone":  # no thread, no e-mail: the rules were not sure
            detail = f"message {pk} merged into #{target.id} on the phone number alone"
            events.append(NeedsAttention("merge_unsure", "message", pk, detail))
        after_sale = target.stage in AFTER_SALE
        events += _escalated(message, target.id, after_sale=after_sale, opinion=opinion)
        return applied.disposition, events, None
    return "not_inquiry", [MessageRecorded(pk, "not_inquiry")], None


def _escalated(
    message: Message, inquiry_id: int | None, *, after_sale: bool, opinion: Opinion | None = None
) -> list[Event]:
    """需要您确认 for a complaint, refund, legal or angry message: the phrase rules first
    (core.intake.escalation), then the model's verified opinion (core.intake.escalation_opinion),
    which can add a flag the rules missed but never clear one they raised."""
    if inquiry_id is None:
        return []
    found = escalation_in(message.body_text, after_sale=after_sale)
    says = opinion is not None and opinion.escalate and (opinion.reason != "defect" or after_sale)
    parts = [found.detail()] if found is not None else []
    if says and opinion is not None:  # says: an opinion
        parts.append(opinion.detail())
    elif found is not None and opinion is not None and not opinion.escalate:
        parts.append("AI 复核认为未必是投诉")
    if not parts:
        return []
    return [NeedsAttention("complaint", "inquiry", inquiry_id, "；".join(parts))]


def _created_events(pk: int, applied: Applied, classification: ClassificationLike) -> list[Event]:
    events: list[Event] = [
        MessageRecorded(pk, "new_inquiry"),
        InquiryCreated(applied.inquiry_id or 0, pk),
    ]
    if applied.stage_change is not None:
        events.append(applied.stage_change.event())
    # the rules' confidence is "low" by construction: flagging each such inquiry would put every
    # row of a folder without a model under 需要您确认, and hide the model's real doubts
    if applied.low_confidence and getattr(classification, "source", "rules") != "rules":
        events.append(
            NeedsAttention("low_confidence", "inquiry", applied.inquiry_id, classification.reason)
        )
    return events


def apply_outbound(
    session: Session, message: Message, *, to_addrs: list[str], clock: Clock
) -> Outcome:
    """Our own mail: linked to its inquiry (``owes_reply`` flips to the customer)."""
    message.direction = "out"
    inquiry = record_outbound(session, message, to_addrs=to_addrs, clock=clock)
    message.disposition = OUTGOING
    events: list[Event] = [MessageRecorded(message.id, OUTGOING)]
    if inquiry is not None:
        events.append(
            InquiryUpdated(inquiry.id, ("last_outbound_at", "owes_reply", "last_contact_at"))
        )
    return OUTGOING, events, None


__all__ = [
    "CONFIDENCE_RANK",
    "OWNER_EDITED_KEY",
    "THREAD_SUMMARY_LINES",
    "Applied",
    "ClassificationLike",
    "Decision",
    "Understood",
    "add_summary",
    "apply_outbound",
    "apply_understood",
    "create_inquiry",
    "decide",
    "extraction_dict",
    "find_email_inquiry",
    "find_phone_inquiry",
    "find_thread_inquiry",
    "index_phones",
    "is_known_customer",
    "is_new_project",
    "known_customers",
    "merge_into",
    "names_match",
    "owner_edited_fields",
    "record_outbound",
    "refresh_search",
    "street_key",
    "summary_line",
    "thread_ids",
]
