"""Injectable time, so tests never sleep on or patch the real clock.

Every service that needs "now" takes a ``Clock``. Times are stored in UTC; ``SYDNEY`` is the
business's zone for display, quiet hours and reminders.

A process reads its clock from ``INQUIRY_BRIDGE_NOW`` (ISO 8601 with an offset) when it is set:
checks and tests run the real app at a chosen moment (quiet hours at 02:00, reminders on a
Wednesday) without touching the machine's clock. That clock starts at the given instant and then
runs at real speed, so timeouts, retries and pacing still behave.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping
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


class StartedClock:
    """The real clock's pace from a chosen start: ``now()`` is ``start`` plus the time elapsed."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("start must carry a UTC offset")
        self.start = start.astimezone(UTC)
        self._t0 = time.monotonic()

    def now(self) -> datetime:
        return self.start + timedelta(seconds=time.monotonic() - self._t0)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


NOW_VARIABLE = "INQUIRY_BRIDGE_NOW"


def parse_now(value: str) -> datetime:
    """An ISO 8601 instant with an offset ('2026-12-02T20:00:00+11:00', '...Z'), as aware UTC.

    A value without an offset is refused: '09:00' means different instants in Sydney and on a CI
    machine in UTC, and a check that silently ran at the wrong hour would prove nothing.
    """
    text = value.strip()
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as exc:
        raise ValueError(f"{NOW_VARIABLE}={value!r} is not an ISO 8601 date and time") from exc
    if moment.tzinfo is None:
        raise ValueError(f"{NOW_VARIABLE}={value!r} needs a UTC offset, e.g. +11:00 or Z")
    return moment.astimezone(UTC)


def clock_from_env(environ: Mapping[str, str] | None = None) -> Clock:
    """The process's clock: ``INQUIRY_BRIDGE_NOW`` when set, else the real one.

    Raises ``ValueError`` (with one readable line) for a malformed value.
    """
    value = (os.environ if environ is None else environ).get(NOW_VARIABLE, "").strip()
    if not value:
        return SystemClock()
    return StartedClock(parse_now(value))


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
