"""Board queries: the inquiry list the owner works from, filtered, searched, sorted and paged in SQL.

Why in core and in SQL: the board must stay fast at 50,000 inquiries, so a keystroke in the search
box becomes a lookup in the trigram full-text index over the lower-cased ``Inquiry.search_text``
(migration 0003; words of one or two characters, and SQLite builds without FTS5, fall back to a
substring test with ``instr``) and a page of at most a few hundred rows, never a Python loop over
every row. The desktop model runs these functions on a
worker thread (``Store.read``) and only ever holds the pages it has shown.

Phone search accepts any format: ``0412 345 678``, ``+61 412 345 678`` and ``0412345678`` all find
the same customer, because the query is reduced to digits and matched against both the
international and the national digits kept in ``search_text`` (see ``build_search_text``).

"Needs me" means an open inquiry that is waiting on us, overdue in its stage, or has a draft
waiting for approval. The same definition feeds the tray's count.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import phonenumbers
from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    Table,
    Text,
    and_,
    case,
    exists,
    func,
    or_,
    select,
    text,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from core.clock import utc
from core.db.models import (
    ALL_STAGES,
    CLOSED_STAGES,
    SEARCH_INDEX,
    STAGES,
    Attachment,
    Draft,
    DriveItem,
    Inquiry,
    Memory,
    Message,
    StageEvent,
)
from core.deals.stages import STAGE_TIMEOUT_DAYS, overdue_days

# Column keys of the board, in display order. Every one is sortable in SQL.
COLUMNS: tuple[str, ...] = (
    "customer",
    "suburb",
    "products",
    "classification",
    "stage",
    "owes",
    "last_contact",
    "days_in_stage",
)

_PHONE_SHAPE = re.compile(r"^[\d\s+().\-]+$")
# FTS5's trigram tokenizer indexes every 3-character substring; shorter words use instr()
_TRIGRAM = 3
# the FTS5 table of migration 0003; not in the ORM metadata (it is virtual, kept by triggers)
_search_index = Table(
    SEARCH_INDEX, MetaData(), Column("rowid", Integer), Column("search_text", Text)
)
_indexed_engines: weakref.WeakKeyDictionary[Engine, bool] = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class BoardQuery:
    """What the owner asked the board to show. Immutable so a stale answer is easy to detect."""

    stages: tuple[str, ...] = ()  # empty: every stage
    classes: tuple[str, ...] = ()  # empty: every class
    needs_me: bool = False
    search: str = ""
    sort: str = "last_contact"
    descending: bool = True
    region: str = "AU"


@dataclass(frozen=True)
class BoardRow:
    """One row of the board: plain values, safe to hand from a worker thread to the UI."""

    id: int
    customer_name: str | None
    customer_email: str | None
    customer_phone: str | None
    suburb: str | None
    product_types: tuple[str, ...]
    classification: str
    confidence: str
    stage: str
    owes_reply: str
    last_inbound_at: datetime | None
    last_outbound_at: datetime | None
    last_contact_at: datetime | None
    stage_changed_at: datetime
    pending_drafts: int

    def owes_since(self) -> datetime | None:
        """When the side that owes a reply started owing it."""
        return self.last_inbound_at if self.owes_reply == "us" else self.last_outbound_at

    def days_in_stage(self, now: datetime) -> int:
        return max(0, (utc(now) - utc(self.stage_changed_at)).days)

    def overdue_days(self, now: datetime) -> int:
        return overdue_days(self.stage, self.stage_changed_at, now)

    def needs_me(self, now: datetime) -> bool:
        if self.stage in CLOSED_STAGES or self.classification == "C":
            return False
        return self.owes_reply == "us" or self.pending_drafts > 0 or self.overdue_days(now) > 0


@dataclass(frozen=True)
class BoardPage:
    """The first answer for a query: rows, the total, and the stage bar counts."""

    query: BoardQuery
    rows: list[BoardRow]
    total: int
    stage_counts: dict[str, int] = field(default_factory=dict)
    needs_me_total: int = 0


# ---------------------------------------------------------------------------------------------
# search_text


def phone_digit_forms(phone: str | None, region: str = "AU") -> list[str]:
    """Digits of a phone in international and national form (``61412345678``, ``0412345678``)."""
    if not phone:
        return []
    forms: list[str] = []
    digits = re.sub(r"\D", "", phone)
    if digits:
        forms.append(digits)
    try:
        parsed = phonenumbers.parse(phone, region)
    except phonenumbers.NumberParseException:
        return forms
    national = re.sub(
        r"\D",
        "",
        phonenumbers.format_number(parsed, phonenumbers.PhoneNumberFormat.NATIONAL),
    )
    international = f"{parsed.country_code}{parsed.national_number}"
    for form in (international, national):
        if form and form not in forms:
            forms.append(form)
    return forms


def build_search_text(
    name: str | None,
    email: str | None,
    phone: str | None,
    suburb: str | None,
    region: str = "AU",
) -> str:
    """The lower-cased text the search box matches: name, email, phone digits (both forms), suburb."""
    parts = [name or "", email or "", *phone_digit_forms(phone, region), suburb or ""]
    return " ".join(p.strip().lower() for p in parts if p and p.strip())


def refresh_search_text(inquiry: Inquiry, region: str = "AU") -> None:
    inquiry.search_text = build_search_text(
        inquiry.customer_name,
        inquiry.customer_email,
        inquiry.customer_phone,
        inquiry.suburb,
        region,
    )


def has_search_index(session: Session) -> bool:
    """Whether this database has the trigram index (once per engine: it never goes away)."""
    engine = session.get_bind()
    if not isinstance(engine, Engine):
        engine = engine.engine
    if engine not in _indexed_engines:
        found = session.execute(
            text("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = :name"),
            {"name": SEARCH_INDEX},
        ).scalar()
        _indexed_engines[engine] = bool(found)
    return _indexed_engines[engine]


def _phrase(term: str) -> str:
    """One FTS5 phrase: quoted, so customer text like ``o'neil`` or ``-`` is never syntax."""
    return '"' + term.replace('"', '""') + '"'


