"""Finding the inquiry a message belongs to: by thread, by customer email, by phone.

Read-only queries over the store, strongest evidence first (see ``core.intake.merge`` for the
order and the rules that pick one). Also the small normalisers those comparisons share.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.models import Inquiry, InquiryPhone, Message


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
    found_all = (session.get(Inquiry, i) for i in ids)
    return _latest(i for i in found_all if i is not None)


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
