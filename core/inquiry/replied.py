"""Who owes the next email, and when each side last wrote: the one rule, for both directions.

A reply we sent goes on the board at once (``reply_sent``, in the transaction that marks the
draft ``sent``); the Sent folder's copy is read by the next mail round
(``core.intake.inquiry_writes.record_outbound``) and a customer's mail by intake, each through
``mail_at``; without the first the board would say 待我们回复 for minutes after he pressed 发送.
"""

from __future__ import annotations

from datetime import datetime

from core.db.models import Inquiry
from core.events import InquiryUpdated


def reply_sent(inquiry: Inquiry, at: datetime) -> InquiryUpdated:
    """Our reply went out at ``at`` (naive UTC): the customer owes the next email unless he
    wrote after it; last contact and last outbound move forward, never back."""
    mail_at(inquiry, at, outbound=True)
    inquiry.updated_at = at
    return InquiryUpdated(inquiry.id, ("owes_reply", "last_outbound_at", "last_contact_at"))


def mail_at(inquiry: Inquiry, at: datetime, *, outbound: bool) -> None:
    """A mail at ``at`` (naive UTC), ours (``outbound``) or the customer's: that side's last
    mail and the last contact move forward, never back, and the other side owes the next email
    unless it wrote later."""
    if outbound:
        inquiry.last_outbound_at = _later(inquiry.last_outbound_at, at)
        if inquiry.last_inbound_at is None or at >= inquiry.last_inbound_at:
            inquiry.owes_reply = "customer"
    else:
        inquiry.last_inbound_at = _later(inquiry.last_inbound_at, at)
        if inquiry.last_outbound_at is None or at >= inquiry.last_outbound_at:
            inquiry.owes_reply = "us"
    inquiry.last_contact_at = _later(inquiry.last_contact_at, at)


def _later(known: datetime | None, at: datetime) -> datetime:
    return at if known is None or at >= known else known
