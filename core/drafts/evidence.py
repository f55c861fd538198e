"""What the fact guard checks a draft against, and the one place a draft is re-checked.

``guard_sources`` is self-contained on purpose: it reads everything it needs from the session
and the settings, so what counts as evidence (the owner's instructions, the inquiry record and
thread, the batch contact, his standing memories, his settings, the recipients he chose) can
change here without touching the capabilities that run the guard (edits, approval).
"""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.config import Settings
from core.db.models import AuditEntry, Draft
from core.drafts import composer
from core.drafts.factguard import check_facts


def phone_region(settings: Settings) -> str:
    return str(settings.get("general.phone_region") or "AU")


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


def guard_sources(session: Session, draft: Draft, settings: Settings) -> list[str]:
    """Evidence the fact guard accepts for this draft: every owner instruction in its
    revision chain, the inquiry record and thread (or the batch contact), the owner's
    settings and the recipients he chose."""
    if draft.inquiry_id is not None:
        evidence = composer.load_context(session, draft.inquiry_id, settings).evidence
    else:
        contact = batch_contact(session, draft.id) or {}
        ctx = composer.contact_context(contact, settings)
        evidence = composer.with_memories(session, ctx).evidence
    return [
        draft.instruction,
        *evidence,
        " ".join(draft.to_addrs or []),
        " ".join(draft.cc_addrs or []),
    ]


def run_guard(session: Session, draft: Draft, settings: Settings) -> None:
    """Re-check ``draft`` (its values may have changed, or its evidence since it was written)."""
    draft.unconfirmed_facts = check_facts(
        draft.body_en,
        guard_sources(session, draft, settings),
        confirmed=draft.confirmed_facts or [],
        region=phone_region(settings),
        body_zh=draft.body_zh,
    )
