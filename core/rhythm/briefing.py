"""The evening briefing: what tomorrow holds, where to go measuring and in what order.

Read-only over the store (``build_briefing``) so ``briefing --json`` can run on any data folder;
``render_markdown`` turns it into the Chinese text the tray window and Telegram show. Tomorrow's
Outlook appointments come from the caller (the Graph calendar reader) — without a signed-in
calendar the briefing says so instead of pretending the day is free.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import naive_utc, to_sydney, utc
from core.db.models import Draft, Inquiry, Message
from core.glossary import product_name
from core.rhythm.attention import items as attention_items
from core.rhythm.reminders import due_reminders
from core.rhythm.route import Stop, directions_url, locate, plan_route

MEASURE_STAGES = ("inquiry", "measure")
WEEKDAYS_ZH = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")
LAST_SAID_CHARS = 80


@dataclass(frozen=True)
class Visit:
    inquiry_id: int
    customer_name: str | None
    address: str | None
    suburb: str | None
    phone: str | None
    products_zh: list[str]
    last_said: str  # the newest message's first words
    last_said_by: str  # customer | owner | ""
    notes: list[str]
    located: bool
    products: list[str] = field(default_factory=list)  # glossary keys (any UI language)
    lat: float | None = None  # the locality's centre, for the briefing's map
    lon: float | None = None


@dataclass
class Briefing:
    generated_at: str
    for_date: str  # tomorrow, Sydney
    office: str | None
    calendar_checked: bool
    appointments: list[dict[str, Any]]
    measure_route: list[Visit]  # A-class jobs waiting for a measure, in driving order
    unknown_places: list[Visit]  # could not be placed: listed last
    route_km: float | None  # the whole round: office -> stops -> office (straight-line)
    maps_url: str | None
    new_inquiries: list[dict[str, Any]] = field(default_factory=list)
    drafts_waiting: list[dict[str, Any]] = field(default_factory=list)
    overdue: list[dict[str, Any]] = field(default_factory=list)
    needs_you: list[dict[str, Any]] = field(
        default_factory=list
    )  # 需要您确认 (core.rhythm.attention)
    calendar_note: str = ""  # why the calendar was not read ("" when it was)
    office_located: bool = False  # the office address names a place the gazetteer knows
    office_point: tuple[float, float] | None = None
    legs_km: list[float] = field(default_factory=list)  # per leg, the return to the office last

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def _last_said(session: Session, inquiry_id: int) -> tuple[str, str]:
    message = session.scalars(
        select(Message)
        .where(Message.inquiry_id == inquiry_id)
        .order_by(Message.received_at.desc(), Message.id.desc())
        .limit(1)
    ).first()
    if message is None:
        return "", ""
    words = " ".join((message.body_text or message.subject or "").split())
    if len(words) > LAST_SAID_CHARS:
        words = words[: LAST_SAID_CHARS - 1] + "…"
    return words, "owner" if message.direction == "out" else "customer"


def _where(inquiry: Inquiry) -> str | None:
    """The text that places a job: its suburb, else its address (which may name one)."""
    return inquiry.suburb or inquiry.address


def _visit(session: Session, inquiry: Inquiry) -> Visit:
    said, by = _last_said(session, inquiry.id)
    point = locate(_where(inquiry))
    notes = [str(n.get("text", "")) for n in (inquiry.context_data or {}).get("notes") or []]
    return Visit(
        inquiry_id=inquiry.id,
        customer_name=inquiry.customer_name,
        address=inquiry.address,
        suburb=inquiry.suburb,
        phone=inquiry.customer_phone,
        products_zh=[product_name(p) for p in inquiry.product_types or []],
        products=list(inquiry.product_types or []),
        last_said=said,
        last_said_by=by,
        notes=notes[-3:],
        located=point is not None,
        lat=point[0] if point else None,
        lon=point[1] if point else None,
    )


def place_of(visit: Visit) -> str:
    """Street address and suburb once each ('1 Main St, Penrith NSW' already names its suburb)."""
    if visit.address and visit.suburb and visit.suburb.lower() in visit.address.lower():
        return visit.address
    return ", ".join(p for p in (visit.address, visit.suburb) if p)


def _label(visit: Visit) -> str:
    place = place_of(visit)
    return place if "nsw" in place.lower() else f"{place}, NSW"


def build_briefing(
    session: Session,
    now: datetime,
    *,
    office: str | None,
    appointments: list[dict[str, Any]] | None = None,
    calendar_note: str = "",
) -> Briefing:
    """The briefing for the evening of ``now`` (tomorrow's date in Sydney).

    ``appointments`` None means the calendar was not read; ``calendar_note`` says why.
    """
    tomorrow = (to_sydney(now) + timedelta(days=1)).date()
    waiting = list(
        session.scalars(
            select(Inquiry)
            .where(Inquiry.classification == "A", Inquiry.stage.in_(MEASURE_STAGES))
            .order_by(Inquiry.created_at, Inquiry.id)
        )
    )
    visits = {inquiry.id: _visit(session, inquiry) for inquiry in waiting}
    stops = [Stop(i.id, _label(visits[i.id]), _where(i)) for i in waiting]
    office_point = locate(office)
    route = plan_route(stops, office_point)
    since = naive_utc(now) - timedelta(days=1)
    new = session.scalars(
        select(Inquiry).where(Inquiry.created_at >= since).order_by(Inquiry.created_at)
    )
    drafts = session.scalars(
        select(Draft).where(Draft.status == "pending_approval").order_by(Draft.id)
    )
    return Briefing(
        generated_at=utc(now).isoformat(),
        for_date=tomorrow.isoformat(),
        office=office or None,
        calendar_checked=appointments is not None,
        calendar_note="" if appointments is not None else (calendar_note or "未读取 Outlook 日历"),
        appointments=list(appointments or []),
        measure_route=[visits[s.key] for s in route.ordered],
        unknown_places=[visits[s.key] for s in route.unknown],
        route_km=route.total_km if route.ordered else None,
        maps_url=directions_url(office if office_point else None, route.ordered),
        new_inquiries=[
            {"id": i.id, "customer_name": i.customer_name, "suburb": i.suburb} for i in new
        ],
        drafts_waiting=[
            {"id": d.id, "inquiry_id": d.inquiry_id, "to": d.to_addrs, "subject": d.subject}
            for d in drafts
        ],
        overdue=[r.as_json() for r in due_reminders(session, now)],
        needs_you=[i.as_json() for i in attention_items(session)],
        office_located=office_point is not None,
        office_point=office_point,
        legs_km=route.legs_km,
    )
