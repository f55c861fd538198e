"""Working days in Sydney: weekends and New South Wales public holidays do not count.

Why a library for the holidays: Easter, the King's Birthday, Labour Day and the "observed" Mondays
move every year; ``holidays`` (maintained, offline) knows them, hand-written tables go stale.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import lru_cache

import holidays

from core.clock import to_sydney


@lru_cache(maxsize=8)
def _nsw_holidays(year: int) -> frozenset[date]:
    return frozenset(holidays.country_holidays("AU", subdiv="NSW", years=[year]).keys())


def is_working_day(day: date) -> bool:
    return day.weekday() < 5 and day not in _nsw_holidays(day.year)


def working_days_between(start: datetime, end: datetime) -> int:
    """Working days ``d`` with start's Sydney date < d <= end's Sydney date.

    So a job that entered a stage on a Saturday has 0 working days on Sunday, 1 on Monday and
    3 on Wednesday: the day it arrived never counts, the current day counts as soon as it begins.
    """
    first, last = to_sydney(start).date(), to_sydney(end).date()
    if last <= first:
        return 0
    count = 0
    day = first + timedelta(days=1)
    while day <= last:
        if is_working_day(day):
            count += 1
        day += timedelta(days=1)
    return count


def add_working_days(start: date, days: int) -> date:
    """The date ``days`` working days after ``start`` (``start`` itself never counts)."""
    day = start
    left = days
    while left > 0:
        day += timedelta(days=1)
        if is_working_day(day):
            left -= 1
    return day
