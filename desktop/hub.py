"""The one place core events become Qt signals.

Core publishes events synchronously in whatever thread did the work (the store writer, a worker,
the event loop). Widgets may only be touched on the UI thread, so the hub re-emits every event as a
Qt signal; a signal emitted from another thread is delivered queued to receivers living on the UI
thread. Views connect to these signals and refresh only what changed.

Signals:
    inquiry_created(int): a new inquiry id.
    inquiry_updated(int): fields, messages or notes of an inquiry changed.
    stage_changed(int): an inquiry moved stage (also emitted as inquiry_updated).
    draft_changed(int, str): a draft id and its new status.
    notification(int): a Notification row id was raised (tray / banner shows it).
    sync_status(str, bool, str): source, ok, code — a sync or sign-in problem or recovery.
    mail_waiting(int, object, object): mails a round left for want of disk space (0: none), the
        free bytes the first needs, the free bytes there were (Python ints: over 2 GB).
    message_recorded(int): a message got its disposition (ingest progress).
    changed(OpChanges, object): what changed, and who changed it: every core event above as an
        ``OpChanges`` (handler ``None``), and each owner action run through
        ``desktop.operations.Operation`` (handler: the view that ran it). Views that can update
        a part of themselves (the board: one row) listen here rather than to the id signals.

Changes other processes make to the store (``serve`` ingesting mail, another desk approving)
arrive as one ``StoreChanged`` from the core's change feed and leave here as the same signals.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject
from PySide6.QtCore import Signal

from core.app.types import DraftChanged
from core.app.types import Event
from core.app.types import EventBus
from core.app.types import InquiryCreated
from core.app.types import InquiryUpdated
from core.app.types import MailWaiting
from core.app.types import MessageMerged
from core.app.types import MessageRecorded
from core.app.types import NeedsAttention
from core.app.types import NoteAdded
from core.app.types import NotificationRaised
from core.app.types import StageChanged
from core.app.types import StageOverdue
from core.app.types import StoreChanged
from core.app.types import SyncStatus


@dataclass(frozen=True)
class OpChanges:
    """What an action or an event changed, so each view updates only that (Anki's ``OpChanges``).

    ``inquiries``: rows whose shown fields may have changed (re-read those rows); ``created``:
    new inquiries (a board must place them, so it re-reads its window); ``drafts``: drafts whose
    status or text changed; ``stages``: an inquiry moved stage (the stage bar's counts);
    ``attention``: the 需要您确认 items may have changed.
    """

    inquiries: frozenset[int] = frozenset()
    created: frozenset[int] = frozenset()
    drafts: frozenset[int] = frozenset()
    stages: bool = False
    attention: bool = False

    def __or__(self, other: OpChanges) -> OpChanges:
        return OpChanges(
            self.inquiries | other.inquiries,
            self.created | other.created,
            self.drafts | other.drafts,
            self.stages or other.stages,
            self.attention or other.attention,
        )

    def __bool__(self) -> bool:
        return bool(self.inquiries or self.created or self.drafts or self.stages or self.attention)


def changes_of(event: Event) -> OpChanges:
    """The ``OpChanges`` a core event stands for (empty for events no view redraws from)."""
    if isinstance(event, InquiryCreated):
        return OpChanges(created=frozenset({event.inquiry_id}), attention=True)
    if isinstance(event, InquiryUpdated):
        return OpChanges(frozenset({event.inquiry_id}), attention="attention" in event.fields)
    if isinstance(event, StageChanged):
        return OpChanges(frozenset({event.inquiry_id}), stages=True)
    if isinstance(event, MessageMerged | StageOverdue):
        return OpChanges(frozenset({event.inquiry_id}))
    if isinstance(event, NoteAdded) and event.inquiry_id is not None:
        return OpChanges(frozenset({event.inquiry_id}))
    if isinstance(event, DraftChanged):
        rows = frozenset({event.inquiry_id}) if event.inquiry_id is not None else frozenset()
        return OpChanges(rows, drafts=frozenset({event.draft_id}))
    if isinstance(event, NeedsAttention):
        return OpChanges(attention=True)
    if isinstance(event, StoreChanged):  # another process's changes: stages may have moved
        return OpChanges(
            frozenset(event.updated),
            frozenset(event.created),
            frozenset(d for d, _status in event.drafts),
            stages=bool(event.updated),
            attention=bool(event.created or event.updated),
        )
    return OpChanges()


class SignalHub(QObject):
    inquiry_created = Signal(int)
    inquiry_updated = Signal(int)
    stage_changed = Signal(int)
    draft_changed = Signal(int, str)
    notification = Signal(int)
    sync_status = Signal(str, bool, str)
    mail_waiting = Signal(int, object, object)
    message_recorded = Signal(int)
    changed = Signal(object, object)

    def __init__(self, bus: EventBus, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bus = bus
        self._unsubscribe: Callable[[], None] | None = bus.subscribe(Event, self._on_event)

    def detach(self) -> None:
        """Stop listening (a window closing over a data folder that stays open)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def broadcast(self, changes: OpChanges, handler: object | None = None) -> None:
        """Tell every view what an owner's action changed (``handler``: the view that ran it,
        which may skip what it already redrew)."""
        if changes:
            self.changed.emit(changes, handler)

    def _on_event(self, event: Event) -> None:
        # Runs in the publisher's thread: only emit here, never touch widgets.
        changes = changes_of(event)
        if changes:
            self.changed.emit(changes, None)
        if isinstance(event, InquiryCreated):
            self.inquiry_created.emit(event.inquiry_id)
        elif isinstance(event, InquiryUpdated | MessageMerged):
            self.inquiry_updated.emit(event.inquiry_id)
        elif isinstance(event, StageChanged):
            self.stage_changed.emit(event.inquiry_id)
            self.inquiry_updated.emit(event.inquiry_id)
        elif isinstance(event, StageOverdue) or (
            isinstance(event, NoteAdded) and event.inquiry_id is not None
        ):
            self.inquiry_updated.emit(event.inquiry_id)
        elif isinstance(event, StoreChanged):  # another process's changes (live desks)
            for inquiry_id in event.created:
                self.inquiry_created.emit(inquiry_id)
            for inquiry_id in event.updated:
                self.inquiry_updated.emit(inquiry_id)
            for draft_id, status in event.drafts:
                self.draft_changed.emit(draft_id, status)
        elif isinstance(event, DraftChanged):
            self.draft_changed.emit(event.draft_id, event.status)
            if event.inquiry_id is not None:
                self.inquiry_updated.emit(event.inquiry_id)
        elif isinstance(event, NotificationRaised):
            self.notification.emit(event.notification_id)
        elif isinstance(event, SyncStatus):
            self.sync_status.emit(event.source, event.ok, event.code)
        elif isinstance(event, MailWaiting):
            self.mail_waiting.emit(event.waiting, event.need_bytes, event.free_bytes)
        elif isinstance(event, MessageRecorded):
            self.message_recorded.emit(event.message_pk)