def _indexed(match: str) -> ColumnElement[bool]:
    ids = select(_search_index.c.rowid).where(_search_index.c.search_text.op("MATCH")(match))
    return Inquiry.id.in_(ids)


def search_condition(
    search: str, region: str = "AU", *, indexed: bool = True
) -> ColumnElement[bool] | None:
    """The WHERE clause of a search box text: phone-shaped → digits in any format; else every
    word as a substring. ``indexed``: use the trigram index (see ``has_search_index``)."""
    typed = search.strip().lower()
    if not typed:
        return None
    if _PHONE_SHAPE.match(typed) and sum(c.isdigit() for c in typed) >= _TRIGRAM:
        digits = re.sub(r"\D", "", typed)
        alternatives = {digits}
        code = str(phonenumbers.country_code_for_region(region) or "")
        if digits.startswith("0") and code:
            alternatives.add(code + digits[1:])
        elif code and digits.startswith(code) and len(digits) > len(code) + 4:
            alternatives.add("0" + digits[len(code) :])
        if indexed:
            return _indexed(" OR ".join(_phrase(a) for a in sorted(alternatives)))
        return or_(*(func.instr(Inquiry.search_text, a) > 0 for a in sorted(alternatives)))
    words = list(dict.fromkeys(typed.split()))
    long_words = [w for w in words if indexed and len(w) >= _TRIGRAM]
    # search_text is lower-cased already: instr() is a plain substring test, cheaper than a
    # case-folding LIKE and free of wildcard escaping
    conditions = [func.instr(Inquiry.search_text, w) > 0 for w in words if w not in long_words]
    if long_words:
        conditions.insert(0, _indexed(" AND ".join(_phrase(w) for w in long_words)))
    return and_(*conditions)


# ---------------------------------------------------------------------------------------------
# filters and sort


def _overdue_condition(now: datetime) -> ColumnElement[bool]:
    naive_now = utc(now).replace(tzinfo=None)
    return or_(
        *(
            and_(Inquiry.stage == stage, Inquiry.stage_changed_at < naive_now - timedelta(days=d))
            for stage, d in STAGE_TIMEOUT_DAYS.items()
        )
    )


