"""The daily rhythm as one background task: reminders, the evening briefing, backups.

Runs in the tray app for the data folder on screen (and in the headless ``telegram`` mirror),
whether or not a Microsoft account is set up: a reminder or a backup must not wait for sign-in.
Every ``interval`` it announces new stage reminders, raises the evening briefing once it is due
(with tomorrow's Outlook appointments when an account can read them), drafts the customer's
reminder of each of tomorrow's measuring visits (waiting for approval), raises the weekly report
once a week from Monday 08:00 (``core.stats.weekly``) and takes a scheduled
database backup when something changed (``core.db.backup.maybe_backup``, on a worker thread).
A failing step is logged and retried next round; it never stops the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from core import tasks
from core.db.backup import maybe_backup
from core.rhythm.calendar_read import NO_ACCOUNT_ZH, CalendarRead
from core.rhythm.evening import AlertFields, EveningBriefing
from core.rhythm.reminders import Reminder, ReminderService

if TYPE_CHECKING:
    from core.services import Services

log = logging.getLogger(__name__)

INTERVAL_S = 300.0
CalendarSource = Callable[[], Awaitable[CalendarRead]]


class AlertCenter(Protocol):
    """What the rhythm raises through: ``core.notify.outbox.NotificationCenter`` (notify sits
    above rhythm, so a shape)."""

    def raise_notification(self, *alert: *AlertFields) -> int | None: ...

    def raise_overdue_digest(self, reminders: list[Reminder]) -> int | None: ...


class DailyRhythm:
    def __init__(
        self,
        services: Services,
        center: AlertCenter,
        *,
        tomorrows_calendar: CalendarSource | None = None,
        visit_reminders: Callable[[], Awaitable[list[int]]] | None = None,
    ) -> None:
        self.services = services
        self.visit_reminders = visit_reminders
        self.center = center
        self.tomorrows_calendar = tomorrows_calendar
        self.reminders = ReminderService(
            services.store, services.bus, services.clock, raise_digest=center.raise_overdue_digest
        )
        self.evening = EveningBriefing(services.store, services.settings, services.clock)
        self.rounds = 0

    async def run_once(self) -> None:
        """One round of every step; each failure is logged and costs only that step."""
        self.rounds += 1
        for name, step in (
            ("reminders", self._reminders),
            ("briefing", self._briefing),
            ("visit reminders", self._visit_reminders),
            ("weekly", self._weekly),
            ("backup", self._backup),
        ):
            try:
                await step()
            except Exception:
                log.exception("daily rhythm: %s failed; retried next round", name)

    async def _reminders(self) -> None:
        await self.reminders.announce()

    async def _visit_reminders(self) -> None:
        """The day before a visit: the customer's reminder as a waiting draft, once each."""
        if self.visit_reminders is not None:
            await self.visit_reminders()

    async def _briefing(self) -> None:
        if not self.evening.is_due(self.services.clock.now()):
            return
        calendar = (
            await self.tomorrows_calendar()
            if self.tomorrows_calendar
            else CalendarRead(None, NO_ACCOUNT_ZH)
        )
        await self.evening.announce_if_due(
            self.center.raise_notification, calendar.events, calendar.note_zh
        )

    async def _weekly(self) -> None:
        """Monday 08:00 (or the first round after it): last week beside the week before."""
        from core.stats.weekly import report_weeks, weekly_report

        now = self.services.clock.now()
        if report_weeks(now) is None:
            return
        overdue = len(await self.reminders.due())
        report = await self.services.store.read(lambda s: weekly_report(s, now, overdue))
        if report is not None:  # a folder younger than the week has nothing to report
            key, title, body = report
            await tasks.io(self.center.raise_notification, "weekly", title, body, None, None, key)

    async def _backup(self) -> None:
        if self.services.store.kind != "sqlite":
            return  # PostgreSQL is backed up with pg_dump, not into the folder
        paths = self.services.paths
        await tasks.io(maybe_backup, paths.database, paths.backups)

    async def run_forever(self, stop: asyncio.Event, interval: float = INTERVAL_S) -> None:
        while not stop.is_set():
            await self.run_once()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=interval)
