"""A small typed, in-process event bus: core publishes, the desktop and Telegram subscribe.

Events are published *after* the data they describe is committed, so a subscriber may always read
it back. Handlers run synchronously in the publisher's thread; the desktop's signal hub re-emits
them as queued Qt signals, so widgets only ever change on the UI thread. A failing handler is
logged and never breaks the publisher (the pipeline must not lose a message to a UI bug).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar, cast

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Event:
    """Base class; subscribe to it to receive everything."""


@dataclass(frozen=True)
class InquiryCreated(Event):
    inquiry_id: int
    message_pk: int | None = None


@dataclass(frozen=True)
class InquiryUpdated(Event):
    inquiry_id: int
    fields: tuple[str, ...] = ()


@dataclass(frozen=True)
class MessageMerged(Event):
    inquiry_id: int
    message_pk: int


@dataclass(frozen=True)
class MessageRecorded(Event):
    """Any message got (or changed) its disposition."""

    message_pk: int
    disposition: str


@dataclass(frozen=True)
class NeedsAttention(Event):
    """Something the owner should look at (pending LLM, failed parse, low confidence…)."""

    kind: str
    ref_type: str
    ref_id: int | None
    detail: str = ""


@dataclass(frozen=True)
class StageChanged(Event):
    inquiry_id: int
    from_stage: str | None
    to_stage: str
    triggered_by: str
    reason: str = ""


@dataclass(frozen=True)
class StageOverdue(Event):
    inquiry_id: int
    stage: str
    days: int  # working days in the stage
    round: str = ""  # "" for the first reminder of a stage entry; the snooze's end after one


@dataclass(frozen=True)
class DraftChanged(Event):
    draft_id: int
    inquiry_id: int | None
    status: str


@dataclass(frozen=True)
class SyncStatus(Event):
    """A sync or sign-in problem (or its recovery). ``ok=False`` raises a notification."""

    source: str  # "mail" | "drive" | "auth" | "telegram" | "llm"
    ok: bool
    code: str = ""
    detail: str = ""
    # the owner's whole sentence when the error builds its own (a connection failure that
    # names its server: ``core.errors.server_sentence``); shown as it is, not inside the template
    sentence: str = ""


class DiskFigures(Protocol):
    """What a round's spool budget measured (``core.mail.spool_budget.DiskShort``)."""

    @property
    def waiting(self) -> int: ...
    @property
    def need_bytes(self) -> int: ...
    @property
    def free_bytes(self) -> int: ...


@dataclass(frozen=True)
class MailWaiting(Event):
    """After a mail round: how much mail it left for later because the disk was nearly full
    (``core.mail.spool_budget``). ``waiting=0``: none — a round went by with room, so the
    condition, if it was open, is over. The owner is told once per condition, not every round."""

    waiting: int  # mails left for the next round
    need_bytes: int = 0  # free space the first of them needs
    free_bytes: int = 0  # free space there was

    @classmethod
    def after_round(cls, disk: DiskFigures | None) -> MailWaiting:
        """From a round report's ``disk`` (a ``core.mail.spool_budget.DiskShort``, or None when
        the disk had room): published by each mailbox runtime's ``mail_round`` itself, so the
        tray's scheduler, IMAP's watch and ``sync --once`` all tell the owner alike."""
        if disk is None:
            return cls(0)
        return cls(disk.waiting, disk.need_bytes, disk.free_bytes)


@dataclass(frozen=True)
class NoteAdded(Event):
    note_id: int
    inquiry_id: int | None


E = TypeVar("E", bound=Event)


class EventBus:
    def __init__(self) -> None:
        self._handlers: list[tuple[type[Event], Callable[[Event], None]]] = []
        self._lock = threading.Lock()

    def subscribe(self, event_type: type[E], handler: Callable[[E], None]) -> Callable[[], None]:
        """Register ``handler`` for ``event_type`` (and subclasses); returns an unsubscribe."""
        # ``publish`` calls it only with an instance of ``event_type``: stored as a handler of
        # any event, the one list holds them all
        entry = (event_type, cast("Callable[[Event], None]", handler))
        with self._lock:
            self._handlers.append(entry)

        def unsubscribe() -> None:
            with self._lock:
                if entry in self._handlers:
                    self._handlers.remove(entry)

        return unsubscribe

    def publish(self, event: Event) -> None:
        with self._lock:
            handlers = [h for t, h in self._handlers if isinstance(event, t)]
        for handler in handlers:
            try:
                handler(event)
            except Exception:
                log.exception("event handler %r failed on %r", handler, event)


class RecordingBus(EventBus):
    """An EventBus that also keeps every event (tests, CLI summaries)."""

    def __init__(self) -> None:
        super().__init__()
        self.events: list[Event] = []

    def publish(self, event: Event) -> None:
        self.events.append(event)
        super().publish(event)


@dataclass(frozen=True)
class NotificationRaised(Event):
    """A row was added to the notification outbox (tray shows it; Telegram mirrors it)."""

    notification_id: int
    kind: str
    title: str
    ref_type: str | None = None
    ref_id: int | None = None


@dataclass(frozen=True)
class StoreChanged(Event):
    """Rows another process (or connection) changed in the shared store, found by a desk's
    change feed (``core.app.changes``): new and changed inquiries, drafts with their status.
    Only views listen; nothing acts on it again (the process that made the change already did:
    notifications, folders and categories are not raised twice)."""

    created: tuple[int, ...] = ()
    updated: tuple[int, ...] = ()
    drafts: tuple[tuple[int, str], ...] = ()
