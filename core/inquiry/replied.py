"""A reply we sent, on the board at once: who owes the next email and when we last wrote.

The Sent folder's copy is read by the next mail round (``core.intake.inquiry_writes.
record_outbound`` applies the same rule then); without this the board would say 待我们回复 for
minutes after he pressed 发送. Called in the transaction that marks the draft ``sent``.
"""

from __future__ import annotations

from datetime import datetime

from core.db.models import Inquiry
from core.events import InquiryUpdated


def reply_sent(inquiry: Inquiry, at: datetime) -> InquiryUpdated:
    """Our reply went out at ``at`` (naive UTC): the customer owes the next email unless he
    wrote after it; last contact and last outbound move forward, never back."""
    if inquiry.last_outbound_at is None or at >= inquiry.last_outbound_at:
        inquiry.last_outbound_at = at
    if inquiry.last_contact_at is None or at >= inquiry.last_contact_at:
        inquiry.last_contact_at = at
    if inquiry.last_inbound_at is None or at >= inquiry.last_inbound_at:
        inquiry.owes_reply = "customer"
    inquiry.updated_at = at
    return InquiryUpdated(inquiry.id, ("owes_reply", "last_outbound_at", "last_contact_at"))
