"""The one stage policy: how long a job may sit in a stage, and how its time there is counted.

Every place that says "days in stage" or "overdue" — the board (its rows and its SQL filter),
``inquiries --json``, ``reminders``, the briefing, the assistant's tools and Telegram — asks this
module, so they cannot disagree. The rule, from docs/contracts.md:

* a stage's clock starts when the job entered it; a new inquiry's clock starts at its first
  email's received time (not when the app happened to import it — a first sync of September mail
  must not say "0 days" in September's jobs);
* time is counted in Sydney working days (weekends and NSW public holidays do not count; the
  entry day never counts, the current day counts as soon as it begins — ``core.workdays``);
* a job is overdue when its working days in the stage exceed the stage's limit, and ``overdue``
  is by how many working days (0 when not overdue; ``done`` and ``lost`` never are).

The SQL filter is derived from the same arithmetic: for a limit L, the working-day count of an
entry depends only on its Sydney date and is monotone in it, so "more than L working days" is
"entered before one instant", computed here once per query.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from core.clock import SYDNEY, naive_utc, to_sydney, utc
from core.workdays import is_working_day, working_days_between, working_days_in

# Working days in a stage before a reminder: inquiry 2, measure 5, quoting 7, follow_up 14,
# ordered 3, production 21, install 7. done and lost never go overdue.
STAGE_LIMIT_DAYS: dict[str, int] = {
    "inquiry": 2,
    "measure": 5,
    "quoting": 7,
    "follow_up": 14,
    "ordered": 3,
    "production": 21,
    "install": 7,
}


@dataclass(frozen=True)
class StageTime:
    """A job's time in its current stage, by the policy."""

    stage: str
    since: datetime | None
    days_in_stage: int  # Sydney working days
    limit_days: int | None  # None: the stage has no limit (done, lost)
    overdue_days: int  # working days past the limit; 0 when not overdue

    @property
    def overdue(self) -> bool:
        return self.overdue_days > 0


def limit_days(stage: str) -> int | None:
    return STAGE_LIMIT_DAYS.get(stage)


def days_in_stage(since: datetime | None, now: datetime) -> int:
    """Sydney working days since ``since`` (0 when unknown)."""
    if since is None:
        return 0
    return working_days_between(utc(since), now)


def stage_time(stage: str, since: datetime | None, now: datetime) -> StageTime:
    return stage_time_on(stage, since, to_sydney(now).date())


def stage_time_on(stage: str, since: datetime | None, today: date) -> StageTime:
    """``stage_time`` on Sydney date ``today``: the count depends on the date alone, so a page of
    rows converts "now" once, not once per row."""
    days = 0 if since is None else working_days_in(to_sydney(utc(since)).date(), today)
    limit = limit_days(stage)
    over = max(0, days - limit) if limit is not None and since is not None else 0
    return StageTime(stage, since, days, limit, over)


def overdue_days(stage: str, since: datetime | None, now: datetime) -> int:
    return stage_time(stage, since, now).overdue_days


def overdue_before(limit: int, now: datetime) -> datetime:
    """The instant (naive UTC) before which a stage entry has more than ``limit`` working days.

    Walks back from today's Sydney date: the count for an entry on date d is the number of
    working days in (d, today]; the first d (going back) where it exceeds ``limit`` and every
    earlier date are overdue, so the boundary is Sydney midnight after that d.
    """
    today = to_sydney(now).date()
    day = today
    count = 0
    while count <= limit:
        if is_working_day(day):
            count += 1
        day -= timedelta(days=1)
    # ``day`` is now the latest entry date whose count exceeds the limit
    return _sydney_midnight(day + timedelta(days=1))


def _sydney_midnight(day: date) -> datetime:
    return naive_utc(datetime.combine(day, time(0, 0), tzinfo=SYDNEY))


def clock_start(first_received_at: datetime | None, now: datetime) -> datetime:
    """When a new inquiry's stage clock starts: its first email's received time (naive UTC).

    A missing or future date (a sender's clock, an absurd header) falls back to now, so a job is
    never counted as waiting for less than nothing.
    """
    naive_now = naive_utc(now)
    if first_received_at is None:
        return naive_now
    return min(naive_utc(first_received_at), naive_now)
