"""Measuring appointments: times that fit his calendar, his confirmation, then everything it owes.

Two steps on purpose (principle 2 applied to the calendar): a proposal is only a note in
``app_state`` (``appointment.proposal.<id>``) -- one time he or the assistant named, or three
free times found in his calendar (``core.rhythm.visits``) -- that he can look at and change; it
is offered on Telegram with one button per time (an outbox row, ``visit_proposed``). ``confirm``
(the desktop's dialog, the Telegram button, ``appointment --confirm``) is the one place that
books: the visit's quarter hours in the store first (a second booking of any of them is refused
by the key, whichever desk tries), then exactly one Outlook event for a Graph user (its
``transactionId`` makes a retry harmless), the job to ``measure`` with an audit entry, and a
confirmation reply to the customer that waits for his approval like every draft. The day before,
``remind_due`` drafts the customer's reminder (waiting for approval too) -- not for a visit
booked the day before or later, nor while the confirmation still waits (a reply supersedes the
thread's waiting draft, and the confirmation already names the time).

A proposed or confirmed time never overlaps his calendar: Outlook's events (when he has a
Microsoft account) and the visits booked here (the only calendar of an IMAP user).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta
from html import escape
from typing import TYPE_CHECKING, Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from core.clock import SYDNEY, Clock, naive_utc, to_sydney, utc
from core.db.app_state import get_state, put_state
from core.db.models import Draft, Inquiry, Notification, Visit
from core.db.outbox_rows import outbox_row
from core.errors import InquiryBridgeError, NotFound
from core.events import EventBus, NotificationRaised
from core.graph.calendar import CalendarEvent, CalendarReader, OutlookCalendar
from core.inquiry.stages import StageChange, change_stage
from core.rhythm import visit_mail, visits
from core.rhythm.briefing import MEASURE_STAGES
from core.rhythm.visits import PROPOSED_KIND, Proposal

__all__ = ["PROPOSED_KIND", "AppointmentError", "Appointments", "Confirmed", "Proposal"]

if TYPE_CHECKING:
    from core.db.store import Store

log = logging.getLogger(__name__)

# writes a visit mail as a draft waiting for approval: (inquiry id, mail, actor) -> draft id
VisitDrafter = Callable[[int, visit_mail.VisitMail, str], Awaitable[int]]


class AppointmentError(InquiryBridgeError):
    code = "bad_input"


@dataclass(frozen=True)
class Confirmed:
    proposal: Proposal
    event_id: str
    stage_moved: bool
    already: bool  # confirmed before: nothing was written this time
    visit_id: int = 0
    draft_id: int | None = None  # the confirmation reply waiting for approval
    draft_note: str = ""  # why there is none (no customer email, no drafting here)

    @property
    def start(self) -> str:
        return self.proposal.start


def _proposal_key(inquiry_id: int) -> str:
    return f"appointment.proposal.{inquiry_id}"


def _event_key(inquiry_id: int) -> str:
    return f"appointment.event.{inquiry_id}"


def _where(inquiry: Inquiry) -> str:
    if inquiry.address and inquiry.suburb and inquiry.suburb.lower() in inquiry.address.lower():
        return inquiry.address
    return ", ".join(p for p in (inquiry.address, inquiry.suburb) if p)


def _who(inquiry: Inquiry) -> str:
    return inquiry.customer_name or inquiry.customer_email or f"#{inquiry.id}"


class Appointments:
    def __init__(
        self,
        store: Store,
        bus: EventBus,
        clock: Clock,
        calendar: Callable[[], CalendarReader] | None,
        *,
        drafter: VisitDrafter | None = None,
        signature: str = "",
    ) -> None:
        """``calendar``: his Outlook calendar (None: no Microsoft account -- the visits booked
        here are his calendar; a ``CalendarReader`` only: proposals, never a confirm);
        ``drafter``: writes the customer's mails as waiting drafts."""
        self.store = store
        self.bus = bus
        self.clock = clock
        self.calendar = calendar
        self.drafter = drafter
        self.signature = signature

    # -- what is busy --------------------------------------------------------------------------
    async def busy(
        self, start: datetime, end: datetime, *, except_inquiry: int | None = None
    ) -> list[visits.Busy]:
        """Booked visits and Outlook events overlapping [start, end)."""
        out = await self.store.read(
            lambda s: visits.stored_busy(s, start, end, except_inquiry=except_inquiry)
        )
        if self.calendar is not None:
            ours = await self.store.read(_event_ids)
            out += [
                visits.Busy(e.start, e.end, e.subject, e.location)
                for e in await self.calendar().between(start, end)
                if e.id not in ours  # a visit booked here is already in ``out``
            ]
        return out

    async def _refuse_clash(self, inquiry_id: int, start: datetime, minutes: int) -> None:
        end = start + timedelta(minutes=minutes)
        taken = visits.clash(start, end, await self.busy(start, end, except_inquiry=inquiry_id))
        if taken is not None:
            raise AppointmentError(
                f"{visits.stamp(start)} 与日历中的「{taken.what}」（{visits.stamp(taken.start)}–"
                f"{to_sydney(taken.end):%H:%M}）冲突，请换一个时间 / that time overlaps "
                "another appointment in the calendar"
            )

    # -- proposing -----------------------------------------------------------------------------
    async def propose(self, inquiry_id: int, start: datetime, minutes: int = 60) -> Proposal:
        """Remember the proposed time (refused when it overlaps his calendar); nothing reaches
        Outlook or the customer."""
        if start.tzinfo is None:
            start = start.replace(tzinfo=SYDNEY)
        if utc(start) <= self.clock.now():
            raise AppointmentError("上门时间已过 / that time has already passed")
        await self._inquiry_where(inquiry_id)
        await self._refuse_clash(inquiry_id, start, minutes)
        return await self._remember(inquiry_id, [start], minutes)

    async def propose_free(self, inquiry_id: int, minutes: int = 60, count: int = 3) -> Proposal:
        """Three free times (one a day, working days, working hours, room to drive) from his
        calendar, remembered as the proposal and offered on Telegram."""
        where = await self._inquiry_where(inquiry_id)
        now = self.clock.now()
        horizon = now + timedelta(days=visits.SEARCH_DAYS + 1)
        busy = await self.busy(now, horizon, except_inquiry=inquiry_id)
        found = visits.free_times(now, busy, minutes, count=count, where=where)
        if not found:
            raise AppointmentError(
                f"未来 {visits.SEARCH_DAYS} 天的工作时间内没有空档 / no free time found"
            )
        return await self._remember(inquiry_id, found, minutes)

    async def _inquiry_where(self, inquiry_id: int) -> str:
        def look(session: Session) -> str:
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is None:
                raise NotFound(f"询盘 #{inquiry_id} / inquiry #{inquiry_id}")
            return visits.place_of(inquiry)

        return await self.store.read(look)

    async def _remember(self, inquiry_id: int, starts: list[datetime], minutes: int) -> Proposal:
        now = self.clock.now()

        def do(session: Session) -> tuple[Proposal, int | None]:
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is None:
                raise NotFound(f"询盘 #{inquiry_id} / inquiry #{inquiry_id}")
            times = [to_sydney(s).isoformat(timespec="minutes") for s in starts]
            proposal = Proposal(
                inquiry_id=inquiry_id,
                start=times[0],
                minutes=minutes,
                subject=f"上门量尺 · {_who(inquiry)}",
                location=_where(inquiry),
                options=times if len(times) > 1 else [],
            )
            put_state(session, _proposal_key(inquiry_id), asdict(proposal), now)
            return proposal, _offer(session, inquiry, proposal, now)

        proposal, notification_id = await self.store.run(do)
        if notification_id is not None:
            self.bus.publish(
                NotificationRaised(
                    notification_id, PROPOSED_KIND, "上门时间待确认", "inquiry", inquiry_id
                )
            )
        return proposal

    async def pending(self, inquiry_id: int) -> Proposal | None:
        value = await self.store.read(lambda s: get_state(s, _proposal_key(inquiry_id)))
        return Proposal(**value) if isinstance(value, dict) else None

    # -- confirming ----------------------------------------------------------------------------
    async def confirm(
        self, inquiry_id: int, start: str | None = None, *, actor: str = "owner"
    ) -> Confirmed:
        """He chose a time (``start``: one of the proposal's; None: the proposed one): book it,
        one Outlook event, the stage to ``measure``, the confirmation reply as a waiting draft."""
        proposal = await self._chosen(inquiry_id, start)
        at = proposal.start_at
        booked = await self.store.read(lambda s: _booked(s, inquiry_id))
        if booked is not None:
            if booked[1] == naive_utc(at):
                return Confirmed(proposal, booked[2], False, already=True, visit_id=booked[0])
            raise AppointmentError(
                f"询盘 #{inquiry_id} 已约好 {visits.stamp(utc(booked[1]))} 上门，未重复预约"
                f" / inquiry {inquiry_id} already has a visit booked"
            )
        await self._refuse_clash(inquiry_id, at, proposal.minutes)
        visit_id = await self._book(inquiry_id, at, proposal.minutes, actor)
        try:
            event = await self._outlook(proposal)
        except BaseException:
            await self.store.run(lambda s: visits.release(s, visit_id, "failed"))
            raise
        change = await self.store.run(lambda s: self._record(s, proposal, event, visit_id))
        if change is not None:
            self.bus.publish(change.event())
        draft_id, note = await self._draft(visit_id, proposal, actor, reminder=False)
        return Confirmed(
            proposal, event.id if event else "", change is not None, already=False,
            visit_id=visit_id, draft_id=draft_id, draft_note=note,
        )  # fmt: skip

    async def _chosen(self, inquiry_id: int, start: str | None) -> Proposal:
        proposal = await self.pending(inquiry_id)
        if proposal is None:
            raise AppointmentError(
                f"询盘 #{inquiry_id} 没有待确认的上门时间 / no proposed time to confirm"
            )
        if start is None:
            return proposal
        try:
            moment = datetime.fromisoformat(start.strip().replace(" ", "T", 1))
        except ValueError:
            raise AppointmentError(
                f"时间格式应为「年-月-日 时:分」：{start!r} / expected 'YYYY-MM-DD HH:MM': {start!r}"
            ) from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=SYDNEY)
        wanted = to_sydney(moment).isoformat(timespec="minutes")
        if wanted not in proposal.times:
            raise AppointmentError(
                f"{start} 不是为询盘 #{inquiry_id} 建议的时间 / not one of the proposed times"
            )
        return Proposal(**{**asdict(proposal), "start": wanted})

    async def _book(self, inquiry_id: int, at: datetime, minutes: int, actor: str) -> int:
        now = self.clock.now()
        try:
            return await self.store.run(
                lambda s: visits.book(s, inquiry_id, at, minutes, actor=actor, now=now).id
            )
        except IntegrityError:
            raise AppointmentError(
                f"{visits.stamp(at)} 已约了别的上门，不能再约在同一时段 / that slot is already "
                "booked"
            ) from None

    async def _outlook(self, proposal: Proposal) -> CalendarEvent | None:
        if self.calendar is None:
            return None
        calendar = self.calendar()
        if not isinstance(calendar, OutlookCalendar):
            raise AppointmentError("只能提议，不能写入日历 / this cannot write the calendar")
        return await calendar.create_measure(
            inquiry_id=proposal.inquiry_id,
            subject=proposal.subject,
            start=proposal.start_at,
            minutes=proposal.minutes,
            location=proposal.location,
            body_html=(
                f"<p>询盘桥 询盘 #{proposal.inquiry_id}：{escape(proposal.subject)}</p>"
                f"<p>{escape(proposal.location)}</p>"
            ),
        )

    def _record(
        self, session: Session, proposal: Proposal, event: CalendarEvent | None, visit_id: int
    ) -> StageChange | None:
        now = self.clock.now()
        event_id = event.id if event is not None else ""
        value = {"event_id": event_id, "start": proposal.start, "visit_id": visit_id}
        put_state(session, _event_key(proposal.inquiry_id), value, now)
        visit = session.get(Visit, visit_id)
        if visit is not None:
            visit.event_id = event_id or None
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

    async def _draft(
        self, visit_id: int, proposal: Proposal, actor: str, *, reminder: bool
    ) -> tuple[int | None, str]:
        """The customer's mail as a waiting draft, linked to the visit; (draft id, why none)."""
        if self.drafter is None:
            return None, "未起草客户邮件（此处不能起草） / no drafting here"
        name = await self.store.read(lambda s: _customer_name(s, proposal.inquiry_id))
        make = visit_mail.reminder if reminder else visit_mail.confirmation
        mail = make(name, proposal.start_at, proposal.minutes, proposal.location, self.signature)
        try:
            draft_id = await self.drafter(proposal.inquiry_id, mail, actor)
        except InquiryBridgeError as exc:
            log.info("visit %s: no customer mail drafted (%s)", visit_id, exc.code)
            return None, exc.user_message("zh_CN")

        def link(session: Session) -> None:
            visit = session.get(Visit, visit_id)
            if visit is not None:
                if reminder:
                    visit.reminder_draft_id = draft_id
                else:
                    visit.confirmation_draft_id = draft_id

        await self.store.run(link)
        return draft_id, ""

    async def remind_due(self) -> list[int]:
        """Tomorrow's visits (Sydney) get their reminder draft, once each; the new drafts."""
        tomorrow = to_sydney(self.clock.now()).date() + timedelta(days=1)
        due = await self.store.read(lambda s: _reminders_due(s, tomorrow))
        made = []
        for visit_id, proposal in due:
            draft_id, _note = await self._draft(visit_id, proposal, "pipeline", reminder=True)
            if draft_id is not None:
                made.append(draft_id)
        return made

    async def tomorrow(self, now: datetime | None = None) -> list[dict[str, Any]]:
        """Tomorrow's Outlook events (Sydney day), for the evening briefing."""
        local = to_sydney(now or self.clock.now())
        start = datetime.combine(local.date() + timedelta(days=1), datetime.min.time(), SYDNEY)
        calendar = self.calendar
        if calendar is None:
            return []
        events = await calendar().between(start, start + timedelta(days=1))
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


