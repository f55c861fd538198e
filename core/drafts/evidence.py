"""What the fact guard checks a draft against, and the one place a draft is re-checked.

``guard_sources`` is self-contained on purpose: it reads everything it needs from the session
and the settings, so what counts as evidence (the owner's instructions, the inquiry record and
thread, the batch contact, his standing memories, his settings, the recipients he chose) can
change here without touching the capabilities that run the guard (edits, approval).

Every source is a ``core.provenance.Text``: the draft's ``instruction`` is the instruction *of
record* — the owner's own words (his ``draft --instruction``, or the words of the assistant turn
that drafted it), never what the model wrote in its tool call. ``run_guard`` adds the recipient
rule (``core.drafts.recipients``) and the instruction points (``core.drafts.instruction_points``:
what he asked for that the English lacks) to the fact guard's flags: one list, one confirmation.
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.config import Settings
from core.db.models import AuditEntry, Draft
from core.drafts import reply_model
from core.drafts.factguard import check_facts
from core.drafts.instruction_points import PARROT, missing_points, parrots_customer
from core.drafts.recipients import recipient_flags
from core.provenance import Text
from core.quotes.book import quote_evidence


def phone_region(settings: Settings) -> str:
    return settings.text("general.phone_region") or "AU"


def batch_contact(session: Session, draft_id: int) -> dict[str, str] | None:
    """The CSV contact a batch draft was written for (None for a reply to an inquiry)."""
    detail = session.scalar(
        select(AuditEntry.detail)
        .where(
            AuditEntry.entity == "draft",
            AuditEntry.entity_id == draft_id,
            AuditEntry.action == "contact",
        )
        .order_by(AuditEntry.id.desc())
    )
    return dict(detail) if detail else None


def guard_sources(session: Session, draft: Draft, settings: Settings) -> list[Text]:
    """Evidence the fact guard accepts for this draft: every owner instruction in its
    revision chain, the inquiry record and thread (or the batch contact), the owner's
    settings and the recipients he chose."""
    if draft.inquiry_id is not None:
        evidence = reply_model.load_context(session, draft.inquiry_id, settings).evidence
    else:
        contact = batch_contact(session, draft.id) or {}
        ctx = reply_model.contact_context(contact, settings)
        evidence = reply_model.with_memories(session, ctx).evidence
    recipients = " ".join([*(draft.to_addrs or []), *(draft.cc_addrs or [])])
    # the recipients are checked by recipient_flags; as evidence they back no payment detail
    # a quote the draft carries: his items and what code computed from them (totals, GST,
    # deposit, valid-until) -- never a value the model proposed (``core.quotes.grounding``)
    computed = [Text.owner(t) for t in quote_evidence(session, draft.id)]
    return [Text.owner(draft.instruction), *evidence, *computed, Text.customer(recipients)]


def run_guard(session: Session, draft: Draft, settings: Settings) -> None:
    """Check ``draft`` (its values may have changed, or its evidence since it was written):
    the fact guard's flags, then the recipient rule's."""
    sources = guard_sources(session, draft, settings)
    region = phone_region(settings)
    facts = check_facts(
        draft.body_en,
        sources,
        confirmed=draft.confirmed_facts or [],
        region=region,
        body_zh=draft.body_zh,
    )
    # the other direction (#45): what he asked for must be in the English, and a reply that
    # is mostly the customer's own words is not a reply
    asked = missing_points(draft.instruction or "", draft.body_en or "", region)
    if parrots_customer(draft.body_en or "", sources):
        asked.append(PARROT)
    confirmed = set(draft.confirmed_facts or [])
    asked = [flag for flag in asked if flag not in confirmed]
    draft.unconfirmed_facts = list(
        dict.fromkeys([*facts, *asked, *recipient_flags(session, draft, settings)])
    )
