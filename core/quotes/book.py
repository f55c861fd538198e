"""The quote book: versions of a quote on an inquiry and the moves between their states.

    draft ─▶ sent ─▶ accepted
      │        └──▶ declined
      └──▶ superseded        (a newer version was made before this one went out)
    (sent or draft past ``valid_until`` reads as ``expired``)

Every function takes the caller's session and runs inside its transaction, so a quote and the
stage change it causes commit together (``quote_sent`` runs in the very transaction that marks
the reply draft ``sent``). They return the ``StageChange`` to publish after the commit.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.clock import Clock, naive_utc, to_sydney
from core.db.models import Inquiry, Quote
from core.errors import NotFound, QuoteStateError
from core.inquiry.stages import StageChange, change_stage
from core.quotes.items import LineItem, from_stored
from core.quotes.money import totals

# Stages a sent quote moves forward to follow_up; a job already ordered or later stays put.
BEFORE_FOLLOW_UP = ("inquiry", "measure", "quoting")
NO_QUOTE_STAGES = ("lost", "done")


@dataclass(frozen=True)
class QuoteTerms:
    """What a new version takes from the settings and his knowledge base."""

    deposit_percent: int
    valid_days: int
    terms: str = ""


def quote_number(inquiry_id: int) -> str:
    """One number per inquiry (the customer's reference); versions count under it."""
    return f"Q-{inquiry_id:04d}"


def new_version(
    session: Session,
    inquiry_id: int,
    items: list[LineItem],
    terms: QuoteTerms,
    *,
    clock: Clock,
    instruction: str = "",
    unconfirmed: list[str] | None = None,
    actor: str = "owner",
) -> Quote:
    """Store the next version; older versions not yet sent become ``superseded``."""
    inquiry = session.get(Inquiry, inquiry_id)
    if inquiry is None:
        raise NotFound(f"询盘 #{inquiry_id} / inquiry #{inquiry_id}")
    if inquiry.stage in NO_QUOTE_STAGES:
        stage = "已流失" if inquiry.stage == "lost" else "已完成"
        raise QuoteStateError(
            f"询盘 #{inquiry_id} {stage}，不能再报价 / inquiry {inquiry_id} is {inquiry.stage}"
        )
    now = clock.now()
    money = totals([i.money for i in items], terms.deposit_percent)
    last = session.scalar(select(func.max(Quote.version)).where(Quote.inquiry_id == inquiry_id))
    for older in session.scalars(
        select(Quote).where(Quote.inquiry_id == inquiry_id, Quote.status == "draft")
    ):
        older.status = "superseded"
    quote = Quote(
        inquiry_id=inquiry_id,
        number=quote_number(inquiry_id),
        version=(last or 0) + 1,
        status="draft",
        items=[i.stored() for i in items],
        subtotal_ex_gst=str(money.subtotal_ex_gst),
        gst=str(money.gst),
        total_inc_gst=str(money.total_inc_gst),
        deposit_percent=terms.deposit_percent,
        deposit_inc_gst=str(money.deposit_inc_gst),
        valid_until=(to_sydney(now).date() + timedelta(days=terms.valid_days)).isoformat(),
        terms=terms.terms,
        instruction=instruction,
        unconfirmed_facts=list(unconfirmed or []),
        created_by=actor,
        created_at=naive_utc(now),
    )
    session.add(quote)
    session.flush()
    return quote


def get_quote(session: Session, quote_id: int) -> Quote:
    quote = session.get(Quote, quote_id)
    if quote is None:
        raise NotFound(f"报价 #{quote_id} / quote {quote_id}")
    return quote


def quote_sent(session: Session, draft_id: int, clock: Clock) -> StageChange | None:
    """The reply carrying a quote went out: the quote is ``sent`` and the inquiry moves to
    ``follow_up`` (by the pipeline). Nothing for a draft that carries no quote."""
    quote = session.scalar(select(Quote).where(Quote.draft_id == draft_id))
    if quote is None or quote.status != "draft":
        return None
    quote.status = "sent"
    quote.sent_at = naive_utc(clock.now())
    inquiry = session.get(Inquiry, quote.inquiry_id)
    if inquiry is None or inquiry.stage not in BEFORE_FOLLOW_UP:
        return None
    return change_stage(
        session,
        inquiry,
        "follow_up",
        reason=f"报价 {quote.number} 第 {quote.version} 版已发送",
        triggered_by="pipeline",
        clock=clock,
    )


def accept(session: Session, quote_id: int, clock: Clock) -> StageChange | None:
    """The owner records the customer's acceptance: the quote is ``accepted`` and the inquiry
    moves to ``ordered`` (deposit due). A superseded, declined or expired version is refused."""
    quote = get_quote(session, quote_id)
    status = shown_status(quote, to_sydney(clock.now()).date())
    if status == "accepted":
        raise QuoteStateError(
            f"报价 #{quote_id} 已经是已接受 / quote {quote_id} is already accepted"
        )
    if status in ("superseded", "declined", "expired"):
        zh = {"superseded": "已被新版本取代", "declined": "已被拒绝", "expired": "已过期"}[status]
        raise QuoteStateError(
            f"报价 #{quote_id}（{quote.number} 第 {quote.version} 版）{zh}，不能接受"
            f" / quote {quote_id} is {status}"
        )
    quote.status = "accepted"
    quote.accepted_at = naive_utc(clock.now())
    inquiry = session.get(Inquiry, quote.inquiry_id)
    if inquiry is None:
        return None
    return change_stage(
        session,
        inquiry,
        "ordered",
        reason=f"客户接受了报价 {quote.number} 第 {quote.version} 版，定金 ${quote.deposit_inc_gst}",
        triggered_by="owner",
        clock=clock,
    )


def shown_status(quote: Quote, today: date) -> str:
    """The status as the owner reads it: a draft or sent quote past its date is ``expired``."""
    if quote.status in ("draft", "sent") and quote.valid_until < today.isoformat():
        return "expired"
    return quote.status


def quote_json(quote: Quote, today: date, *, confirmed: list[str] | None = None) -> dict[str, Any]:
    """The ``quotes --json`` contract for one quote. ``confirmed``: values the owner confirmed
    on the reply draft since (no longer unconfirmed)."""
    ok = set(confirmed or [])
    return {
        "id": quote.id,
        "inquiry_id": quote.inquiry_id,
        "number": quote.number,
        "version": quote.version,
        "status": shown_status(quote, today),
        "items": [i.as_json() for i in from_stored(quote.items)],
        "subtotal_ex_gst": float(Decimal(quote.subtotal_ex_gst)),
        "gst": float(Decimal(quote.gst)),
        "total_inc_gst": float(Decimal(quote.total_inc_gst)),
        "deposit_percent": quote.deposit_percent,
        "deposit_inc_gst": float(Decimal(quote.deposit_inc_gst)),
        "valid_until": quote.valid_until,
        "draft_id": quote.draft_id,
        "unconfirmed_facts": [f for f in quote.unconfirmed_facts or [] if f not in ok],
    }


def quote_evidence(session: Session, draft_id: int) -> list[str]:
    """What backs the values of the reply carrying a quote: the totals, GST, deposit and date
    code computed, and -- when he gave the items himself (``--items-json``, the editor) -- the
    items. Items a model proposed from his words are not here: they must be backed by his
    words or his price list like any number in a draft."""
    quote = session.scalar(select(Quote).where(Quote.draft_id == draft_id))
    if quote is None:
        return []
    from core.quotes.money import aud

    computed = (
        f"{aud(Decimal(quote.subtotal_ex_gst))} {aud(Decimal(quote.gst))} "
        f"{aud(Decimal(quote.total_inc_gst))} {quote.deposit_percent}% "
        f"{aud(Decimal(quote.deposit_inc_gst))} {quote.valid_until}"
    )
    out = [computed]
    if not quote.instruction:  # his own items
        out += [
            f"{i.description} {i.width_mm}mm {i.height_mm}mm {i.qty} {aud(i.unit_price_ex_gst)}"
            for i in from_stored(quote.items)
        ]
    return out
