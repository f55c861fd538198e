"""Measuring appointments: the owner proposes a time, confirms it, then Outlook gets the event.

Two steps on purpose (principle 2 applied to the calendar): a proposal is only a note in
``app_state`` (``appointment.proposal.<id>``) that the owner can look at and change; ``confirm``
is the one place that writes to Outlook. It creates exactly one event (the calendar client's
``transactionId`` makes a retry harmless, and a confirmed appointment is remembered under
``appointment.event.<id>``), then moves the job to ``measure`` with an audit entry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta
from html import escape
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from core.clock import SYDNEY, Clock, to_sydney, utc
from core.db.app_state import get_state, put_state
from core.db.models import Inquiry
from core.errors import InquiryBridgeError, NotFound
from core.events import EventBus
from core.graph.calendar import CalendarEvent, OutlookCalendar
from core.inquiry.stages import StageChange, change_stage
from core.rhythm.briefing import MEASURE_STAGES

if TYPE_CHECKING:
    from core.db.store import Store


class AppointmentError(InquiryBridgeError):
    code = "bad_input"


@dataclass(frozen=True)
class Proposal:
    inquiry_id: int
    start: str  # ISO 8601, Sydney
    minutes: int
    subject: str
    location: str

    @property
    def start_at(self) -> datetime:
        return datetime.fromisoformat(self.start)


@dataclass(frozen=True)
class Confirmed:
    proposal: Proposal
    event_id: str
    stage_moved: bool
    already: bool  # confirmed before: nothing was written this time


def _proposal_key(inquiry_id: int) -> str:
    return f"appointment.proposal.{inquiry_id}"


def _event_key(inquiry_id: int) -> str:
    return f"appointment.event.{inquiry_id}"


def _where(inquiry: Inquiry) -> str:
    if inquiry.address and inquiry.suburb and inquiry.suburb.lower() in inquiry.address.lower():
        return inquiry.address
    return ", ".join(p for p in (inquiry.address, inquiry.suburb) if p)


class Appointments:
    def __init__(
        self,
        store: Store,
        bus: EventBus,
        clock: Clock,
        calendar: Callable[[], OutlookCalendar],
    ) -> None:
        self.store = store
        self.bus = bus
        self.clock = clock
        self.calendar = calendar

    async def propose(self, inquiry_id: int, start: datetime, minutes: int = 60) -> Proposal:
        """Remember the owner's proposed time; nothing reaches Outlook."""
        if start.tzinfo is None:
            start = start.replace(tzinfo=SYDNEY)
        if utc(start) <= self.clock.now():
            raise AppointmentError("上门时间已过 / that time has already passed")
        now = self.clock.now()

        def do(session: Session) -> Proposal:
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is None:
                raise NotFound(f"询盘 #{inquiry_id} / inquiry #{inquiry_id}")
            who = inquiry.customer_name or inquiry.customer_email or f"#{inquiry.id}"
            proposal = Proposal(
                inquiry_id=inquiry_id,
                start=to_sydney(start).isoformat(timespec="minutes"),
                minutes=minutes,
                subject=f"上门量尺 · {who}",
                location=_where(inquiry),
            )
            put_state(session, _proposal_key(inquiry_id), asdict(proposal), now)
            return proposal

        return await self.store.run(do)

    async def pending(self, inquiry_id: int) -> Proposal | None:
        value = await self.store.read(lambda s: get_state(s, _proposal_key(inquiry_id)))
        return Proposal(**value) if isinstance(value, dict) else None

    async def confirm(self, inquiry_id: int) -> Confirmed:
        """The owner said yes: one Outlook event, then the stage moves to ``measure``."""
        proposal = await self.pending(inquiry_id)
        if proposal is None:
            raise AppointmentError(
                f"询盘 #{inquiry_id} 没有待确认的上门时间 / no proposed time to confirm"
            )
        done = await self.store.read(lambda s: get_state(s, _event_key(inquiry_id)))
        if isinstance(done, dict) and done.get("start") == proposal.start:
            return Confirmed(proposal, str(done.get("event_id")), False, already=True)
        event = await self.calendar().create_measure(
            inquiry_id=inquiry_id,
            subject=proposal.subject,
            start=proposal.start_at,
            minutes=proposal.minutes,
            location=proposal.location,
            body_html=(
                f"<p>询盘桥 询盘 #{inquiry_id}：{escape(proposal.subject)}</p>"
                f"<p>{escape(proposal.location)}</p>"
            ),
        )
        change = await self.store.run(lambda s: self._record(s, proposal, event))
        if change is not None:
            self.bus.publish(change.event())
        return Confirmed(proposal, event.id, change is not None, already=False)

    def _record(
        self, session: Session, proposal: Proposal, event: CalendarEvent
    ) -> StageChange | None:
        now = self.clock.now()
        value = {"event_id": event.id, "start": proposal.start}
        put_state(session, _event_key(proposal.inquiry_id), value, now)
        inquiry = session.get(Inquiry, proposal.inquiry_id)
        if inquiry is None or inquiry.stage not in MEASURE_STAGES:
            return None
        stamp = proposal.start_at.strftime("%Y-%m-%d %H:%M")
        return change_stage(
            session,
            inquiry,
            "measure",
            reason=f"预约上门量尺 {stamp}",
            triggered_by="owner",
            clock=self.clock,
        )

    async def tomorrow(self, now: datetime | None = None) -> list[dict[str, Any]]:
        """Tomorrow's Outlook events (Sydney day), for the evening briefing."""
        local = to_sydney(now or self.clock.now())
        start = datetime.combine(local.date() + timedelta(days=1), datetime.min.time(), SYDNEY)
        events = await self.calendar().between(start, start + timedelta(days=1))
        return [
            {
                "id": e.id,
                "subject": e.subject,
                "start": e.start.isoformat(timespec="minutes"),
                "end": e.end.isoformat(timespec="minutes"),
                "location": e.location,
            }
            for e in events
        ]