def _pending_draft_exists() -> ColumnElement[bool]:
    return exists().where(and_(Draft.inquiry_id == Inquiry.id, Draft.status == "pending_approval"))


def needs_me_condition(now: datetime) -> ColumnElement[bool]:
    return and_(
        Inquiry.stage.not_in(CLOSED_STAGES),
        Inquiry.classification != "C",
        or_(Inquiry.owes_reply == "us", _overdue_condition(now), _pending_draft_exists()),
    )


def _conditions(
    session: Session, query: BoardQuery, now: datetime, *, with_stage: bool = True
) -> list[Any]:
    indexed = bool(query.search.strip()) and has_search_index(session)
    conditions: list[Any] = []
    if with_stage and query.stages:
        conditions.append(Inquiry.stage.in_(query.stages))
    if query.classes:
        conditions.append(Inquiry.classification.in_(query.classes))
    if query.needs_me:
        conditions.append(needs_me_condition(now))
    searched = search_condition(query.search, query.region, indexed=indexed)
    if searched is not None:
        # matching ids from the covering (stage, search_text) index, then the sorted page
        conditions.append(Inquiry.id.in_(select(Inquiry.id).where(searched)))
    return conditions


def _stage_order() -> ColumnElement[int]:
    return case({s: i for i, s in enumerate(ALL_STAGES)}, value=Inquiry.stage, else_=99)


def _sort_keys(query: BoardQuery) -> list[Any]:
    owes_since = case(
        (Inquiry.owes_reply == "us", Inquiry.last_inbound_at), else_=Inquiry.last_outbound_at
    )
    keys: dict[str, list[Any]] = {
        "customer": [func.lower(func.coalesce(Inquiry.customer_name, Inquiry.customer_email))],
        "suburb": [func.lower(Inquiry.suburb)],
        "products": [Inquiry.product_types],
        "classification": [Inquiry.classification],
        "stage": [_stage_order()],
        "owes": [Inquiry.owes_reply, owes_since],
        "last_contact": [Inquiry.last_contact_at],
        # more days in stage = earlier stage_changed_at
        "days_in_stage": [Inquiry.stage_changed_at],
    }
    if query.sort not in keys:
        raise ValueError(f"unknown board column {query.sort!r}")
    columns = keys[query.sort]
    descending = query.descending
    if query.sort == "days_in_stage":
        descending = not descending
    ordered = [c.desc().nulls_last() if descending else c.asc().nulls_last() for c in columns]
    return [*ordered, Inquiry.id.desc() if descending else Inquiry.id.asc()]


_ROW_COLUMNS = (
    Inquiry.id,
    Inquiry.customer_name,
    Inquiry.customer_email,
    Inquiry.customer_phone,
    Inquiry.suburb,
    Inquiry.product_types,
    Inquiry.classification,
    Inquiry.confidence,
    Inquiry.stage,
    Inquiry.owes_reply,
    Inquiry.last_inbound_at,
    Inquiry.last_outbound_at,
    Inquiry.last_contact_at,
    Inquiry.stage_changed_at,
)


def _row_select() -> Any:
    pending = (
        select(func.count(Draft.id))
        .where(and_(Draft.inquiry_id == Inquiry.id, Draft.status == "pending_approval"))
        .correlate(Inquiry)
        .scalar_subquery()
    )
    return select(*_ROW_COLUMNS, pending.label("pending_drafts"))


def _to_row(r: Any) -> BoardRow:
    return BoardRow(
        id=r.id,
        customer_name=r.customer_name,
        customer_email=r.customer_email,
        customer_phone=r.customer_phone,
        suburb=r.suburb,
        product_types=tuple(r.product_types or ()),
        classification=r.classification or "A",
        confidence=r.confidence or "low",
        stage=r.stage,
        owes_reply=r.owes_reply or "us",
        last_inbound_at=r.last_inbound_at,
        last_outbound_at=r.last_outbound_at,
        last_contact_at=r.last_contact_at,
        stage_changed_at=r.stage_changed_at,
        pending_drafts=int(r.pending_drafts or 0),
    )


def fetch_rows(
    session: Session, query: BoardQuery, now: datetime, *, offset: int = 0, limit: int = 200
) -> list[BoardRow]:
    stmt = (
        _row_select()
        .where(*_conditions(session, query, now))
        .order_by(*_sort_keys(query))
        .offset(offset)
        .limit(limit)
    )
    return [_to_row(r) for r in session.execute(stmt)]


