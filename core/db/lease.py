"""The runner lease: at most one process per store runs the background work.

A heartbeat row (``runner_lease``, name ``runner``) says who runs it. Every change is one
conditional UPDATE whose row count says whether it happened, so two processes racing for it
cannot both win, on SQLite and on PostgreSQL alike (no read-then-write, no file lock):

* ``take``: the row is free, already ours, or its heartbeat is older than ``expiry`` → ours;
* ``renew``: still ours → new heartbeat (0 rows: someone took it over; stop the work at once);
* ``release``: ours → free (a clean stop hands over without waiting for the expiry).

Times are naive UTC like every other column, read from **the store's clock** (``store_now``:
PostgreSQL's ``clock_timestamp()``; SQLite's ``'now'``, the clock of the one machine every
process on that file runs on), never from each process's own: two PCs whose clocks differ by a minute, or processes that
started ``INQUIRY_BRIDGE_NOW`` at different moments, would otherwise see a live holder's
heartbeat as stale and both run the work. Liveness is real elapsed time on one clock; a test may
still pass its own ``now``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import or_, select, text, update
from sqlalchemy.orm import Session

from core.db.models import RunnerLease

RUNNER = "runner"


@dataclass(frozen=True)
class Holder:
    """Who holds (or held) the lease."""

    holder: str
    pid: int
    host: str
    kind: str
    since: datetime
    heartbeat_at: datetime
    pieces: dict[str, str]


@dataclass(frozen=True)
class Claimant:
    """This process, as it writes itself into the row."""

    token: str
    pid: int
    host: str
    kind: str


def store_now(session: Session) -> datetime:
    """Now, naive UTC, by the store's clock (the one clock every process on it shares)."""
    if session.get_bind().dialect.name == "postgresql":
        found = session.scalar(text("SELECT timezone('UTC', clock_timestamp())"))
        if isinstance(found, datetime):
            return found.replace(tzinfo=None)
        raise RuntimeError(f"the store's clock answered {found!r}")
    said = session.scalar(text("SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')"))  # UTC
    return datetime.fromisoformat(str(said))


def _ensure_row(session: Session) -> None:
    """The row the migration made (recreated if someone deleted it)."""
    if session.get(RunnerLease, RUNNER) is None:
        session.add(RunnerLease(name=RUNNER))
        session.flush()


def take(session: Session, me: Claimant, now: datetime | None, expiry: timedelta) -> bool:
    """Take the lease when it is free, ours, or its holder's heartbeat is stale."""
    _ensure_row(session)
    now = now or store_now(session)
    result = session.execute(
        update(RunnerLease)
        .where(
            RunnerLease.name == RUNNER,
            or_(
                RunnerLease.holder.is_(None),
                RunnerLease.holder == me.token,
                RunnerLease.heartbeat_at.is_(None),
                RunnerLease.heartbeat_at < now - expiry,
            ),
        )
        .values(
            holder=me.token,
            pid=me.pid,
            host=me.host,
            kind=me.kind,
            since=now,
            heartbeat_at=now,
            pieces={},
        )
        .execution_options(synchronize_session=False)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


def renew(
    session: Session, me: Claimant, now: datetime | None, pieces: dict[str, str] | None = None
) -> bool:
    """A new heartbeat (and the holder's health view) while the lease is still ours; False
    once someone took it over."""
    now = now or store_now(session)
    result = session.execute(
        update(RunnerLease)
        .where(RunnerLease.name == RUNNER, RunnerLease.holder == me.token)
        .values(heartbeat_at=now, pieces=pieces or {})
        .execution_options(synchronize_session=False)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


def release(session: Session, me: Claimant) -> bool:
    """Free the lease if it is ours (a clean stop: the next runner need not wait)."""
    result = session.execute(
        update(RunnerLease)
        .where(RunnerLease.name == RUNNER, RunnerLease.holder == me.token)
        .values(holder=None, heartbeat_at=None, pieces=None)
        .execution_options(synchronize_session=False)
    )
    return bool(getattr(result, "rowcount", 0) == 1)


def live(session: Session, expiry: timedelta, now: datetime | None = None) -> Holder | None:
    """The holder whose heartbeat is younger than ``expiry`` (by the store's clock), or None."""
    found = current(session)
    if found is None or found.heartbeat_at < (now or store_now(session)) - expiry:
        return None
    return found


def current(session: Session) -> Holder | None:
    """The row's holder (live or stale), or None while the lease is free."""
    row = session.scalar(select(RunnerLease).where(RunnerLease.name == RUNNER))
    if row is None or row.holder is None or row.since is None or row.heartbeat_at is None:
        return None
    return Holder(
        holder=row.holder,
        pid=int(row.pid or 0),
        host=row.host or "",
        kind=row.kind or "",
        since=row.since,
        heartbeat_at=row.heartbeat_at,
        pieces=dict(row.pieces or {}),
    )
