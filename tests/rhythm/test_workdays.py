"""Working days in Sydney: weekends and NSW public holidays never count.

The counts come from a generated table and arithmetic (``core.workdays``); here they are checked
against the ``holidays`` library itself, day by day, so the table cannot drift from it."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from functools import cache

from core.clock import SYDNEY
from core.nsw_holidays import FIRST_YEAR, LAST_YEAR, holidays_of, library_holidays
from core.workdays import (
    add_working_days,
    is_working_day,
    working_days_between,
    working_days_in,
)

library = cache(library_holidays)  # the library's own answer, once per year


def at(day: str, hour: int = 10) -> datetime:
    return datetime.fromisoformat(day).replace(hour=hour, tzinfo=SYDNEY)


def test_a_saturday_arrival_counts_from_monday() -> None:
    saturday = at("2026-11-28")
    assert working_days_between(saturday, at("2026-11-29")) == 0  # Sunday
    assert working_days_between(saturday, at("2026-11-30", 7)) == 1  # Monday morning
    assert working_days_between(saturday, at("2026-12-02")) == 3  # Wednesday


def test_public_holidays_are_skipped() -> None:
    # Labour Day, Monday 5 October 2026; Christmas Friday 25, Boxing Day observed Monday 28 Dec
    assert not is_working_day(date(2026, 10, 5))
    assert working_days_between(at("2026-10-02"), at("2026-10-08")) == 3
    assert working_days_between(at("2026-12-24"), at("2026-12-29")) == 1


def test_the_arrival_day_never_counts_and_time_of_day_does_not_matter() -> None:
    assert working_days_between(at("2026-12-01", 0), at("2026-12-01", 23)) == 0
    assert working_days_between(at("2026-12-01", 23), at("2026-12-02", 0)) == 1


def test_add_working_days_steps_over_weekends_and_holidays() -> None:
    assert add_working_days(date(2026, 12, 24), 1) == date(2026, 12, 29)
    assert add_working_days(date(2026, 11, 27), 1) == date(2026, 11, 30)


def test_the_holiday_table_is_what_the_holidays_library_says_for_every_year() -> None:
    for year in range(FIRST_YEAR, LAST_YEAR + 1):
        assert set(holidays_of(year)) == library(year), (
            f"{year}: core/nsw_holidays.py is stale, run python -m core.nsw_holidays"
        )


def test_counts_by_arithmetic_agree_with_walking_the_calendar_a_day_at_a_time() -> None:
    def walked(first: date, last: date) -> int:
        days = [first + timedelta(n) for n in range(1, (last - first).days + 1)]
        return sum(1 for d in days if d.weekday() < 5 and d not in library(d.year))

    starts = [date(2026, 12, 20) + timedelta(n) for n in range(0, 16)]  # Christmas, New Year
    starts += [date(2027, 3, 20) + timedelta(n) for n in range(0, 12)]  # Easter
    for first in starts:
        for length in (0, 1, 2, 3, 6, 7, 8, 13, 40, 400):
            last = first + timedelta(length)
            assert working_days_in(first, last) == walked(first, last), (first, last)


def test_a_year_outside_the_table_still_counts_its_holidays() -> None:
    # 1999 and 2050 are not tabled: the library is asked (once) and Christmas still does not count
    assert not is_working_day(date(1999, 12, 27))  # Boxing Day observed, a Monday
    assert working_days_in(date(2050, 12, 23), date(2050, 12, 27)) == 0  # Sat, Sun, 25-26 Dec
    assert working_days_in(date(1999, 12, 23), date(2001, 1, 2)) == walked_slowly(
        date(1999, 12, 23), date(2001, 1, 2)
    )


def walked_slowly(first: date, last: date) -> int:
    count, day = 0, first
    while day < last:
        day += timedelta(days=1)
        count += day.weekday() < 5 and day not in library(day.year)
    return count