def fetch_row(session: Session, inquiry_id: int) -> BoardRow | None:
    r = session.execute(_row_select().where(Inquiry.id == inquiry_id)).first()
    return _to_row(r) if r is not None else None


def count_rows(session: Session, query: BoardQuery, now: datetime) -> int:
    stmt = select(func.count(Inquiry.id)).where(*_conditions(session, query, now))
    return int(session.scalar(stmt) or 0)


def stage_counts(session: Session, query: BoardQuery, now: datetime) -> dict[str, int]:
    """Counts per stage under every filter except the stage filter (what the stage bar shows)."""
    stmt = (
        select(Inquiry.stage, func.count(Inquiry.id))
        .where(*_conditions(session, query, now, with_stage=False))
        .group_by(Inquiry.stage)
    )
    counts = dict.fromkeys(ALL_STAGES, 0)
    for stage, n in session.execute(stmt):
        counts[stage] = int(n)
    return counts


def needs_me_total(session: Session, now: datetime) -> int:
    """How many inquiries need the owner (the tray's count)."""
    return int(session.scalar(select(func.count(Inquiry.id)).where(needs_me_condition(now))) or 0)


def message_counts(session: Session, inquiry_ids: list[int]) -> dict[int, int]:
    """How many messages each of ``inquiry_ids`` holds (absent: none)."""
    if not inquiry_ids:
        return {}
    rows = session.execute(
        select(Message.inquiry_id, func.count(Message.id))
        .where(Message.inquiry_id.in_(inquiry_ids))
        .group_by(Message.inquiry_id)
    ).all()
    return {int(i): int(n) for i, n in rows if i is not None}


def load_page(
    session: Session,
    query: BoardQuery,
    now: datetime,
    *,
    limit: int = 200,
    with_needs_me: bool = True,
) -> BoardPage:
    """Everything the board needs for a new query, in one read transaction.

    Two scans at most: the page itself and one GROUP BY that gives both the stage bar and the
    total (the total is the sum over the selected stages). ``with_needs_me=False`` skips the
    filter-independent "needs me" count (a search keystroke does not change it); -1 then.
    """
    counts = stage_counts(session, query, now)
    selected = query.stages or tuple(counts)
    return BoardPage(
        query=query,
        rows=fetch_rows(session, query, now, limit=limit),
        total=sum(counts.get(s, 0) for s in selected),
        stage_counts=counts,
        needs_me_total=needs_me_total(session, now) if with_needs_me else -1,
    )


# ---------------------------------------------------------------------------------------------
# detail


@dataclass(frozen=True)
class AttachmentInfo:
    id: int
    filename: str
    content_type: str
    size: int
    stored_path: str | None
    skipped_reason: str | None


@dataclass(frozen=True)
class MessageInfo:
    id: int
    direction: str
    from_addr: str | None
    from_name: str | None
    to_addrs: tuple[str, ...]
    subject: str
    received_at: datetime
    body_text: str
    body_full: str
    translation_zh: str | None
    attachments: tuple[AttachmentInfo, ...]


@dataclass(frozen=True)
class StageEventInfo:
    from_stage: str | None
    to_stage: str
    at: datetime
    reason: str
    triggered_by: str


@dataclass(frozen=True)
class NoteInfo:
    id: int
    kind: str
    text: str
    source: str
    status: str
    created_at: datetime


@dataclass(frozen=True)
class InquiryDetail:
    """One inquiry with its thread (oldest first), stage history, notes and drive folder."""

    id: int
    classification: str
    confidence: str
    stage: str
    stage_changed_at: datetime
    customer_name: str | None
    customer_email: str | None
    customer_phone: str | None
    address: str | None
    suburb: str | None
    product_types: tuple[str, ...]
    dimensions: tuple[str, ...]
    language: str
    urgency: str | None
    owes_reply: str
    created_at: datetime
    drive_folder_name: str | None
    drive_web_url: str | None
    messages: tuple[MessageInfo, ...]
    stage_events: tuple[StageEventInfo, ...]
    notes: tuple[NoteInfo, ...]
    pending_drafts: tuple[int, ...]
    # files the owner added from his computer (添加本机文件), oldest first; no email carried them
    owner_files: tuple[AttachmentInfo, ...] = ()


