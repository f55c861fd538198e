"""Money on the jobs: pipeline value by stage, quotes sent and won this week and month, win rate.

Counted from the quote versions in the store (``core.db.models.Quote``), never from the model.
An inquiry's *current quote* is its newest version that was not superseded; the pipeline value of
a stage is the sum of the current quotes (inc GST) of the open inquiries in that stage. Won is
``accepted``; the win rate is accepted over every version that went to a customer (sent or
accepted), all time, so one slow week does not swing it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import to_sydney
from core.db.models import CLOSED_STAGES, STAGES, Inquiry, Quote
from core.db.quote_totals import current_quotes
from core.stats.periods import Period, _midnight, week_of


def month_of(day: date) -> Period:
    first = day.replace(day=1)
    following = (first + timedelta(days=32)).replace(day=1)
    return Period(f"{first:%Y-%m}", _midnight(first), _midnight(following))


@dataclass(frozen=True)
class Tally:
    count: int = 0
    value: Decimal = Decimal("0.00")

    def plus(self, value: Decimal) -> Tally:
        return Tally(self.count + 1, self.value + value)

    def as_json(self) -> dict[str, Any]:
        return {"count": self.count, "value_inc_gst": float(self.value)}


@dataclass(frozen=True)
class MoneyFigures:
    pipeline_by_stage: dict[str, Decimal]
    sent_week: Tally
    sent_month: Tally
    won_week: Tally
    won_month: Tally
    win_rate: float | None  # accepted / went to a customer; None before any quote went out

    @property
    def pipeline_total(self) -> Decimal:
        return sum(self.pipeline_by_stage.values(), Decimal("0.00"))

    def as_json(self) -> dict[str, Any]:
        return {
            "pipeline_value_by_stage": {k: float(v) for k, v in self.pipeline_by_stage.items()},
            "pipeline_value_total": float(self.pipeline_total),
            "quotes_sent_this_week": self.sent_week.as_json(),
            "quotes_sent_this_month": self.sent_month.as_json(),
            "quotes_won_this_week": self.won_week.as_json(),
            "quotes_won_this_month": self.won_month.as_json(),
            "win_rate": self.win_rate,
        }


def _in(period: Period, at: datetime | None) -> bool:
    return at is not None and period.holds(at)


def money_figures(session: Session, now: datetime) -> MoneyFigures:
    today = to_sydney(now).date()
    week, month = week_of(today), month_of(today)
    stages = {s: Decimal("0.00") for s in STAGES if s not in CLOSED_STAGES}
    current = current_quotes(session)
    for inquiry_id, stage in session.execute(select(Inquiry.id, Inquiry.stage)):
        q = current.get(inquiry_id)
        if q is not None and stage in stages:
            stages[stage] += Decimal(q.total_inc_gst)
    sent_w = sent_m = won_w = won_m = Tally()
    went = won = 0
    for q in session.scalars(select(Quote)):
        value = Decimal(q.total_inc_gst)
        if q.sent_at is not None or q.accepted_at is not None:
            went += 1
        if q.accepted_at is not None:
            won += 1
        sent_w = sent_w.plus(value) if _in(week, q.sent_at) else sent_w
        sent_m = sent_m.plus(value) if _in(month, q.sent_at) else sent_m
        won_w = won_w.plus(value) if _in(week, q.accepted_at) else won_w
        won_m = won_m.plus(value) if _in(month, q.accepted_at) else won_m
    rate = round(won / went, 4) if went else None
    return MoneyFigures(stages, sent_w, sent_m, won_w, won_m, rate)
