"""The daily rhythm behind the facade: reminders, snoozes, the briefing, appointments.

Everything loads on first use (the holiday tables and the gazetteer are not needed to paint the
board). ``daily()`` is the background task every long-running front end starts for its folder.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from datetime import datetime
from typing import TYPE_CHECKING, Any

from core.app.notifications import NotificationService
from core.app.visits import VisitService
from core.services import Services

if TYPE_CHECKING:
    from core.app.graph_runtime import GraphRuntime
    from core.app.lazy import LazyDrafts
    from core.notify.outbox import NotificationCenter
    from core.rhythm.actions import ReminderActions
    from core.rhythm.appointments import Appointments
    from core.rhythm.briefing import Briefing
    from core.rhythm.calendar_read import CalendarRead
    from core.rhythm.daily import DailyRhythm
    from core.rhythm.evening import EveningBriefing
    from core.rhythm.reminders import Reminder, ReminderService


class RhythmService:
    """Built by the ``App`` with what it needs (not the App itself: no import circle)."""

    def __init__(
        self,
        services: Services,
        notifications: NotificationService,
        graph: Callable[[], GraphRuntime],
        *,
        is_demo: bool = False,
        drafts: LazyDrafts,
        attention_settled: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._services = services
        # 需要您确认 items are written off the UI thread: the briefing waits for those in flight
        self._attention_settled = attention_settled
        self._notifications = notifications
        self._graph = graph
        self._is_demo = is_demo
        self._drafts = drafts  # LazyDrafts: its composer writes the follow-up drafts
        # measuring visits: free times, confirm (desktop, Telegram, CLI), the customer's mails
        self.visits = VisitService(services, drafts, graph, is_demo=is_demo)

    def _reminder_service(self) -> ReminderService:
        from core.rhythm.reminders import ReminderService

        s = self._services
        return ReminderService(s.store, s.bus, s.clock)

    async def reminders(self) -> list[Reminder]:
        """Reminders due now (working days, Sydney), the longest-waiting first."""
        return list(await self._reminder_service().due())

    async def snooze(self, inquiry_id: int, working_days: int) -> datetime:
        return await self._reminder_service().snooze(inquiry_id, working_days)

    def actions(self) -> ReminderActions:
        """A reminder's one-click answers (snooze 1/3/7, mark lost, draft the follow-up)."""
        from core.inquiry.stages import StageService
        from core.rhythm.actions import ReminderActions

        s = self._services
        drafts = self._drafts
        return ReminderActions(
            s.store,
            self._reminder_service(),
            StageService(s.store, s.bus, s.clock),
            lambda: drafts.composer,
        )

    async def briefing(self) -> Briefing:
        from core.rhythm.evening import EveningBriefing

        s = self._services
        if self._attention_settled is not None:
            await self._attention_settled()
        calendar = await self.tomorrows_calendar()
        return await EveningBriefing(s.store, s.settings, s.clock).build(
            appointments=calendar.events, calendar_note=calendar.note_zh
        )

    def localities_within(
        self, south: float, west: float, north: float, east: float
    ) -> list[tuple[float, float]]:
        """Centres of the NSW localities inside a box: the faint backdrop of the route map."""
        from core.rhythm.route import gazetteer

        return [
            place.point
            for places in gazetteer().by_name.values()
            for place in places
            if south <= place.point[0] <= north and west <= place.point[1] <= east
        ]

    def appointments(self) -> Appointments:
        """Propose / confirm measuring visits; the calendar uses the folder's Graph client."""
        from core.graph.calendar import OutlookCalendar
        from core.rhythm.appointments import Appointments

        s = self._services
        return Appointments(s.store, s.bus, s.clock, lambda: OutlookCalendar(self._graph().client))

    async def tomorrows_events(self) -> list[dict[str, Any]] | None:
        """Tomorrow's Outlook appointments, or None when the calendar cannot be read."""
        return (await self.tomorrows_calendar()).events

    async def tomorrows_calendar(self) -> CalendarRead:
        """Tomorrow's Outlook appointments, or why they could not be read (never raises)."""
        from core.rhythm.calendar_read import DEMO_ZH, NO_ACCOUNT_ZH, CalendarRead, read_calendar
        from core.rhythm.outlook import has_account

        if self._is_demo:
            return CalendarRead(None, DEMO_ZH)
        if not has_account(self._services):
            return CalendarRead(None, NO_ACCOUNT_ZH)
        return await read_calendar(self.appointments().tomorrow)

    # -- one-shot commands (``reminders``, ``snooze``, ``briefing``, ``appointment``) ----------
    # A command's own notification centre (no catch-up of older events) and, for Outlook, a
    # Graph client of its own closed when it is done: no Graph runtime, no intake pipeline.
    @contextlib.contextmanager
    def _announcing(self) -> Iterator[tuple[ReminderService, NotificationCenter]]:
        from core.notify.outbox import NotificationCenter
        from core.rhythm.reminders import ReminderService

        s = self._services
        center = NotificationCenter(s).attach(s.bus, catch_up=False)
        try:
            yield (
                ReminderService(s.store, s.bus, s.clock, raise_digest=center.raise_overdue_digest),
                center,
            )
        finally:
            center.detach()

    async def due_reminders(self, *, announce: bool = False) -> list[Reminder]:
        """Reminders due now; ``announce``: the new ones go to the notification outbox (each
        once per stage entry, many as one digest) and are returned."""
        with self._announcing() as (service, _center):
            return list(await (service.announce() if announce else service.due()))

    async def snooze_reminder(self, inquiry_id: int, working_days: int) -> datetime:
        """Hide the inquiry's reminder (``LookupError``: no such inquiry); until when."""
        with self._announcing() as (service, _center):
            return await service.snooze(inquiry_id, working_days)

    @contextlib.asynccontextmanager
    async def appointments_once(self) -> AsyncIterator[Appointments]:
        """Propose / confirm measuring visits over a Graph client of their own (when he has a
        Microsoft account), closed after: a one-shot command runs in its own ``asyncio.run``,
        where the desktop's runtime client (bound to the desktop's loop) cannot be borrowed."""
        once = VisitService(self._services, self._drafts, None, is_demo=self._is_demo)
        async with once.appointments() as appointments:
            yield appointments

    async def _calendar_once(self) -> CalendarRead:
        from core.rhythm.calendar_read import NO_ACCOUNT_ZH, CalendarRead, read_calendar
        from core.rhythm.outlook import has_account

        if not has_account(self._services):
            return CalendarRead(None, NO_ACCOUNT_ZH)
        async with self.appointments_once() as appointments:
            return await read_calendar(appointments.tomorrow)

    def _evening(self) -> EveningBriefing:
        from core.rhythm.evening import EveningBriefing

        s = self._services
        return EveningBriefing(s.store, s.settings, s.clock)

    async def briefing_now(self) -> Briefing:
        """The evening briefing as it would read now (only reads; tomorrow's calendar too)."""
        calendar = await self._calendar_once()
        return await self._evening().build(
            appointments=calendar.events, calendar_note=calendar.note_zh
        )

    async def announce_briefing(self) -> bool:
        """Raise tonight's briefing if it is due (``schedule.briefing_time``, once an evening);
        whether it was raised now."""
        evening = self._evening()
        if not evening.is_due(self._services.clock.now()):
            return False
        calendar = await self._calendar_once()
        with self._announcing() as (_service, center):
            raised = await evening.announce_if_due(
                center.raise_notification, calendar.events, calendar_note=calendar.note_zh
            )
        return bool(raised)

    def warm(self) -> None:
        """Import the daily rhythm (holiday tables, the gazetteer) now, blocking: for a front
        end to call on a worker thread before ``daily()``, so its start-up does not pay it."""
        import core.rhythm.daily  # noqa: F401

    def daily(self) -> DailyRhythm:
        """The background task (reminders, evening briefing, backups) for this folder."""
        from core.rhythm.daily import DailyRhythm

        center = self._notifications.attach()
        return DailyRhythm(
            self._services,
            center,
            tomorrows_calendar=self.tomorrows_calendar,
            visit_reminders=None if self._is_demo else self.visits.remind_due,
        )