def _attachment_info(a: Attachment) -> AttachmentInfo:
    return AttachmentInfo(a.id, a.filename, a.content_type, a.size, a.stored_path, a.skipped_reason)


def load_detail(session: Session, inquiry_id: int) -> InquiryDetail | None:
    inquiry = session.get(Inquiry, inquiry_id)
    if inquiry is None:
        return None
    messages = session.scalars(
        select(Message)
        .where(Message.inquiry_id == inquiry_id, Message.removed_at.is_(None))
        .order_by(Message.received_at, Message.id)
    ).all()
    pks = [m.id for m in messages]
    attachments: dict[int, list[AttachmentInfo]] = {}
    if pks:
        for a in session.scalars(
            select(Attachment).where(Attachment.message_pk.in_(pks)).order_by(Attachment.id)
        ):
            if a.is_inline and (a.content_type or "").startswith("image/") and a.size < 20_000:
                continue  # signature logos
            attachments.setdefault(a.message_pk, []).append(_attachment_info(a))
    owner_files = session.scalars(
        select(Attachment)
        .where(Attachment.inquiry_id == inquiry_id, Attachment.message_pk.is_(None))
        .order_by(Attachment.id)
    ).all()
    events = session.scalars(
        select(StageEvent)
        .where(StageEvent.inquiry_id == inquiry_id)
        .order_by(StageEvent.at, StageEvent.id)
    ).all()
    notes = session.scalars(
        select(Memory)
        .where(Memory.inquiry_id == inquiry_id)
        .order_by(Memory.created_at.desc(), Memory.id.desc())
    ).all()
    drafts = session.scalars(
        select(Draft.id).where(Draft.inquiry_id == inquiry_id, Draft.status == "pending_approval")
    ).all()
    web_url = None
    if inquiry.drive_folder_id:
        item = session.get(DriveItem, inquiry.drive_folder_id)
        web_url = item.web_url if item is not None else None
    return InquiryDetail(
        id=inquiry.id,
        classification=inquiry.classification,
        confidence=inquiry.confidence,
        stage=inquiry.stage,
        stage_changed_at=inquiry.stage_changed_at,
        customer_name=inquiry.customer_name,
        customer_email=inquiry.customer_email,
        customer_phone=inquiry.customer_phone,
        address=inquiry.address,
        suburb=inquiry.suburb,
        product_types=tuple(inquiry.product_types or ()),
        dimensions=tuple(inquiry.dimensions or ()),
        language=inquiry.language,
        urgency=inquiry.urgency,
        owes_reply=inquiry.owes_reply,
        created_at=inquiry.created_at,
        drive_folder_name=inquiry.drive_folder_name,
        drive_web_url=web_url,
        messages=tuple(
            MessageInfo(
                id=m.id,
                direction=m.direction,
                from_addr=m.from_addr,
                from_name=m.from_name,
                to_addrs=tuple(m.to_addrs or ()),
                subject=m.subject,
                received_at=m.received_at,
                body_text=m.body_text,
                body_full=m.body_full,
                translation_zh=m.translation_zh,
                attachments=tuple(attachments.get(m.id, ())),
            )
            for m in messages
        ),
        stage_events=tuple(
            StageEventInfo(e.from_stage, e.to_stage, e.at, e.reason, e.triggered_by) for e in events
        ),
        notes=tuple(
            NoteInfo(n.id, n.kind, n.text, n.source, n.status, n.created_at) for n in notes
        ),
        pending_drafts=tuple(drafts),
        owner_files=tuple(_attachment_info(a) for a in owner_files),
    )


__all__ = [
    "COLUMNS",
    "STAGES",
    "BoardPage",
    "BoardQuery",
    "BoardRow",
    "InquiryDetail",
    "build_search_text",
    "count_rows",
    "fetch_row",
    "fetch_rows",
    "load_detail",
    "load_page",
    "message_counts",
    "needs_me_total",
    "refresh_search_text",
    "stage_counts",
]