def _event_ids(session: Session) -> set[str]:
    from sqlalchemy import select

    found = session.scalars(select(Visit.event_id).where(Visit.event_id.is_not(None)))
    return {e for e in found if e}


def _booked(session: Session, inquiry_id: int) -> tuple[int, datetime, str] | None:
    visit = visits.booked_visit(session, inquiry_id)
    return None if visit is None else (visit.id, visit.start_at, visit.event_id or "")


def _customer_name(session: Session, inquiry_id: int) -> str:
    inquiry = session.get(Inquiry, inquiry_id)
    return (inquiry.customer_name or "") if inquiry is not None else ""


def _reminders_due(session: Session, day: date) -> list[tuple[int, Proposal]]:
    out = []
    for visit in visits.visits_on(session, day):
        inquiry = session.get(Inquiry, visit.inquiry_id)
        if visit.reminder_draft_id is not None or inquiry is None:
            continue
        if to_sydney(utc(visit.created_at)).date() >= day - timedelta(days=1):
            continue  # booked yesterday or later: the confirmation is the reminder
        confirmation = session.get(Draft, visit.confirmation_draft_id or 0)
        if confirmation is not None and confirmation.status in ("pending_approval", "approved"):
            continue  # a reminder would supersede the confirmation he has not sent yet
        start = to_sydney(utc(visit.start_at))
        minutes = int((visit.end_at - visit.start_at).total_seconds() // 60)
        out.append(
            (visit.id, Proposal(inquiry.id, start.isoformat(timespec="minutes"), minutes,
                                f"上门量尺 · {_who(inquiry)}", _where(inquiry)))
        )  # fmt: skip
    return out


def _offer(session: Session, inquiry: Inquiry, proposal: Proposal, now: datetime) -> int | None:
    """The outbox row that offers the times on Telegram (one button each) and in the tray;
    None when these very times were offered already."""
    from sqlalchemy import select

    key = f"{PROPOSED_KIND}:{inquiry.id}:{proposal.token}"
    if session.scalar(select(Notification.id).where(Notification.dedup_key == key)) is not None:
        return None
    lines = [f"- {visits.stamp(datetime.fromisoformat(t))}" for t in proposal.times]
    row = outbox_row(
        dedup_key=key,
        kind=PROPOSED_KIND,
        title=f"上门时间待确认 · {_who(inquiry)}",
        body_md="\n".join(
            [
                f"询盘 #{inquiry.id} · {proposal.location or '地址未知'}",
                "",
                *lines,
                "",
                "点一个时间即确认：预约上门、写入日历，并起草给客户的确认邮件（需您批准才发送）。",
            ]
        ),
        ref=("inquiry", inquiry.id),
        now=now,
    )
    session.add(row)
    session.flush()
    return row.id
