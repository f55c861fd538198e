"""Items that need the owner's judgement (需要您确认), recorded from ``NeedsAttention`` events.

The pipeline publishes ``NeedsAttention`` when it guessed: a low-confidence classification or
extraction (``low_confidence``, on an inquiry), a merge the rules were unsure of (``merge_unsure``:
joined to an inquiry by phone number alone), a message the model could not understand
(``failed``, on a message), a message the rules filed because the model could not be used
(``model_unusable``, on a message). Until now nobody listened, so those guesses looked as certain as
any other. ``AttentionRecorder`` writes each one down; the board marks and filters them, the
evening briefing lists them, and one click resolves them (confirm, or correct, then the item is
closed with an audit entry).

Stored as ``app_state`` rows keyed ``attention:<kind>:<ref_type>:<ref_id>`` (one per thing; the
same event again only refreshes its detail) with ``status`` ``open`` or the owner's resolution —
resolved items are kept, never deleted, so a later repeat of the same guess stays resolved.
Transient states (``llm_pending``: the model will be asked again) are not recorded.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import Clock, naive_utc
from core.db.app_state import get_state, put_state
from core.db.attention_rows import PREFIX
from core.db.models import AppState, AuditEntry, Inquiry, Message
from core.events import EventBus, InquiryUpdated, NeedsAttention

if TYPE_CHECKING:
    from core.db.store import Store

log = logging.getLogger(__name__)

KINDS: dict[str, tuple[str, str]] = {  # kind -> (Chinese, English) of what he is asked to check
    "low_confidence": ("分类/提取把握不大", "Low-confidence classification or extraction"),
    "merge_unsure": ("合并不确定（仅凭电话号码）", "Merged on the phone number alone"),
    "failed": ("模型没看懂这封邮件", "The model could not understand this email"),
    "model_unusable": (
        "AI 模型无法使用，这封邮件已按规则归档，请确认",
        "The AI model could not be used; this email was filed by the rules, please check",
    ),
    "complaint": (
        "客户可能在投诉或要求退款：请您亲自处理",
        "The customer may be complaining or asking for a refund: handle it yourself",
    ),
}
RESOLUTIONS = ("confirmed", "corrected", "dismissed")


@dataclass(frozen=True)
class AttentionItem:
    """One open (or resolved) item, as the board, the briefing and Telegram show it."""

    key: str
    kind: str
    ref_type: str
    ref_id: int | None
    inquiry_id: int | None
    detail: str
    at: str  # ISO UTC
    status: str  # open | confirmed | corrected | dismissed
    label: str = ""  # customer name, or the message's sender and subject

    @property
    def title_zh(self) -> str:
        return KINDS.get(self.kind, (self.kind, self.kind))[0]

    @property
    def title_en(self) -> str:
        return KINDS.get(self.kind, (self.kind, self.kind))[1]

    def as_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "kind": self.kind,
            "ref_type": self.ref_type,
            "ref_id": self.ref_id,
            "inquiry_id": self.inquiry_id,
            "detail": self.detail,
            "at": self.at,
            "status": self.status,
            "label": self.label,
            "title_zh": self.title_zh,
        }


def key_of(kind: str, ref_type: str, ref_id: int | None) -> str:
    return f"{PREFIX}{kind}:{ref_type}:{ref_id if ref_id is not None else '-'}"


def record(session: Session, event: NeedsAttention, now: datetime) -> str | None:
    """Write one event down; the key, or None when the kind is not a judgement call."""
    if event.kind not in KINDS:
        return None
    key = key_of(event.kind, event.ref_type, event.ref_id)
    inquiry_id = event.ref_id if event.ref_type == "inquiry" else None
    if event.ref_type == "message" and event.ref_id is not None:
        message = session.get(Message, event.ref_id)
        inquiry_id = message.inquiry_id if message is not None else None
    old = get_state(session, key)
    if old is not None and old.get("status") != "open":
        return key  # he already decided about this one
    value = {
        "kind": event.kind,
        "ref_type": event.ref_type,
        "ref_id": event.ref_id,
        "inquiry_id": inquiry_id,
        "detail": (event.detail or "")[:500],
        "at": (old or {}).get("at") or naive_utc(now).isoformat() + "Z",
        "status": "open",
    }
    put_state(session, key, value, now)
    return key


def _label(session: Session, value: dict[str, Any]) -> str:
    if value.get("inquiry_id"):
        inquiry = session.get(Inquiry, value["inquiry_id"])
        if inquiry is not None:
            return str(inquiry.customer_name or inquiry.customer_email or f"#{inquiry.id}")
    if value.get("ref_type") == "message" and value.get("ref_id") is not None:
        message = session.get(Message, value["ref_id"])
        if message is not None:
            who = message.from_name or message.from_addr or ""
            return f"{who}：{message.subject}".strip("：")
    return ""


def _item(session: Session, row: AppState) -> AttentionItem:
    value = dict(row.value or {})
    return AttentionItem(
        key=row.key,
        kind=str(value.get("kind", "")),
        ref_type=str(value.get("ref_type", "")),
        ref_id=value.get("ref_id"),
        inquiry_id=value.get("inquiry_id"),
        detail=str(value.get("detail", "")),
        at=str(value.get("at", "")),
        status=str(value.get("status", "open")),
        label=_label(session, value),
    )


def items(session: Session, *, open_only: bool = True) -> list[AttentionItem]:
    """Recorded items, oldest first (open ones only unless asked)."""
    rows = session.scalars(select(AppState).where(AppState.key.startswith(PREFIX)))
    found = [_item(session, r) for r in rows]
    if open_only:
        found = [i for i in found if i.status == "open"]
    return sorted(found, key=lambda i: (i.at, i.key))


def open_inquiry_ids(session: Session) -> set[int]:
    """Inquiries with at least one open item (the board's 需要您确认 marker and filter)."""
    return {i.inquiry_id for i in items(session) if i.inquiry_id is not None}


def resolve(
    session: Session, key: str, resolution: str, now: datetime, *, actor: str = "owner"
) -> AttentionItem | None:
    """Close an open item with the owner's decision (audited); None if unknown or not open."""
    if resolution not in RESOLUTIONS:
        raise ValueError(f"unknown resolution {resolution!r}")
    row = session.get(AppState, key)
    if row is None or not key.startswith(PREFIX) or (row.value or {}).get("status") != "open":
        return None
    value = dict(row.value)
    value["status"] = resolution
    value["resolved_at"] = naive_utc(now).isoformat() + "Z"
    put_state(session, key, value, now)
    inquiry_id = value.get("inquiry_id")
    if resolution == "confirmed" and value.get("kind") == "low_confidence" and inquiry_id:
        inquiry = session.get(Inquiry, inquiry_id)
        if inquiry is not None and inquiry.confidence != "high":
            inquiry.confidence = "high"  # a person stated it now (DESIGN principle 7)
    session.add(
        AuditEntry(
            entity="inquiry" if inquiry_id else str(value.get("ref_type") or "message"),
            entity_id=inquiry_id or value.get("ref_id"),
            action=f"attention_{resolution}",
            detail={"key": key, "kind": value.get("kind"), "detail": value.get("detail")},
            actor=actor,
            at=naive_utc(now),
        )
    )
    session.flush()
    return _item(session, row)


class AttentionRecorder:
    """Listens to ``NeedsAttention`` and writes each judgement call down.

    By default (the CLI, tests) the row is written before ``publish`` returns. With
    ``background=True`` (the desktop, like its notification centre) the write goes to the store's
    writer thread instead — the intake pipeline publishes on the UI thread, and waiting there
    behind an ingest batch's commit would freeze the window — and an
    ``InquiryUpdated(id, ("attention",))`` follows it so the board repaints the row.
    ``drain()`` waits for writes in flight.
    """

    def __init__(self, store: Store, clock: Clock, bus: EventBus | None = None) -> None:
        self.store = store
        self.clock = clock
        self.bus = bus
        self._unsubscribe: Callable[[], None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.background = False

    def attach(self, bus: EventBus, *, background: bool = False) -> AttentionRecorder:
        self.bus = bus
        self.background = background
        if self._unsubscribe is None:
            self._unsubscribe = bus.subscribe(NeedsAttention, self.on_event)
        return self

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def on_event(self, event: NeedsAttention) -> None:
        if event.kind not in KINDS:
            return
        now = self.clock.now()
        try:
            loop = asyncio.get_running_loop() if self.background else None
        except RuntimeError:
            loop = None
        if loop is None:
            self._written(self.store.write(lambda s: _record_with_inquiry(s, event, now)), event)
            return
        task = loop.create_task(self._record_async(event, now))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _record_async(self, event: NeedsAttention, now: datetime) -> None:
        written = await self.store.run(lambda s: _record_with_inquiry(s, event, now))
        self._written(written, event)
        if written[1] is not None and self.bus is not None:
            self.bus.publish(InquiryUpdated(written[1], ("attention",)))

    @staticmethod
    def _written(written: tuple[str | None, int | None], event: NeedsAttention) -> None:
        log.info("needs the owner's judgement: %s (%s)", written[0], event.detail[:80])

    async def drain(self) -> None:
        """Wait until every event recorded so far is in the store."""
        loop = asyncio.get_running_loop()
        while True:
            pending = [t for t in self._tasks if not t.done() and t.get_loop() is loop]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)


def _record_with_inquiry(
    session: Session, event: NeedsAttention, now: datetime
) -> tuple[str | None, int | None]:
    key = record(session, event, now)
    value = get_state(session, key) if key else None
    return key, (value or {}).get("inquiry_id")
