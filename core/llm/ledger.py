"""The LLM call ledger (table ``llm_calls``): every model call, successful or not.

Why: principle 4 of the design, "every call is in a ledger". The owner sees cost per inquiry;
the intake benchmark counts calls per tier from here; a failed or repaired answer leaves a row
with ``ok = False`` and the error, so nothing about AI spending is invisible.
Rows are written through the store's serialised writer (``Store.write`` on a pool thread), never
from the event loop.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.clock import naive_utc
from core.db.models import LLMCall
from core.db.store import Store

if TYPE_CHECKING:
    from core.llm.model import LedgerRefs

REF_KEYS = ("message_pk", "inquiry_id", "draft_id")


@dataclass(frozen=True)
class LedgerEntry:
    at: datetime
    tier: int
    model: str
    purpose: str
    prompt_tokens: int
    completion_tokens: int
    latency_ms: int
    cost_usd: float
    ok: bool
    error: str | None
    refs: LedgerRefs


def _row(entry: LedgerEntry) -> LLMCall:
    refs = {k: entry.refs.get(k) for k in REF_KEYS}
    return LLMCall(
        at=naive_utc(entry.at),
        tier=entry.tier,
        model=entry.model[:200],
        purpose=entry.purpose[:64],
        prompt_tokens=entry.prompt_tokens,
        completion_tokens=entry.completion_tokens,
        latency_ms=entry.latency_ms,
        cost_usd=entry.cost_usd,
        ok=entry.ok,
        error=(entry.error or None) and entry.error[:2000],
        **{k: (int(v) if v is not None else None) for k, v in refs.items()},
    )


async def record(store: Store, entry: LedgerEntry) -> int:
    """Append one row; returns its id."""

    def write(session: Session) -> int:
        row = _row(entry)
        session.add(row)
        session.flush()
        return row.id

    return await store.run(write)


class LedgerWriter:
    """Group-commits ledger rows: calls finishing together share one transaction.

    Why: at 10 concurrent calls a commit per row would queue hundreds of tiny transactions on
    the store's single writer thread, in front of the pipeline's own writes. Each caller still
    awaits its row id (needed to flip a row to failed after a schema break).
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pending: list[tuple[LedgerEntry, asyncio.Future[int]]] = []
        self._task: asyncio.Task[None] | None = None

    async def record(self, entry: LedgerEntry) -> int:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        self._pending.append((entry, future))
        if self._task is None or self._task.done():
            self._task = loop.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []

            def write(
                session: Session, batch: list[tuple[LedgerEntry, asyncio.Future[int]]] = batch
            ) -> list[int]:
                rows = [_row(entry) for entry, _ in batch]
                session.add_all(rows)
                session.flush()
                return [row.id for row in rows]

            try:
                # not queued on the writer thread: a ledger row then waits for at most the one
                # transaction in progress, not behind every merge batch queued there; intake
                # messages await their row between the classify and extract calls.
                ids = await self.store.run(write, queued=False)
            except Exception as exc:
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            for (_, future), row_id in zip(batch, ids, strict=True):
                if not future.done():
                    future.set_result(row_id)


async def mark_failed(store: Store, row_id: int, error: str) -> None:
    """Flip a row to failed (an answer that arrived but broke its schema)."""

    def write(session: Session) -> None:
        row = session.get(LLMCall, row_id)
        if row is not None:
            row.ok = False
            row.error = error[:2000]

    await store.run(write)


def calls_by_tier(session: Session, *, purpose_prefix: str | None = None) -> dict[int, int]:
    """Number of calls per tier (the benchmark's "LLM calls per message by tier")."""
    query = select(LLMCall.tier, func.count()).group_by(LLMCall.tier)
    if purpose_prefix:
        query = query.where(LLMCall.purpose.startswith(purpose_prefix))
    return {int(tier): int(n) for tier, n in session.execute(query)}


@dataclass(frozen=True)
class LedgerTotals:
    calls: int
    failed: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float


def totals(session: Session, **refs: int) -> LedgerTotals:
    """Totals over the ledger, optionally for one message/inquiry/draft (``inquiry_id=3``)."""
    query = select(
        func.count(),
        func.sum(func.iif(LLMCall.ok, 0, 1)),
        func.coalesce(func.sum(LLMCall.prompt_tokens), 0),
        func.coalesce(func.sum(LLMCall.completion_tokens), 0),
        func.coalesce(func.sum(LLMCall.cost_usd), 0.0),
    )
    for key, value in refs.items():
        if key not in REF_KEYS:
            raise ValueError(f"unknown ledger ref {key}")
        query = query.where(getattr(LLMCall, key) == value)
    calls, failed, p_tok, c_tok, cost = session.execute(query).one()
    return LedgerTotals(int(calls), int(failed or 0), int(p_tok), int(c_tok), float(cost))
