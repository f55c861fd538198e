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

Changes other processes make to the store (``serve`` ingesting mail, another desk approving)
arrive as one ``StoreChanged`` from the core's change feed and leave here as the same signals.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from core.app.types import (
    DraftChanged,
    Event,
    EventBus,
    InquiryCreated,
    InquiryUpdated,
    MailWaiting,
    MessageMerged,
    MessageRecorded,
    NoteAdded,
    NotificationRaised,
    StageChanged,
    StageOverdue,
    StoreChanged,
    SyncStatus,
)


class SignalHub(QObject):
    inquiry_created = Signal(int)
    inquiry_updated = Signal(int)
    stage_changed = Signal(int)
    draft_changed = Signal(int, str)
    notification = Signal(int)
    sync_status = Signal(str, bool, str)
    mail_waiting = Signal(int, object, object)
    message_recorded = Signal(int)

    def __init__(self, bus: EventBus, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.bus = bus
        self._unsubscribe: Callable[[], None] | None = bus.subscribe(Event, self._on_event)

    def detach(self) -> None:
        """Stop listening (a window closing over a data folder that stays open)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def _on_event(self, event: Event) -> None:
        # Runs in the publisher's thread: only emit here, never touch widgets.
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
