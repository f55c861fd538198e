"""Measuring visits that fit his calendar: what is busy, three free times, and a booking that
two desks cannot both make.

What is busy comes from two places: his Outlook calendar (a Graph user's; read by the caller)
and the app's own ``visits`` table -- every visit he confirmed here, the only calendar an IMAP
user has. A free time is on an NSW working day (``core.workdays``: weekends and NSW public
holidays out), inside working hours, and leaves room to drive from the stop before it and to
the stop after it (straight-line distance between the suburbs from the offline gazetteer, as
the evening route uses; 30 minutes when a place is unknown).

Booking is the one hard rule: a visit holds the quarter hours it covers as ``visit_slots`` rows,
keyed by the quarter hour, so a second visit in any of them fails on the primary key -- whichever
process or machine tries, on SQLite or PostgreSQL -- and the owner gets one Chinese line.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from core.clock import SYDNEY, naive_utc, to_sydney, utc
from core.db.models import Inquiry, Visit, VisitSlot
from core.workdays import is_working_day

SLOT = timedelta(minutes=15)
DAY_START = time(8, 0)  # the first visit of a working day starts no earlier
DAY_END = time(17, 0)  # and the last one ends by then
STEP = timedelta(minutes=30)  # candidate starts: on the hour and the half hour
DEFAULT_TRAVEL = timedelta(minutes=30)  # between stops when a suburb cannot be placed
MIN_TRAVEL = timedelta(minutes=15)
ROAD_FACTOR = 1.4  # roads are longer than the straight line
SPEED_KMH = 35.0  # Sydney suburbs in the daytime
SEARCH_DAYS = 40  # calendar days searched for free times before giving up
PROPOSED_KIND = "visit_proposed"  # the outbox row offering proposed times on Telegram


@dataclass(frozen=True)
class Proposal:
    inquiry_id: int
    start: str  # ISO 8601, Sydney: the time proposed (the first of the options)
    minutes: int
    subject: str
    location: str
    options: list[str] = field(default_factory=list)  # every time offered (ISO, Sydney)

    @property
    def start_at(self) -> datetime:
        return datetime.fromisoformat(self.start)

    @property
    def times(self) -> list[str]:
        return list(self.options) or [self.start]

    @property
    def token(self) -> str:
        """These times, in 8 characters: a Telegram button is valid only while they stand."""
        return hashlib.sha256(",".join(self.times).encode()).hexdigest()[:8]


@dataclass(frozen=True)
class Busy:
    """Time he is taken: a confirmed visit or an Outlook event (aware, any zone)."""

    start: datetime
    end: datetime
    what: str
    where: str = ""


def stamp(moment: datetime) -> str:
    """A time as he reads it: ``2026-12-03 10:00`` (Sydney)."""
    return to_sydney(moment).strftime("%Y-%m-%d %H:%M")


def travel(a: str, b: str) -> timedelta:
    """Driving time between two places (suburbs or addresses), rounded up to 5 minutes."""
    from core.rhythm.route import distance_km, find_place

    here, there = find_place(a) if a else None, find_place(b) if b else None
    if here is None or there is None:
        return DEFAULT_TRAVEL
    minutes = distance_km(here.point, there.point) * ROAD_FACTOR / SPEED_KMH * 60
    return max(MIN_TRAVEL, timedelta(minutes=5 * math.ceil(minutes / 5)))


def clash(
    start: datetime, end: datetime, busy: Iterable[Busy], *, where: str = "", gap: bool = False
) -> Busy | None:
    """The first busy time that overlaps [start, end) -- with ``gap``, also one too close to
    drive between (the travel time from or to ``where``)."""
    for item in sorted(busy, key=lambda b: b.start):
        pad = travel(item.where, where) if gap else timedelta(0)
        if item.start < end + pad and start < item.end + pad:
            return item
    return None


def stored_busy(
    session: Session, start: datetime, end: datetime, *, except_inquiry: int | None = None
) -> list[Busy]:
    """Booked visits overlapping [start, end) (an inquiry's own left out when asked)."""
    query = select(Visit, Inquiry).join(Inquiry, Inquiry.id == Visit.inquiry_id)
    query = query.where(
        Visit.status == "booked", Visit.start_at < naive_utc(end), Visit.end_at > naive_utc(start)
    )
    out = []
    for visit, inquiry in session.execute(query):
        if visit.inquiry_id == except_inquiry:
            continue
        who = inquiry.customer_name or inquiry.customer_email or f"#{inquiry.id}"
        out.append(
            Busy(utc(visit.start_at), utc(visit.end_at), f"上门量尺 · {who}", place_of(inquiry))
        )
    return out


def place_of(inquiry: Inquiry) -> str:
    """Where a visit to this inquiry goes (the suburb places it best)."""
    return inquiry.suburb or inquiry.address or ""


def free_times(
    now: datetime,
    busy: Sequence[Busy],
    minutes: int,
    *,
    count: int = 3,
    where: str = "",
) -> list[datetime]:
    """``count`` free starts (Sydney, aware), the earliest that fits on each working day from
    tomorrow on -- one a day, so the customer gets a real choice of days."""
    length = timedelta(minutes=minutes)
    today = to_sydney(now).date()
    found: list[datetime] = []
    for offset in range(1, SEARCH_DAYS + 1):
        day = today + timedelta(days=offset)
        if not is_working_day(day):
            continue
        start = _first_fit(day, length, busy, where)
        if start is not None:
            found.append(start)
            if len(found) == count:
                break
    return found


def _first_fit(day: date, length: timedelta, busy: Sequence[Busy], where: str) -> datetime | None:
    moment = datetime.combine(day, DAY_START, SYDNEY)
    last = datetime.combine(day, DAY_END, SYDNEY) - length
    while moment <= last:
        if clash(moment, moment + length, busy, where=where, gap=True) is None:
            return moment
        moment += STEP
    return None


def slots(start: datetime, end: datetime) -> list[datetime]:
    """The quarter hours (naive UTC) that [start, end) touches."""
    first = naive_utc(start)
    first = first.replace(minute=first.minute - first.minute % 15, second=0, microsecond=0)
    last = naive_utc(end)
    out = []
    while first < last:
        out.append(first)
        first += SLOT
    return out


def book(
    session: Session,
    inquiry_id: int,
    start: datetime,
    minutes: int,
    *,
    actor: str,
    now: datetime,
) -> Visit:
    """The visit and its quarter hours, flushed: ``IntegrityError`` when another visit holds
    one of them (the caller's transaction then rolls back whole)."""
    end = start + timedelta(minutes=minutes)
    visit = Visit(
        inquiry_id=inquiry_id,
        start_at=naive_utc(start),
        end_at=naive_utc(end),
        status="booked",
        created_by=actor,
        created_at=naive_utc(now),
    )
    session.add(visit)
    session.flush()
    session.add_all(VisitSlot(slot_at=at, visit_id=visit.id) for at in slots(start, end))
    session.flush()
    return visit


def release(session: Session, visit_id: int, status: str = "cancelled") -> None:
    """Free a visit's quarter hours (Outlook refused the event, or he called it off)."""
    session.execute(delete(VisitSlot).where(VisitSlot.visit_id == visit_id))
    visit = session.get(Visit, visit_id)
    if visit is not None:
        visit.status = status


def booked_visit(session: Session, inquiry_id: int) -> Visit | None:
    """The inquiry's booked visit, if any (the newest)."""
    return session.scalar(
        select(Visit)
        .where(Visit.inquiry_id == inquiry_id, Visit.status == "booked")
        .order_by(Visit.id.desc())
    )


def visits_on(session: Session, day: date) -> list[Visit]:
    """Booked visits starting on a Sydney day."""
    start = datetime.combine(day, time(0), SYDNEY)
    query = select(Visit).where(
        Visit.status == "booked",
        Visit.start_at >= naive_utc(start),
        Visit.start_at < naive_utc(start + timedelta(days=1)),
    )
    return list(session.scalars(query.order_by(Visit.start_at)))
