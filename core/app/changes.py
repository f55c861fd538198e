"""Live desks: changes any process makes to the store reach this process's views in seconds.

A desk (a desktop window over a store another process also writes: ``serve`` ingesting mail,
a second PC approving a draft, the CLI moving a stage) has no event from those processes; the
in-process bus only carries its own. ``ChangeFeed`` closes that gap by watching the store and
publishing one ``StoreChanged`` per change it finds, saying which rows changed (new inquiries,
changed inquiries, drafts and their status), so the views refresh those rows, never the page.

Two parts, so PostgreSQL can push instead of poll later:

* a ``ChangeSignal`` says "something may have changed": on SQLite ``PRAGMA data_version`` on a
  connection of its own (it moves when any other connection commits; a microsecond read); on
  PostgreSQL the next transaction id (it moves only when something was written); on other
  engines every poll says yes (a LISTEN/NOTIFY signal is the drop-in replacement);
* the feed then reads what changed since its watermarks (the highest inquiry id, the newest
  ``updated_at`` of inquiries and drafts, read from the store itself so writers' clocks do not
  matter), and publishes it. The watermark compares with ``>=``: a row written in the same
  instant as the last one seen is not missed. On PostgreSQL each row also carries the id of the
  transaction that last wrote it (``xmin``), so a row already seen at the watermark is not named
  again when nothing touched it -- the signal there moves for writes anywhere on the server, and
  "nothing changed" must still say nothing. Elsewhere such a row is seen again at worst, which a
  view shrugs off.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from sqlalchemy import Connection, String, func, literal_column, null, select, text
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from core import tasks
from core.db.models import Draft, Inquiry
from core.events import StoreChanged
from core.services import Services

log = logging.getLogger(__name__)

POLL_S = 1.0  # a change reaches the desk within about this (+ the board's 0.4 s debounce)


class ChangeSignal(Protocol):
    """Whether the store may have changed since the last call (blocking: call off the loop)."""

    def changed(self) -> bool: ...

    def close(self) -> None: ...


class DataVersion:
    """SQLite: ``PRAGMA data_version`` on one connection kept open for it."""

    def __init__(self, services: Services) -> None:
        self._conn: Connection = services.store.engine.connect()
        self._last: int | None = None

    def changed(self) -> bool:
        value = int(self._conn.execute(text("PRAGMA data_version")).scalar_one())
        self._conn.rollback()  # end the read transaction: the next read sees new commits
        moved = self._last is not None and value != self._last
        self._last = value
        return moved

    def close(self) -> None:
        self._conn.close()


class NextTransactionId:
    """PostgreSQL: the next transaction id the server will hand out. Only a transaction that
    writes is given one (reads are not), so it moves when anything was written -- in any
    database of the server, which costs a needless look at worst, never a missed change."""

    def __init__(self, services: Services) -> None:
        self._conn: Connection = services.store.engine.connect()
        self._last: int | None = None

    def changed(self) -> bool:
        value = int(
            self._conn.execute(
                text("SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint")
            ).scalar_one()
        )
        self._conn.rollback()
        moved = self._last is not None and value != self._last
        self._last = value
        return moved

    def close(self) -> None:
        self._conn.close()


class EveryPoll:
    """Any other engine, until it pushes (LISTEN/NOTIFY): look every poll."""

    def changed(self) -> bool:
        return True

    def close(self) -> None:
        """Nothing held."""


Seen = frozenset[tuple[int, str]]  # (row id, row version) of the rows at a watermark


@dataclass
class _Marks:
    inquiry_id: int = 0
    inquiry_at: datetime | None = None
    draft_at: datetime | None = None
    inquiry_seen: Seen = frozenset()
    draft_seen: Seen = frozenset()


def _version(session: Session, table: str) -> ColumnElement[str | None]:
    """The row's version where the engine keeps one (PostgreSQL's ``xmin``), else NULL."""
    if session.get_bind().dialect.name == "postgresql":
        return literal_column(f"{table}.xmin::text", String)
    return null().cast(String)


def _seen_at(
    rows: Sequence[Any], at: datetime | None, before: Seen, old_at: datetime | None
) -> Seen:
    """The versions of the rows written at watermark ``at`` (kept while the watermark stays)."""
    seen = {(r.id, r.version) for r in rows if r.updated_at == at and r.version is not None}
    return frozenset(seen | before) if at == old_at else frozenset(seen)


def _marks(session: Session) -> _Marks:
    marks = _Marks(
        inquiry_id=int(session.scalar(select(func.max(Inquiry.id))) or 0),
        inquiry_at=session.scalar(select(func.max(Inquiry.updated_at))),
        draft_at=session.scalar(select(func.max(Draft.updated_at))),
    )
    inq = session.execute(
        select(
            Inquiry.id, Inquiry.updated_at, _version(session, "inquiries").label("version")
        ).where(Inquiry.updated_at == marks.inquiry_at)
    ).all()
    drafts = session.execute(
        select(Draft.id, Draft.updated_at, _version(session, "drafts").label("version")).where(
            Draft.updated_at == marks.draft_at
        )
    ).all()
    marks.inquiry_seen = _seen_at(inq, marks.inquiry_at, frozenset(), None)
    marks.draft_seen = _seen_at(drafts, marks.draft_at, frozenset(), None)
    return marks


def _latest(mark: datetime | None, seen: list[datetime]) -> datetime | None:
    return max([d for d in (mark, *seen) if d is not None], default=None)


def _since(session: Session, marks: _Marks) -> tuple[StoreChanged, _Marks]:
    """What changed after ``marks``, and the new marks."""
    inq = select(Inquiry.id, Inquiry.updated_at, _version(session, "inquiries").label("version"))
    if marks.inquiry_at is not None:
        inq = inq.where((Inquiry.updated_at >= marks.inquiry_at) | (Inquiry.id > marks.inquiry_id))
    rows = session.execute(inq.order_by(Inquiry.id).limit(2000)).all()
    fresh = [r for r in rows if (r.id, r.version) not in marks.inquiry_seen]
    created = tuple(r.id for r in fresh if r.id > marks.inquiry_id)
    updated = tuple(r.id for r in fresh if r.id <= marks.inquiry_id)
    drafts_q = select(
        Draft.id, Draft.status, Draft.updated_at, _version(session, "drafts").label("version")
    )
    if marks.draft_at is not None:
        drafts_q = drafts_q.where(Draft.updated_at >= marks.draft_at)
    drafts = session.execute(drafts_q.order_by(Draft.id).limit(2000)).all()
    new_drafts = [r for r in drafts if (r.id, r.version) not in marks.draft_seen]
    inquiry_at = _latest(marks.inquiry_at, [r.updated_at for r in rows])
    draft_at = _latest(marks.draft_at, [r.updated_at for r in drafts])
    new = _Marks(
        inquiry_id=max([marks.inquiry_id, *(r.id for r in rows)]),
        inquiry_at=inquiry_at,
        draft_at=draft_at,
        inquiry_seen=_seen_at(rows, inquiry_at, marks.inquiry_seen, marks.inquiry_at),
        draft_seen=_seen_at(drafts, draft_at, marks.draft_seen, marks.draft_at),
    )
    change = StoreChanged(
        created=created, updated=updated, drafts=tuple((r.id, r.status) for r in new_drafts)
    )
    return change, new


class ChangeFeed:
    """Watch the store and publish ``StoreChanged`` on this process's bus (``App.changes``)."""

    def __init__(self, services: Services) -> None:
        self._services = services
        self.published = 0

    def _signal(self) -> ChangeSignal:
        name = self._services.store.engine.dialect.name
        if name == "sqlite":
            return DataVersion(self._services)
        if name == "postgresql":
            return NextTransactionId(self._services)
        return EveryPoll()

    async def run_forever(self, stop: asyncio.Event, poll_s: float = POLL_S) -> None:
        """Until ``stop``: look every ``poll_s``, publish what changed."""
        store = self._services.store
        signal = await tasks.io(self._signal)
        try:
            await tasks.io(signal.changed)  # the starting value
            marks = await store.read(_marks)
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), poll_s)
                if stop.is_set():
                    return
                try:
                    if not await tasks.io(signal.changed):
                        continue
                    change, marks = await store.read(functools.partial(_since, marks=marks))
                except Exception as exc:  # a busy or lost database: look again next poll
                    log.info("change feed: %s", exc)
                    continue
                if change.created or change.updated or change.drafts:
                    self.published += 1
                    self._services.bus.publish(change)
        finally:
            await tasks.io(signal.close)
