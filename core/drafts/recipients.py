"""People choose recipients: who a draft may go to, and whose contact details it may carry.

Why: a model that reads a stranger's mail can be talked into writing "reply to
accounts@evil.example" or into pasting every customer's phone into one email. Python picks a
draft's recipient (``core.drafts.draft_composer``), and this module checks the result against the
addresses a *person* gave:

- the addresses the customer wrote from (``From`` / ``Reply-To`` of his mail in the thread), the
  inquiry's email (intake keeps one only when it is in his mail: grounding), and the ones we
  already wrote to (the owner approved those sends);
- what the owner typed: the inquiry's email he edited, recipients he edited on this draft (or on
  the draft it revises), the contact of a CSV file he picked;
- his settings: the factory address, his own addresses.

Anything else in To/Cc is flagged; so is a reply to an inquiry whose recipient is not that
inquiry's customer (the factory excepted: a forward goes there by design), and any email address
or phone number in the body that belongs to *another* customer on the board. Flags are the
values as written (an address, a phone) and join the draft's ``unconfirmed_facts``, so the approval window, ``approve`` and Telegram's 发送 ask for
the same explicit confirmation as an unconfirmed price. A flag the owner accepted (it is in
``confirmed_facts``) is not raised again.
"""

from __future__ import annotations

import phonenumbers
from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from core.config import Settings
from core.db.models import AuditEntry, Draft, Inquiry, Message
from core.text.facts import extract_facts

__all__ = ["people_addresses", "recipient_flags"]

MODEL_ACTORS = frozenset({"pipeline", "agent"})


def _lower(values: list[str | None]) -> set[str]:
    return {v.strip().lower() for v in values if v and v.strip()}


def _settings_addresses(settings: Settings) -> set[str]:
    factory = settings.text("drafts.factory_address")
    return _lower([factory, *settings.strings("general.owner_addresses")])


def _edited(session: Session, draft: Draft) -> set[str]:
    """Recipients the owner typed on this draft or on the drafts it revises."""
    ids: list[int] = []
    seen: set[int] = set()
    current: Draft | None = draft
    while current is not None and current.id not in seen:
        seen.add(current.id)
        ids.append(current.id)
        current = session.get(Draft, current.revision_of) if current.revision_of else None
    out: set[str] = set()
    rows = session.scalars(
        select(AuditEntry).where(
            AuditEntry.entity == "draft",
            AuditEntry.entity_id.in_(ids),
            AuditEntry.action.in_(("edit", "contact")),
            AuditEntry.actor.not_in(MODEL_ACTORS),
        )
    )
    for row in rows:
        detail = row.detail or {}
        out |= _lower([*(detail.get("to") or []), *(detail.get("cc") or [])])
    return out


def _contact_email(session: Session, draft: Draft) -> str | None:
    """The email of the CSV row a batch draft was written for (the owner picked the file)."""
    detail = session.scalar(
        select(AuditEntry.detail)
        .where(
            AuditEntry.entity == "draft",
            AuditEntry.entity_id == draft.id,
            AuditEntry.action == "contact",
        )
        .order_by(AuditEntry.id.desc())
    )
    return str(detail.get("email") or "").lower() or None if detail else None


def people_addresses(session: Session, draft: Draft, settings: Settings) -> set[str]:
    """Every address a person chose that this draft may go to."""
    chosen = _settings_addresses(settings) | _edited(session, draft)
    contact = _contact_email(session, draft)
    if contact:
        chosen.add(contact)
    if draft.inquiry_id is None:
        return chosen
    inquiry = session.get(Inquiry, draft.inquiry_id)
    if inquiry is not None:  # intake keeps an email only when it is in the customer's mail
        chosen |= _lower([inquiry.customer_email])
    for m in session.scalars(select(Message).where(Message.inquiry_id == draft.inquiry_id)):
        if m.direction == "in":
            chosen |= _lower([m.from_addr, m.reply_to])
        else:
            chosen |= _lower(list(m.to_addrs or []))
    edits = session.scalars(
        select(AuditEntry.detail).where(
            AuditEntry.entity == "inquiry",
            AuditEntry.entity_id == draft.inquiry_id,
            AuditEntry.action == "edit_field",
            AuditEntry.actor.not_in(MODEL_ACTORS),
        )
    )
    for detail in edits:
        if (detail or {}).get("field") == "customer_email":
            chosen |= _lower([str((detail or {}).get("new") or "")])
    return chosen


def _customer_addresses(session: Session, draft: Draft) -> set[str]:
    inquiry = session.get(Inquiry, draft.inquiry_id) if draft.inquiry_id else None
    if inquiry is None:
        return set()
    found = _lower([inquiry.customer_email])
    for m in session.scalars(
        select(Message).where(Message.inquiry_id == inquiry.id, Message.direction == "in")
    ):
        found |= _lower([m.from_addr, m.reply_to])
    return found


def _e164(text: str, region: str) -> str | None:
    try:
        number = phonenumbers.parse(text, region)
    except phonenumbers.NumberParseException:
        return None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)


def _other_customers(session: Session, draft: Draft, own: set[str], region: str) -> list[str]:
    """Emails and phones in the body that belong to another customer on the board."""
    facts = [f for f in extract_facts(draft.body_en or "", region) if f.kind in {"email", "phone"}]
    if not facts:
        return []
    emails = {f.text.lower(): f.text for f in facts if f.kind == "email"}
    phones = {p: f.text for f in facts if f.kind == "phone" and (p := _e164(f.text, region))}
    query = select(Inquiry.id, Inquiry.customer_email, Inquiry.customer_phone).where(
        or_(func.lower(Inquiry.customer_email).in_(emails), Inquiry.customer_phone.in_(phones))
    )
    if draft.inquiry_id is not None:
        query = query.where(Inquiry.id != draft.inquiry_id)
    out: list[str] = []
    for _id, email, phone in session.execute(query):
        if email and email.lower() in emails and email.lower() not in own:
            out.append(emails[email.lower()])
        if phone and phone in phones:
            out.append(phones[phone])
    return out


def recipient_flags(session: Session, draft: Draft, settings: Settings) -> list[str]:
    """What the owner must confirm about who gets this draft and whose details it carries."""
    region = settings.text("general.phone_region") or "AU"
    chosen = people_addresses(session, draft, settings)
    customer = _customer_addresses(session, draft)
    factory = _settings_addresses(settings)
    flags: list[str] = []
    for address in [*(draft.to_addrs or []), *(draft.cc_addrs or [])]:
        low = address.strip().lower()
        if low not in chosen or (customer and low not in customer and low not in factory):
            flags.append(address)  # the window's recipient banner says why, in his language
    own = customer | {a.lower() for a in draft.to_addrs or []}
    flags += _other_customers(session, draft, own, region)
    confirmed = set(draft.confirmed_facts or [])
    return [f for f in dict.fromkeys(flags) if f not in confirmed]
