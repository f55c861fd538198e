"""The runner lease of one store, as the supervisor and ``status`` use it (``App.lease``).

Why here: the lease is a row in the store, and only the composition root touches the store.
``core.db.lease`` holds the conditional UPDATEs; this adds who "me" is (a token per process run,
its pid, host and kind), the timings from ``runner.takeover_seconds`` (T: heartbeat every T/4,
stale after 2T/3, so a standby checking every T/4 takes over within T of the last heartbeat),
and runs them on the I/O lane (``queued=False``): a heartbeat never waits behind an intake batch
on the writer thread, where a long ingest could make a live runner look dead.
"""

from __future__ import annotations

import os
import socket
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from core.clock import Clock, naive_utc
from core.db import lease as rows
from core.services import Services

RunnerKind = Literal["serve", "desktop"]


@dataclass(frozen=True)
class Runner:
    """Who runs the background work now (``status --json``'s ``runner``)."""

    pid: int
    host: str
    kind: str
    since: datetime  # naive UTC
    heartbeat_at: datetime  # naive UTC
    mine: bool  # this process
    pieces: dict[str, str]  # its health view at the last heartbeat: piece → state

    def as_json(self) -> dict[str, object]:
        return {
            "pid": self.pid,
            "host": self.host,
            "kind": self.kind,
            "since": self.since.isoformat() + "Z",
            "heartbeat_at": self.heartbeat_at.isoformat() + "Z",
            "pieces": dict(self.pieces),
        }


class RunnerLease:
    """Take, renew, release and read this store's runner lease for this process."""

    def __init__(self, services: Services, clock: Clock | None = None) -> None:
        self._services = services
        # None: the store's clock, shared by every process on it (``core.db.lease``); a test
        # passes its own to move time by hand
        self._clock = clock
        self._token = uuid.uuid4().hex
        self.kind: RunnerKind = "desktop"

    @property
    def takeover_s(self) -> float:
        return float(max(2, self._services.settings.number("runner.takeover_seconds")))

    @property
    def heartbeat_s(self) -> float:
        """How often the holder renews and a standby looks."""
        return self.takeover_s / 4

    @property
    def expiry(self) -> timedelta:
        """A heartbeat older than this is a dead holder's."""
        return timedelta(seconds=self.takeover_s * 2 / 3)

    def _me(self) -> rows.Claimant:
        return rows.Claimant(self._token, os.getpid(), socket.gethostname(), self.kind)

    def _now(self) -> datetime | None:
        return None if self._clock is None else naive_utc(self._clock.now())

    async def take(self) -> bool:
        """True when this process holds the lease now (it was free, ours, or stale)."""
        me, now, expiry = self._me(), self._now(), self.expiry
        return await self._services.store.run(lambda s: rows.take(s, me, now, expiry), queued=False)

    async def renew(self, pieces: dict[str, str] | None = None) -> bool:
        """A heartbeat carrying the supervisor's health view; False once another process took
        the lease over."""
        me, now = self._me(), self._now()
        return await self._services.store.run(
            lambda s: rows.renew(s, me, now, pieces), queued=False
        )

    async def release(self) -> None:
        me = self._me()
        await self._services.store.run(lambda s: rows.release(s, me), queued=False)

    def release_now(self) -> None:
        """``release`` without a loop (a process ending after its loop stopped)."""
        me = self._me()
        self._services.store.write(lambda s: rows.release(s, me))

    async def runner(self) -> Runner | None:
        """The live holder, or None when the lease is free or its holder stopped beating."""
        now, expiry = self._now(), self.expiry
        found = await self._services.store.read(lambda s: rows.live(s, expiry, now))
        if found is None:
            return None
        return Runner(
            pid=found.pid,
            host=found.host,
            kind=found.kind,
            since=found.since,
            heartbeat_at=found.heartbeat_at,
            mine=found.holder == self._token,
            pieces=found.pieces,
        )
