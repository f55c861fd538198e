"""The runner lease: one holder at a time, taken over only when the holder stops beating.

Two ``RunnerLease`` objects over one store stand for two processes (each has its own token).
"Stale" is the holder's heartbeat older than two thirds of ``runner.takeover_seconds`` by the
store's clock, the one every process on it shares: a process's own clock (another PC's, or one
started at another ``INQUIRY_BRIDGE_NOW``) never makes a live holder look dead. The first tests
inject a clock to move time by hand.
"""

from __future__ import annotations

from core.app.lease import RunnerLease
from core.clock import FakeClock
from core.services import Services


async def test_one_holder_until_its_heartbeat_is_stale(
    services: Services, clock: FakeClock
) -> None:
    services.settings.set("runner.takeover_seconds", 90)
    serve, desk = RunnerLease(services, clock), RunnerLease(services, clock)
    serve.kind = "serve"
    assert await serve.take()
    assert not await desk.take()  # held and beating: the desk stays a desk
    runner = await desk.runner()
    assert runner is not None and runner.kind == "serve" and not runner.mine
    assert (await serve.runner()).mine  # type: ignore[union-attr]

    clock.advance(50)  # under 60 s: still live
    assert not await desk.take()
    assert await serve.renew()
    clock.advance(59)
    assert not await desk.take()

    clock.advance(2)  # 61 s since the last heartbeat: the holder is dead
    assert await desk.runner() is None
    assert await desk.take()
    assert not await serve.renew()  # the old holder learns it lost the lease: it stops
    runner = await serve.runner()
    assert runner is not None and runner.kind == "desktop"


async def test_a_process_clock_far_ahead_never_takes_a_live_lease(
    services: Services, clock: FakeClock
) -> None:
    """Another PC's clock an hour ahead (or a process started at a later
    ``INQUIRY_BRIDGE_NOW``): the live holder's heartbeat is judged by the store's clock."""
    services.settings.set("runner.takeover_seconds", 90)
    serve, desk = RunnerLease(services), RunnerLease(services)
    assert await serve.take()
    clock.advance(3600)  # the process clock the services carry: not the lease's
    assert not await desk.take()
    runner = await desk.runner()
    assert runner is not None and not runner.mine
    assert await serve.renew()


async def test_a_clean_stop_frees_the_lease_at_once(services: Services) -> None:
    first, second = RunnerLease(services), RunnerLease(services)
    assert await first.take()
    await second.release()  # not its lease: nothing changes
    assert not await second.take()
    await first.release()
    assert await first.runner() is None
    assert await second.take()
