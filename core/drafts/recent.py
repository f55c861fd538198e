"""Has this customer been mailed recently? (the 14-day warning and the batch skip rule)

The evidence is what Outlook says went out: Message rows from Sent Items (direction ``out``), plus
drafts this app sent that the Sent Items sync has not brought back yet. Both are deduplicated on
the Internet Message-ID so one email never counts twice.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from sqlalchemy import ColumnElement, String, cast, func, or_, select
from sqlalchemy.orm import Session

from core.clock import utc
from core.db.models import Draft, Inquiry, Message


@dataclass(frozen=True)
class RecentContact:
    at: datetime  # aware UTC
    subject: str
    to: tuple[str, ...]
    source: str  # "sent_items" | "app"
    draft_id: int | None = None  # the app's draft this email was, when known (not a warning
    # about itself: the approval window of that draft leaves it out)


def _emails_of_inquiry(session: Session, inquiry_id: int) -> set[str]:
    inquiry = session.get(Inquiry, inquiry_id)
    if inquiry is None:
        return set()
    emails = {inquiry.customer_email.lower()} if inquiry.customer_email else set()
    rows = session.execute(
        select(Message.from_addr, Message.reply_to).where(
            Message.inquiry_id == inquiry_id, Message.direction == "in"
        )
    ).all()
    for from_addr, reply_to in rows:
        emails |= {a.lower() for a in (from_addr, reply_to) if a}
    return emails


def recent_contact(
    session: Session,
    target: int | str,
    *,
    now: datetime,
    days: int = 14,
) -> list[RecentContact]:
    """Emails that went to ``target`` (an inquiry id or an address) in the last ``days`` days,
    newest first."""
    since = (utc(now) - timedelta(days=days)).replace(tzinfo=None)
    if isinstance(target, int):
        emails = _emails_of_inquiry(session, target)
        inquiry_id: int | None = target
    else:
        emails = {target.strip().lower()} if target and target.strip() else set()
        inquiry_id = None
    if not emails and inquiry_id is None:
        return []
    found: dict[str, RecentContact] = {}

    conditions: list[ColumnElement[bool]] = [
        func.lower(cast(Message.to_addrs, String)).like(f'%"{e}"%') for e in emails
    ]
    if inquiry_id is not None:
        conditions.append(Message.inquiry_id == inquiry_id)
    rows = session.scalars(
        select(Message).where(
            or_(Message.direction == "out", Message.folder == "sent"),
            Message.received_at >= since,
            Message.removed_at.is_(None),
            or_(*conditions),
        )
    )
    for m in rows:
        to = tuple(a.lower() for a in (m.to_addrs or []))
        if inquiry_id is None and not (set(to) & emails):
            continue  # LIKE matched a longer address containing this one
        found[m.message_id or f"m{m.id}"] = RecentContact(
            utc(m.received_at), m.subject, to, "sent_items"
        )

    draft_conditions: list[ColumnElement[bool]] = [
        func.lower(cast(Draft.to_addrs, String)).like(f'%"{e}"%') for e in emails
    ]
    if inquiry_id is not None:
        draft_conditions.append(Draft.inquiry_id == inquiry_id)
    drafts = session.scalars(
        select(Draft).where(Draft.status == "sent", Draft.sent_at >= since, or_(*draft_conditions))
    )
    for d in drafts:
        key = d.internet_message_id or f"d{d.id}"
        to = tuple(a.lower() for a in (d.to_addrs or []))
        if inquiry_id is None and not (set(to) & emails):
            continue
        if key in found:
            found[key] = replace(found[key], draft_id=d.id)
        elif d.sent_at is not None:
            found[key] = RecentContact(utc(d.sent_at), d.subject, to, "app", d.id)
    return sorted(found.values(), key=lambda r: r.at, reverse=True)
