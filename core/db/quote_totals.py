"""Each inquiry's current quote: its newest version that was not superseded.

In ``core.db`` because the board's figures (``inquiries --json``, intake's read model) and the
money figures (``core.stats.money``) both read it and neither may import the other.
"""

from __future__ import annotations

from decimal import Decimal

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.models import Quote


def current_quotes(session: Session) -> dict[int, Quote]:
    """Inquiry id → its newest version that is not superseded."""
    out: dict[int, Quote] = {}
    for q in session.scalars(
        select(Quote).where(Quote.status != "superseded").order_by(Quote.version)
    ):
        out[q.inquiry_id] = q
    return out


def current_totals(session: Session) -> dict[int, Decimal]:
    """Inquiry id → its current quote's total inc GST."""
    return {i: Decimal(q.total_inc_gst) for i, q in current_quotes(session).items()}


def current_total(session: Session, inquiry_id: int) -> Decimal | None:
    """One inquiry's current quote total inc GST (the detail's figure), None without a quote."""
    total = session.scalar(
        select(Quote.total_inc_gst)
        .where(Quote.inquiry_id == inquiry_id, Quote.status != "superseded")
        .order_by(Quote.version.desc())
        .limit(1)
    )
    return Decimal(total) if total is not None else None
