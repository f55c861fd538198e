"""The assistant's memories as the owner sees them: listed by kind, edited, retired, confirmed.

Why a facade: a memory is read by every later prompt, so the owner must be able to see what the
assistant "knows" and correct it — from the desktop's memory page as from ``memories`` on the
command line. The moves are those of ``core.agent.memory`` (confirm a proposal, retire), audited
the same way (``audit_log``, entity ``memory``, actor ``owner``); editing is added here: the text
changes in place and the audit entry keeps the previous words (tidied, never silently lost).
Every method is a coroutine: writes go through the store's writer lock off the event loop.
"""

from __future__ import annotations

import builtins
from collections.abc import Sequence
from typing import Any

from sqlalchemy.orm import Session

from core import tasks
from core.agent.memory import (
    MemoryItem,
    MemoryStateError,
    confirm_memory,
    item_of,
    list_memories,
    retire_memory,
)
from core.clock import naive_utc
from core.db.models import AuditEntry, Inquiry, Memory
from core.events import InquiryUpdated, NoteAdded
from core.memory.expiry import expire_due
from core.services import Services

__all__ = [
    "EDITABLE_STATUSES",
    "KINDS",
    "PAGE_STATUSES",
    "SHOWN_STATUSES",
    "MemoryItem",
    "MemoryService",
    "MemoryStateError",
]

KINDS: tuple[str, ...] = ("boss_pref", "customer_note", "business_rule", "experience")
# what the memory page lists: what is used, and what waits for the owner's word
SHOWN_STATUSES: tuple[str, ...] = ("proposed", "active")
EDITABLE_STATUSES = SHOWN_STATUSES  # what the owner may reword
# the memory page also lists what ran out (short-term memories past their day), greyed
PAGE_STATUSES: tuple[str, ...] = ("proposed", "active", "expired")


class MemoryService:
    """List memories by kind; edit, retire and confirm them as the owner."""

    def __init__(self, services: Services) -> None:
        self._services = services

    async def list(
        self,
        *,
        kinds: Sequence[str] | None = None,
        statuses: Sequence[str] | None = SHOWN_STATUSES,
    ) -> builtins.list[MemoryItem]:
        """Memories, oldest first; ``statuses=None`` lists every status (retired too). What has
        run out is marked ``expired`` first, so the list says so."""
        wanted = tuple(statuses) if statuses else None
        now = self._services.clock.now()
        await self._services.store.run(lambda s: expire_due(s, now))
        items = await self._services.store.read(lambda s: list_memories(s, wanted))
        if kinds is None:
            return items
        return [i for i in items if i.kind in set(kinds)]

    async def by_kind(
        self, statuses: Sequence[str] | None = SHOWN_STATUSES
    ) -> dict[str, builtins.list[MemoryItem]]:
        """``{kind: [memories]}`` for every kind in ``KINDS`` (empty lists included), then any
        other kind found in the store."""
        grouped: dict[str, builtins.list[MemoryItem]] = {k: [] for k in KINDS}
        for item in await self.list(statuses=statuses):
            grouped.setdefault(item.kind, []).append(item)
        return grouped

    async def confirm(self, memory_id: int, *, actor: str = "owner") -> MemoryItem:
        """A proposed memory becomes active (the owner's word: high confidence)."""
        return await tasks.io(confirm_memory, self._services, memory_id, actor=actor)

    async def retire(self, memory_id: int, *, actor: str = "owner") -> MemoryItem:
        """The memory stops being used; it stays in the store with who retired it."""
        return await tasks.io(retire_memory, self._services, memory_id, actor=actor)

    async def edit(self, memory_id: int, text: str, *, actor: str = "owner") -> MemoryItem:
        """New words for a memory; the audit entry keeps the old ones."""
        text = text.strip()
        if not text:
            raise MemoryStateError("记忆内容为空 / the memory is empty")
        now = naive_utc(self._services.clock.now())  # as core.agent.memory stamps

        def do(session: Session) -> tuple[MemoryItem, int | None]:
            memory = session.get(Memory, memory_id)
            if memory is None:
                raise MemoryStateError(
                    f"记忆 {memory_id} 不存在 / memory {memory_id} does not exist"
                )
            if memory.status not in EDITABLE_STATUSES:
                raise MemoryStateError(
                    f"记忆 {memory_id} 已是「{memory.status}」，不能修改 / memory {memory_id} is "
                    f"already {memory.status} and cannot be changed"
                )
            previous = memory.text
            if previous == text:
                return _item(session, memory), None
            memory.text = text
            memory.updated_at = now
            session.add(
                AuditEntry(
                    entity="memory",
                    entity_id=memory.id,
                    action="memory_edited",
                    detail={"previous": previous},
                    actor=actor,
                    at=now,
                )
            )
            _follow_note_copy(session, memory, text)
            return _item(session, memory), memory.inquiry_id

        item, inquiry_id = await self._services.store.run(do)
        self._services.bus.publish(NoteAdded(note_id=memory_id, inquiry_id=inquiry_id))
        if inquiry_id is not None:
            self._services.bus.publish(InquiryUpdated(inquiry_id, ("notes",)))
        return item


def _item(session: Session, memory: Memory) -> MemoryItem:
    session.flush()
    return item_of(session, memory)


def _follow_note_copy(session: Session, memory: Memory, text: str) -> None:
    """A customer note is also kept on its inquiry (``context_data["notes"]``, read by the
    drafting prompts): the copy follows the edit."""
    if memory.inquiry_id is None:
        return
    inquiry = session.get(Inquiry, memory.inquiry_id)
    if inquiry is None:
        return
    context: dict[str, Any] = dict(inquiry.context_data or {})
    notes = [dict(n) for n in context.get("notes") or []]
    changed = False
    for note in notes:
        if note.get("id") == memory.id:
            note["text"] = text
            changed = True
    if changed:
        context["notes"] = notes
        inquiry.context_data = context  # reassign: JSON columns do not track in-place edits
