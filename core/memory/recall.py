"""Which memories a prompt reads, within its budget, and the record that it read them.

Why one place: the drafting prompt and the assistant's prompt must agree on what "in use"
means — active, not run out (``expires_at`` in the future; ``expire_due`` flips the rest to
``expired`` before a prompt is built) — and a customer's memories must reach *that customer's*
prompts only. A prompt holds at most ``budget`` characters of memories, most relevant first:
this inquiry's own, then the same customer's other inquiries', then what was said most often,
then the newest. What a prompt used is stamped on the memory (``last_used_at``,
``last_used_in``: ``draft:12``, ``assistant:telegram``) so the memory page can say where.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import utc
from core.db.models import Memory
from core.memory.links import customer_inquiry_ids

__all__ = ["customer_memories", "fit", "mark_used", "standing_memories"]

ITEM_CHARS = 600  # one memory, at most


def _live(query, now: datetime | None):  # type: ignore[no-untyped-def]
    query = query.where(Memory.status == "active")
    if now is not None:
        moment = utc(now).replace(tzinfo=None)
        query = query.where(Memory.expires_at.is_(None) | (Memory.expires_at > moment))
    return query


def standing_memories(
    session: Session, kinds: Sequence[str], now: datetime | None = None
) -> list[Memory]:
    """The owner's memories about no one customer, of ``kinds``, oldest first (a stable
    order: the prompt's prefix stays the same from turn to turn)."""
    query = _live(select(Memory), now).where(
        Memory.kind.in_(tuple(kinds)), Memory.inquiry_id.is_(None)
    )
    return list(session.scalars(query.order_by(Memory.id)))


def customer_memories(
    session: Session, inquiry_id: int | None, now: datetime | None = None
) -> list[Memory]:
    """What the owner's memories say about the customer of ``inquiry_id``, most relevant first."""
    if inquiry_id is None:
        return []
    ids = customer_inquiry_ids(session, inquiry_id)
    rows = list(session.scalars(_live(select(Memory), now).where(Memory.inquiry_id.in_(ids))))
    rank = {inquiry: i for i, inquiry in enumerate(ids)}
    rows.sort(key=lambda m: (rank.get(m.inquiry_id or 0, len(ids)), -(m.seen_count or 1), -m.id))
    return rows


def fit(rows: Iterable[Memory], budget: int) -> list[Memory]:
    """The first rows whose text (one line each, cut to ``ITEM_CHARS``) fits ``budget``."""
    kept: list[Memory] = []
    used = 0
    for memory in rows:
        size = min(len(memory.text), ITEM_CHARS) + 24  # the label and the line's frame
        if used + size > budget:
            break
        kept.append(memory)
        used += size
    return kept


def mark_used(session: Session, ids: Iterable[int], used_in: str, now: datetime) -> None:
    """Stamp where and when these memories were read by a prompt."""
    wanted = sorted(set(ids))
    if not wanted:
        return
    moment = utc(now).replace(tzinfo=None)
    for memory in session.scalars(select(Memory).where(Memory.id.in_(wanted))):
        memory.last_used_at = moment
        memory.last_used_in = used_in[:60]
