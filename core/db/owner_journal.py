"""A record of the owner's work outside the database, so ``repair`` can say what came back.

Restore is made complete by backups (``core.db.backup``: one whenever the store changed, taken
debounced while an app runs and always when a store closes). This journal is the check on that
promise: every committed change a person made -- a draft's move (created, edited, approved,
sent), a stage change, an audited edit (fields, notes, memories, attention items), a new memory
-- is appended to ``<data folder>/owner.journal`` (JSON lines, fsynced, never replaced by a
restore). After a restore ``repair`` looks up each journalled item in the restored database and
names, in Chinese, every one it cannot find, so nothing is lost silently.

Why not replay it: ids and merges of inquiries re-ingested from raw mail can differ from the
lost ones, and a replay would have to re-run every service's rules on guessed ids. Frequent
backups lose nothing a replay would bring back, at a measured cost (``benchmarks``), and this
journal proves it item by item.

Settings live in ``settings.toml`` beside the database and are never replaced by a restore.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import event, func, select
from sqlalchemy.orm import Session, UOWTransaction, sessionmaker

from core.db.journal_file import append_fsynced
from core.db.models import AuditEntry, DraftEvent, Memory, StageEvent

log = logging.getLogger(__name__)

JOURNAL_NAME = "owner.journal"
MACHINE_ACTORS = frozenset({"pipeline", "system"})
RECENT_LINES = 20_000  # the newest lines checked after a restore
_PENDING = "owner_journal_items"

_KIND_ZH = {"draft": "草稿", "stage": "阶段变更", "audit": "修改", "memory": "记忆/备注"}
_KIND_EN = {"draft": "draft", "stage": "stage change", "audit": "change", "memory": "memory/note"}


@dataclass(frozen=True)
class OwnerItem:
    """One journalled piece of the owner's work and where to find it in the store."""

    kind: str  # draft | stage | audit | memory
    key: dict[str, Any]
    label: str  # ids, codes and the owner's own words: the same in either language
    at: str

    def line_zh(self) -> str:
        return f"{_KIND_ZH.get(self.kind, self.kind)}：{self.label}（{self.at[:16].replace('T', ' ')}）"

    def line_en(self) -> str:
        return (
            f"{_KIND_EN.get(self.kind, self.kind)}: {self.label} ({self.at[:16].replace('T', ' ')})"
        )


def _snippet(text: str, size: int = 30) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= size else text[: size - 1] + "…"


def _item_of(obj: object) -> OwnerItem | None:
    """The journal item for a new row, or None when a machine made it (raw mail rebuilds it)."""
    if isinstance(obj, DraftEvent) and obj.actor not in MACHINE_ACTORS:
        key = {"draft_id": obj.draft_id, "to_status": obj.to_status, "at": obj.at.isoformat()}
        label = f"#{obj.draft_id} {obj.from_status or 'new'} → {obj.to_status}"
        return OwnerItem("draft", key, label, obj.at.isoformat())
    if isinstance(obj, StageEvent) and obj.triggered_by not in MACHINE_ACTORS:
        key = {"inquiry_id": obj.inquiry_id, "to_stage": obj.to_stage, "at": obj.at.isoformat()}
        label = f"inquiry #{obj.inquiry_id} {obj.from_stage or ''} → {obj.to_stage}"
        return OwnerItem("stage", key, label, obj.at.isoformat())
    if isinstance(obj, AuditEntry) and obj.actor not in MACHINE_ACTORS:
        key = {
            "entity": obj.entity,
            "entity_id": obj.entity_id,
            "action": obj.action,
            "at": obj.at.isoformat(),
        }
        detail = obj.detail or {}
        named = [detail["field"]] if isinstance(detail.get("field"), str) else []
        fields = ", ".join(named or sorted(detail.get("changes", {}) or {}))
        label = f"{obj.entity} #{obj.entity_id} {obj.action}" + (f" ({fields})" if fields else "")
        return OwnerItem("audit", key, label, obj.at.isoformat())
    if isinstance(obj, Memory) and obj.source not in MACHINE_ACTORS:
        key = {"kind": obj.kind, "created_at": obj.created_at.isoformat()}
        where = f"inquiry #{obj.inquiry_id} " if obj.inquiry_id else ""
        label = f'{where}{obj.kind} "{_snippet(obj.text)}"'
        return OwnerItem("memory", key, label, obj.created_at.isoformat())
    return None


