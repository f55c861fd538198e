"""Pollers: intervals from settings, no overlap, pause, quiet hours, back-off, parked when signed out."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from core.clock import FakeClock
from core.errors import GraphAuthError, GraphError
from core.events import RecordingBus, SyncStatus
from core.schedule import Poller, in_quiet_hours


def test_quiet_hours_over_midnight_in_sydney() -> None:
    # 2026-04-01 11:30 UTC = 22:30 in Sydney (AEDT, +11)
    assert in_quiet_hours(datetime(2026, 4, 1, 11, 30, tzinfo=UTC), "21:00", "07:00")
    assert not in_quiet_hours(datetime(2026, 4, 1, 1, 0, tzinfo=UTC), "21:00", "07:00")
    assert not in_quiet_hours(datetime(2026, 4, 1, 11, 30, tzinfo=UTC), "21:00", "21:00")


async def test_runs_on_its_interval_and_slows_in_quiet_hours() -> None:
    clock = FakeClock()
    poller = Poller("mail", _ok, lambda: 300.0, clock)
    await poller.run_forever(max_runs=3)
    assert clock.sleeps[:2] == [300.0, 300.0]
    assert poller.next_delay(quiet=True) == 3600.0


async def test_a_round_never_overlaps_itself() -> None:
    clock = FakeClock()
    started = asyncio.Event()
    release = asyncio.Event()

    async def slow() -> None:
        started.set()
        await release.wait()

    poller = Poller("mail", slow, lambda: 300.0, clock)
    first = asyncio.ensure_future(poller.run_once())
    await started.wait()
    assert await poller.run_once() is False  # the tick during a running round is skipped
    release.set()
    assert await first is True


async def test_paused_means_no_requests() -> None:
    calls: list[int] = []
    paused = True

    async def job() -> None:
        calls.append(1)

    clock = FakeClock()
    poller = Poller("mail", job, lambda: 300.0, clock, paused=lambda: paused)
    stop = asyncio.Event()
    task = asyncio.ensure_future(poller.run_forever(stop))
    for _ in range(20):
        await asyncio.sleep(0)
    assert calls == [] and clock.sleeps and set(clock.sleeps) == {60.0}
    stop.set()
    poller.poke()
    await asyncio.wait_for(task, 5)


async def test_offline_backs_off_and_reports_once_then_recovers() -> None:
    clock = FakeClock()
    bus = RecordingBus()
    outcomes = [GraphError("network unreachable")] * 3 + [None]

    async def job() -> None:
        outcome = outcomes.pop(0)
        if outcome:
            raise outcome

    poller = Poller("mail", job, lambda: 300.0, clock, bus=bus)
    delays = []
    for _ in range(4):
        await poller.run_once()
        delays.append(poller.next_delay())
    assert delays[0] < delays[1] < delays[2] and delays[3] == 300.0
    statuses = [(e.ok, e.code) for e in bus.events if isinstance(e, SyncStatus)]
    assert statuses == [(False, "graph"), (True, "")]


class _WaitingClock(FakeClock):
    """Sleeps that only end when woken: shows what the poller does *while* it waits."""

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        await asyncio.Event().wait()


async def test_signed_out_parks_until_poked() -> None:
    clock = _WaitingClock()
    signed_in = False
    calls = []

    async def job() -> None:
        calls.append(1)
        if not signed_in:
            raise GraphAuthError("not signed in")

    poller = Poller("mail", job, lambda: 300.0, clock)
    stop = asyncio.Event()
    task = asyncio.ensure_future(poller.run_forever(stop))
    for _ in range(10):
        await asyncio.sleep(0)
    assert poller.parked and len(calls) == 1  # no retry storm while signed out
    assert clock.sleeps == [3600.0]
    signed_in = True
    poller.poke()  # the desktop calls this after a successful sign-in
    for _ in range(10):
        await asyncio.sleep(0)
    assert len(calls) == 2 and not poller.parked
    assert clock.sleeps == [3600.0, 300.0]
    stop.set()
    poller.poke()
    await asyncio.wait_for(task, 5)


async def _ok() -> None:
    return None
