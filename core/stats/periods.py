"""Sydney calendar days and Monday-to-Sunday weeks, as naive-UTC bounds for the store.

The store keeps naive UTC; the owner thinks in Sydney days. Grouping in Python over bounds
computed here keeps daylight-saving changes out of SQL.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from core.clock import SYDNEY, naive_utc, to_sydney


@dataclass(frozen=True)
class Period:
    label: str  # 2026-12-01 for a day, 2026-W49 for a week
    start: datetime  # naive UTC, inclusive
    end: datetime  # naive UTC, exclusive

    def holds(self, at: datetime) -> bool:
        return self.start <= at < self.end


def _midnight(day: date) -> datetime:
    return naive_utc(datetime.combine(day, time(0, 0), tzinfo=SYDNEY))


def week_of(day: date) -> Period:
    monday = day - timedelta(days=day.weekday())
    year, week, _ = monday.isocalendar()
    return Period(f"{year}-W{week:02d}", _midnight(monday), _midnight(monday + timedelta(days=7)))


def day_of(day: date) -> Period:
    return Period(day.isoformat(), _midnight(day), _midnight(day + timedelta(days=1)))


def last_weeks(now: datetime, count: int) -> list[Period]:
    """The ``count`` weeks up to and including this one, oldest first."""
    this = to_sydney(now).date()
    return [week_of(this - timedelta(weeks=n)) for n in range(count - 1, -1, -1)]


def days_of_week(now: datetime) -> list[Period]:
    """This week's days from Monday up to today."""
    today = to_sydney(now).date()
    monday = today - timedelta(days=today.weekday())
    return [day_of(monday + timedelta(days=n)) for n in range((today - monday).days + 1)]


def find(periods: list[Period], at: datetime) -> Period | None:
    return next((p for p in periods if p.holds(at)), None)


def last_months(now: datetime, count: int) -> list[str]:
    """The ``count`` calendar months up to and including this one (Sydney), oldest first."""
    local = to_sydney(now).date()
    year, month = local.year, local.month
    out = []
    for _ in range(count):
        out.append(f"{year}-{month:02d}")
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return out[::-1]
