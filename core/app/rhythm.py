"""The daily rhythm behind the facade: reminders, snoozes, the briefing, appointments.

Everything loads on first use (the holiday tables and the gazetteer are not needed to paint the
board). ``daily()`` is the background task every long-running front end starts for its folder.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any

from core.app.notifications import NotificationService
from core.services import Services

if TYPE_CHECKING:
    from core.app.graph_runtime import GraphRuntime
    from core.rhythm.actions import ReminderActions
    from core.rhythm.appointments import Appointments
    from core.rhythm.briefing import Briefing
    from core.rhythm.calendar_read import CalendarRead
    from core.rhythm.daily import DailyRhythm
    from core.rhythm.reminders import Reminder


class RhythmService:
    """Built by the ``App`` with what it needs (not the App itself: no import circle)."""

    def __init__(
        self,
        services: Services,
        notifications: NotificationService,
        graph: Callable[[], GraphRuntime],
        *,
        is_demo: bool = False,
        drafts: Any = None,
        attention_settled: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self._services = services
        # 需要您确认 items are written off the UI thread: the briefing waits for those in flight
        self._attention_settled = attention_settled
        self._notifications = notifications
        self._graph = graph
        self._is_demo = is_demo
        self._drafts = drafts  # LazyDrafts: its composer writes the follow-up drafts

    def _reminder_service(self) -> Any:
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

    def daily(self) -> DailyRhythm:
        """The background task (reminders, evening briefing, backups) for this folder."""
        from core.rhythm.daily import DailyRhythm

        center = self._notifications.attach()
        return DailyRhythm(self._services, center, tomorrows_calendar=self.tomorrows_calendar)