class OwnerJournal:
    """Append-only JSON lines of ``OwnerItem``s (one ``write`` per commit, fsynced)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()

    @classmethod
    def for_home(cls, home: Path) -> OwnerJournal:
        return cls(home / JOURNAL_NAME)

    def append(self, items: list[OwnerItem]) -> None:
        if not items:
            return
        data = "".join(
            json.dumps(
                {"kind": i.kind, "key": i.key, "label": i.label, "at": i.at},
                ensure_ascii=False,
                separators=(",", ":"),
            )
            + "\n"
            for i in items
        ).encode("utf-8")
        with self._lock:
            append_fsynced(self.path, data)

    def recent(self, limit: int = RECENT_LINES) -> list[OwnerItem]:
        """The newest ``limit`` readable items, oldest first (torn lines skipped)."""
        try:
            lines = self.path.read_bytes().splitlines()[-limit:]
        except FileNotFoundError:
            return []
        items = []
        for line in lines:
            with contextlib.suppress(ValueError, TypeError, KeyError):
                data = json.loads(line)
                items.append(OwnerItem(data["kind"], data["key"], data["label"], data["at"]))
        return items


def install(sessions: sessionmaker[Session], journal: OwnerJournal) -> None:
    """Journal every committed owner change made through ``sessions``."""

    def after_flush(session: Session, _context: UOWTransaction) -> None:
        found = [item for obj in session.new if (item := _item_of(obj)) is not None]
        if found:
            session.info.setdefault(_PENDING, []).extend(found)

    def after_commit(session: Session) -> None:
        items = session.info.pop(_PENDING, [])
        try:
            journal.append(items)
        except OSError as exc:  # the change is committed; only the later report is poorer
            log.warning("owner journal: %d item(s) not recorded: %s", len(items), exc)

    def after_rollback(session: Session) -> None:
        session.info.pop(_PENDING, None)

    event.listen(sessions, "after_flush", after_flush)
    event.listen(sessions, "after_commit", after_commit)
    event.listen(sessions, "after_rollback", after_rollback)


def _at(value: str) -> datetime:
    return datetime.fromisoformat(value)


def present(session: Session, item: OwnerItem) -> bool:
    """Whether ``item`` is in the store (looked up by its key, not by a guessed id)."""
    k = item.key
    if item.kind == "draft" and k["to_status"] in ("sending", "sent"):
        # a send the store forgot is settled from the send journal (a new audit row): the
        # owner's work is there when the draft shows ``sent``
        from core.db.models import Draft

        draft = session.get(Draft, k["draft_id"])
        if draft is not None and draft.status == "sent":
            return True
    if item.kind == "draft":
        query = select(func.count(DraftEvent.id)).where(
            DraftEvent.draft_id == k["draft_id"],
            DraftEvent.to_status == k["to_status"],
            DraftEvent.at == _at(k["at"]),
        )
    elif item.kind == "stage":
        query = select(func.count(StageEvent.id)).where(
            StageEvent.inquiry_id == k["inquiry_id"],
            StageEvent.to_stage == k["to_stage"],
            StageEvent.at == _at(k["at"]),
        )
    elif item.kind == "audit":
        query = select(func.count(AuditEntry.id)).where(
            AuditEntry.entity == k["entity"],
            AuditEntry.entity_id == k["entity_id"],
            AuditEntry.action == k["action"],
            AuditEntry.at == _at(k["at"]),
        )
    elif item.kind == "memory":
        query = select(func.count(Memory.id)).where(
            Memory.kind == k["kind"], Memory.created_at == _at(k["created_at"])
        )
    else:
        return True
    return bool(session.scalar(query))


def check_restored(
    session: Session, journal: OwnerJournal
) -> tuple[list[OwnerItem], list[OwnerItem]]:
    """(found, missing): every recent journalled item looked up in the restored store."""
    found: list[OwnerItem] = []
    missing: list[OwnerItem] = []
    for item in journal.recent():
        (found if present(session, item) else missing).append(item)
    return found, missing


__all__ = ["JOURNAL_NAME", "OwnerItem", "OwnerJournal", "check_restored", "install", "present"]
