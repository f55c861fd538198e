"""When the briefing goes out: once an evening, at ``schedule.briefing_time`` (Sydney time).

The poller (desktop, ``telegram`` runner) calls ``announce_if_due`` every few minutes; the outbox
row's dedup key (``briefing:<date>``) makes a second call the same evening a no-op, so a restart
at 20:05 does not send it twice, and a PC switched on at 21:30 still gets it (held by quiet hours
for Telegram until the morning, shown in the tray at once).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, time
from typing import TYPE_CHECKING, Any, Unpack

from core import tasks
from core.clock import Clock, to_sydney
from core.rhythm.briefing import Briefing, build_briefing
from core.rhythm.briefing_text import render_markdown

if TYPE_CHECKING:
    from core.config import Settings
    from core.db.store import Store

# What an alert is raised with (``core.notify.outbox.NotificationCenter.raise_notification``, which
# notify, above rhythm, implements): kind, title, body_md, ref_type, ref_id, dedup_key.
AlertFields = tuple[str, str, str, str | None, int | None, str]
RaiseNotification = Callable[[Unpack[AlertFields]], int | None]


def briefing_time(value: str) -> time:
    try:
        hours, minutes = str(value).split(":", 1)
        return time(int(hours), int(minutes))
    except (ValueError, TypeError):
        return time(20, 0)


class EveningBriefing:
    def __init__(self, store: Store, settings: Settings, clock: Clock) -> None:
        self.store = store
        self.settings = settings
        self.clock = clock

    async def build(
        self,
        now: datetime | None = None,
        appointments: list[dict[str, Any]] | None = None,
        calendar_note: str = "",
    ) -> Briefing:
        moment = now or self.clock.now()
        office = self.settings.text("general.office_address").strip() or None
        return await self.store.read(
            lambda s: build_briefing(
                s, moment, office=office, appointments=appointments, calendar_note=calendar_note
            )
        )

    def is_due(self, now: datetime) -> bool:
        local = to_sydney(now)
        return local.time() >= briefing_time(self.settings.text("schedule.briefing_time"))

    async def announce_if_due(
        self,
        raise_notification: RaiseNotification,
        appointments: list[dict[str, Any]] | None = None,
        calendar_note: str = "",
    ) -> int | None:
        """Raise tonight's briefing once, at or after the configured time; its id or None."""
        now = self.clock.now()
        if not self.is_due(now):
            return None
        briefing = await self.build(now, appointments, calendar_note)
        title, body = render_markdown(briefing)
        return await tasks.io(  # the outbox write waits off the loop
            raise_notification, "briefing", title, body, None, None, f"briefing:{briefing.for_date}"
        )
