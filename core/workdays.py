"""Working days in Sydney: weekends and New South Wales public holidays do not count.

Why a table and arithmetic, not a day-by-day walk: the board shows a days-in-stage figure on every
row, the CLI and the briefing count them for every inquiry, and ``holidays.country_holidays`` loads
some 280 country modules on its first call (55–120 ms, paid again by each thread racing for it at
start). So the NSW holidays of the years in use are a small table (``core.nsw_holidays``, written
from ``holidays`` by ``python -m core.nsw_holidays`` and checked against it by a test), and a count
is weekdays by arithmetic minus the holidays inside the range found by bisection: O(log n) in the
table's few hundred dates, no loop over days. A year outside the table (mail from long ago, or a
clock far ahead) still asks ``holidays`` — at first need, once per year.

Why ``holidays`` stays the source: Easter, the King's Birthday, Labour Day and the "observed"
Mondays move every year and new days get gazetted; hand-written tables go stale, a generated one
is re-checked whenever the library changes.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from datetime import date, datetime, timedelta

from core.clock import to_sydney
from core.nsw_holidays import FIRST_YEAR, LAST_YEAR, holidays_of, library_holidays


class _Calendar:
    """The NSW holidays known so far: a set for lookups, sorted weekday ordinals for counting."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.years: set[int] = set(range(FIRST_YEAR, LAST_YEAR + 1))
        days = {d for year in self.years for d in holidays_of(year)}
        self._set(days)

    def _set(self, days: set[date]) -> None:
        # both replaced at once, so a reader on another thread sees an old or a new pair
        self.days, self.weekday_ordinals = (
            frozenset(days),
            sorted(d.toordinal() for d in days if d.weekday() < 5),
        )

    def cover(self, first: int, last: int) -> None:
        """Make sure the years ``first``..``last`` are known (from the library when not tabled)."""
        if first >= FIRST_YEAR and last <= LAST_YEAR:
            return
        missing = [y for y in range(first, last + 1) if y not in self.years]
        if not missing:
            return
        with self._lock:
            missing = [y for y in missing if y not in self.years]
            days = set(self.days)
            for year in missing:
                days |= library_holidays(year)
            self._set(days)
            self.years.update(missing)


_CALENDAR = _Calendar()


def is_working_day(day: date) -> bool:
    if day.weekday() >= 5:
        return False
    _CALENDAR.cover(day.year, day.year)
    return day not in _CALENDAR.days


def _weekdays_before(ordinal: int) -> int:
    """Mondays to Fridays among ordinals 1 .. ordinal-1 (ordinal 1, 0001-01-01, is a Monday)."""
    days = ordinal - 1
    return days // 7 * 5 + min(days % 7, 5)


def working_days_in(first: date, last: date) -> int:
    """Working days ``d`` with first < d <= last (0 when last <= first)."""
    if last <= first:
        return 0
    _CALENDAR.cover(first.year, last.year)
    lo, hi = first.toordinal() + 1, last.toordinal() + 1
    weekdays = _weekdays_before(hi) - _weekdays_before(lo)
    ordinals = _CALENDAR.weekday_ordinals
    return weekdays - (bisect_right(ordinals, hi - 1) - bisect_right(ordinals, lo - 1))


def working_days_between(start: datetime, end: datetime) -> int:
    """Working days ``d`` with start's Sydney date < d <= end's Sydney date.

    So a job that entered a stage on a Saturday has 0 working days on Sunday, 1 on Monday and
    3 on Wednesday: the day it arrived never counts, the current day counts as soon as it begins.
    """
    return working_days_in(to_sydney(start).date(), to_sydney(end).date())


def add_working_days(start: date, days: int) -> date:
    """The date ``days`` working days after ``start`` (``start`` itself never counts)."""
    day = start
    left = days
    while left > 0:
        day += timedelta(days=1)
        if is_working_day(day):
            left -= 1
    return day
