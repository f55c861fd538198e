"""Injectable time, so tests never sleep on or patch the real clock.

Every service that needs "now" takes a ``Clock``. Times are stored in UTC; ``SYDNEY`` is the
business's zone for display, quiet hours and reminders.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Protocol
from zoneinfo import ZoneInfo

SYDNEY = ZoneInfo("Australia/Sydney")


class Clock(Protocol):
    def now(self) -> datetime: ...

    async def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The real clock."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class FakeClock:
    """A clock tests move by hand; ``sleep`` advances it instantly and records the wait."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 4, 1, 0, 0, tzinfo=UTC)
        self.sleeps: list[float] = []

    def now(self) -> datetime:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += timedelta(seconds=seconds)

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.advance(max(0.0, seconds))
        await asyncio.sleep(0)


def utc(dt: datetime) -> datetime:
    """Normalise to aware UTC (SQLite hands back naive datetimes that are UTC by convention)."""
    if dt.tzinfo is None:
        return dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC)


def naive_utc(dt: datetime) -> datetime:
    """Naive UTC, as SQLite keeps datetimes by convention (see core.db.models)."""
    return utc(dt).replace(tzinfo=None)


def to_sydney(dt: datetime) -> datetime:
    return utc(dt).astimezone(SYDNEY)
