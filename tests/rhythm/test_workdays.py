"""Working days in Sydney: weekends and NSW public holidays never count."""

from __future__ import annotations

from datetime import date, datetime

from core.clock import SYDNEY
from core.workdays import add_working_days, is_working_day, working_days_between


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
