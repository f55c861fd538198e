"""The numbers of the trade for the 概览 view: inquiries per week, how fast he first answers,
measure → quote → order conversion by month, and how long jobs sit in each stage.

All from the store: an inquiry "came" when its first email did (its first stage entry), a
stage was "reached" when a stage event entered it, and time in a stage is counted in Sydney
working days by the one stage policy, over the stays that have ended.
"""

from __future__ import annotations

import itertools
import statistics
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import to_sydney, utc
from core.db.models import STAGES, Message, StageEvent
from core.inquiry.stage_policy import days_in_stage
from core.stats.periods import Period, find

QUOTED = ("follow_up",)  # the quote went to the customer
REACHED_ORDER = ("ordered", "production", "install", "done")


@dataclass
class MonthFunnel:
    month: str  # 2026-11
    inquiries: int = 0
    measured: int = 0
    quoted: int = 0
    ordered: int = 0


@dataclass
class Overview:
    weeks: list[str] = field(default_factory=list)
    inquiries_per_week: list[int] = field(default_factory=list)
    first_reply_hours: list[float | None] = field(default_factory=list)  # median, per week
    funnel: list[MonthFunnel] = field(default_factory=list)
    stage_days: dict[str, float] = field(default_factory=dict)  # mean working days per stay

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def _events(session: Session) -> dict[int, list[StageEvent]]:
    by_inquiry: dict[int, list[StageEvent]] = defaultdict(list)
    for event in session.scalars(select(StageEvent).order_by(StageEvent.at, StageEvent.id)):
        by_inquiry[event.inquiry_id].append(event)
    return by_inquiry


def first_reply_hours(session: Session) -> dict[int, float]:
    """Per inquiry: hours from its first email in to our first email out (answered ones)."""
    firsts: dict[tuple[int, str], datetime] = {}
    for inquiry_id, direction, at in session.execute(
        select(Message.inquiry_id, Message.direction, Message.received_at).where(
            Message.inquiry_id.is_not(None)
        )
    ):
        if inquiry_id is None:
            continue
        key = (int(inquiry_id), str(direction))
        if key not in firsts or at < firsts[key]:
            firsts[key] = at
    out: dict[int, float] = {}
    for (inquiry_id, direction), at in firsts.items():
        back = firsts.get((inquiry_id, "out"))
        if direction == "in" and back is not None and back >= at:
            out[inquiry_id] = (back - at).total_seconds() / 3600
    return out


def _month(at: datetime) -> str:
    local: date = to_sydney(utc(at)).date()
    return f"{local.year}-{local.month:02d}"


def overview(session: Session, weeks: list[Period], months: list[str]) -> Overview:
    out = Overview(weeks=[w.label for w in weeks])
    events = _events(session)
    replies = first_reply_hours(session)
    per_week: dict[str, list[int]] = {w.label: [] for w in weeks}
    funnels = {m: MonthFunnel(m) for m in months}
    stays: dict[str, list[int]] = defaultdict(list)
    for inquiry_id, rows in events.items():
        first = rows[0]
        week = find(weeks, first.at)
        if week is not None:
            per_week[week.label].append(inquiry_id)
        funnel = funnels.get(_month(first.at))
        reached = {e.to_stage for e in rows}
        if funnel is not None:
            funnel.inquiries += 1
            funnel.measured += "measure" in reached
            funnel.quoted += bool(reached & set(QUOTED))
            funnel.ordered += bool(reached & set(REACHED_ORDER))
        for entered, left in itertools.pairwise(rows):
            stays[entered.to_stage].append(days_in_stage(entered.at, left.at))
    out.inquiries_per_week = [len(per_week[w.label]) for w in weeks]
    for week in weeks:
        hours = [replies[i] for i in per_week[week.label] if i in replies]
        out.first_reply_hours.append(round(statistics.median(hours), 1) if hours else None)
    out.funnel = list(funnels.values())
    out.stage_days = {
        stage: round(statistics.fmean(stays[stage]), 1) for stage in STAGES if stays.get(stage)
    }
    return out
