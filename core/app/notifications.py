"""What the tray shows: the notification outbox, read and stamped from the event loop.

The ``NotificationCenter`` (``core.notify.outbox``) writes the outbox from bus events; this
service is its read side for the desktop, answering ``NotificationView`` dataclasses.
"""

from __future__ import annotations

from core.clock import naive_utc
from core.db.models import Notification
from core.notify.outbox import NotificationCenter, NotificationView, notification_view
from core.services import Services


class NotificationService:
    """The tray's outbox: one notification, and marking it shown or read."""

    def __init__(self, services: Services) -> None:
        self._services = services
        self.center: NotificationCenter | None = None

    def attach(self, *, background: bool = True) -> NotificationCenter:
        """Start raising notifications from bus events (once; the desktop does this)."""
        if self.center is None:
            self.center = NotificationCenter(self._services).attach(
                self._services.bus, background=background
            )
        return self.center

    def detach(self) -> None:
        if self.center is not None:
            self.center.detach()
            self.center = None

    async def get(self, notification_id: int) -> NotificationView | None:
        def _read(session) -> NotificationView | None:  # type: ignore[no-untyped-def]
            row = session.get(Notification, notification_id)
            return notification_view(row) if row is not None else None

        return await self._services.store.read(_read)

    async def mark_tray_shown(self, notification_id: int) -> None:
        await self._stamp(notification_id, "tray_shown_at")

    async def mark_read(self, notification_id: int) -> None:
        await self._stamp(notification_id, "read_at")

    async def _stamp(self, notification_id: int, column: str) -> None:
        now = naive_utc(self._services.clock.now())

        def _do(session) -> None:  # type: ignore[no-untyped-def]
            row = session.get(Notification, notification_id)
            if row is not None and getattr(row, column) is None:
                setattr(row, column, now)

        await self._services.store.run(_do)
