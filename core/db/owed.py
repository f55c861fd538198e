"""The queue of writes the app owes a remote service (``owed_writes``), kept in the store.

Kinds: ``drive_move`` (the customer's OneDrive folder follows a stage changed in the app; done by
the drive watcher) and ``outlook_categories`` (the stage category on his Outlook messages; done
by the mail round, ``core.app.graph_runtime``). Why a table and not a set in the watcher: the owner changes a stage from the board, ``ask``, the
command line or Telegram, and only the tray app had a watcher listening, in memory. A row added
in the same transaction as the change (``owe``) cannot be lost by a crash, a restart or a
process that does not talk to OneDrive; whichever process next does (the tray's drive round,
``sync --once``, the ``telegram`` runner) ``claim``s it, does the write and closes it with
``finish`` (done, or failed with the reason) or puts it back with ``retry_later`` (offline,
Graph down). A claim is a lease (``claimed_until``): a second process skips a claimed row, and a
killed process's claim runs out, so each write is done once. Closed rows stay: with the
``audit_log`` entry ``finish`` writes they are the audit of what was owed and what became of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import or_, select, update
from sqlalchemy.orm import Session

from core.clock import naive_utc
from core.db.models import AuditEntry, OwedWrite

DRIVE_MOVE = "drive_move"
CATEGORIES = "outlook_categories"  # the stage's category on the customer's Outlook messages
LEASE = timedelta(minutes=10)
ERROR_CHARS = 500


@dataclass(frozen=True)
class Claimed:
    """One owed write this process now holds (until its lease runs out)."""

    id: int
    kind: str
    inquiry_id: int | None
    attempts: int


def _naive(now: datetime) -> datetime:
    return naive_utc(now)


def owe(session: Session, kind: str, inquiry_id: int, reason: str, now: datetime) -> OwedWrite:
    """Queue a write in the caller's transaction; an unclaimed pending one for the same inquiry
    is reused (the write reads the inquiry's state when it is done, so one is enough)."""
    now = _naive(now)
    waiting = session.scalars(
        select(OwedWrite).where(
            OwedWrite.kind == kind,
            OwedWrite.inquiry_id == inquiry_id,
            OwedWrite.status == "pending",
            or_(OwedWrite.claimed_until.is_(None), OwedWrite.claimed_until < now),
        )
    ).first()
    if waiting is not None:
        waiting.reason = reason
        return waiting
    row = OwedWrite(
        kind=kind,
        inquiry_id=inquiry_id,
        status="pending",
        reason=reason,
        outcome="",
        attempts=0,
        created_at=now,
    )
    session.add(row)
    return row


def claim(session: Session, kind: str, now: datetime, limit: int = 50) -> list[Claimed]:
    """Take up to ``limit`` pending writes of ``kind`` whose lease is free, oldest first."""
    now = _naive(now)
    free = or_(OwedWrite.claimed_until.is_(None), OwedWrite.claimed_until < now)
    rows = session.scalars(
        select(OwedWrite)
        .where(OwedWrite.kind == kind, OwedWrite.status == "pending", free)
        .order_by(OwedWrite.id)
        .limit(limit)
    ).all()
    taken: list[Claimed] = []
    for row in rows:
        # conditional: another process that claimed it since the select wins, we skip it
        result: Any = session.execute(
            update(OwedWrite)
            .where(OwedWrite.id == row.id, OwedWrite.status == "pending", free)
            .values(claimed_until=now + LEASE, attempts=OwedWrite.attempts + 1)
            .execution_options(synchronize_session=False)
        )
        if result.rowcount == 1:
            taken.append(Claimed(row.id, row.kind, row.inquiry_id, row.attempts + 1))
    return taken


def finish(
    session: Session, owed_id: int, outcome: str, now: datetime, *, failed: bool = False
) -> None:
    """Close an owed write (done, or failed for good) and audit what became of it."""
    row = session.get(OwedWrite, owed_id)
    if row is None:
        return
    row.status = "failed" if failed else "done"
    row.outcome = outcome[:ERROR_CHARS]
    row.done_at = _naive(now)
    row.claimed_until = None
    session.add(
        AuditEntry(
            entity="inquiry",
            entity_id=row.inquiry_id,
            action=f"{row.kind}_{row.status}",
            detail={"owed_id": row.id, "outcome": row.outcome, "attempts": row.attempts},
            actor="sync",
            at=_naive(now),
        )
    )


def retry_later(session: Session, owed_id: int, error: str) -> None:
    """Give the claim back (offline, Graph down): the next round tries again."""
    row = session.get(OwedWrite, owed_id)
    if row is not None and row.status == "pending":
        row.claimed_until = None
        row.last_error = error[:ERROR_CHARS]


def owed_rows(session: Session, *, status: str | None = None) -> list[dict[str, Any]]:
    """The queue as plain records, oldest first (``owed --json``, the assistant's audit)."""
    query = select(OwedWrite).order_by(OwedWrite.id)
    if status is not None:
        query = query.where(OwedWrite.status == status)
    return [
        {
            "id": r.id,
            "kind": r.kind,
            "inquiry_id": r.inquiry_id,
            "status": r.status,
            "reason": r.reason,
            "outcome": r.outcome,
            "attempts": r.attempts,
            "last_error": r.last_error,
            "created_at": r.created_at.isoformat() + "Z",
            "done_at": r.done_at.isoformat() + "Z" if r.done_at else None,
        }
        for r in session.scalars(query)
    ]
