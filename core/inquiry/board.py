"""Board queries: the inquiry list the owner works from, filtered, searched, sorted and paged in SQL.

Why in core and in SQL: the board must stay fast at 50,000 inquiries, so a keystroke in the search
box becomes a lookup in the trigram index (``core.inquiry.search``) and a page of at most a few
hundred rows, never a Python loop over every row. The facade runs these functions on a worker
thread (``Store.read``); front ends only ever hold the pages they have shown.

"Needs me" means an open inquiry that is waiting on us, overdue in its stage, or has a draft
waiting for approval. The same definition feeds the tray's count.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, datetime
from functools import cached_property
from typing import TYPE_CHECKING, TypeAlias

from sqlalchemy import (
    Text,
    and_,
    case,
    cast,
    exists,
    func,
    literal_column,
    or_,
    select,
)
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from core.clock import to_sydney
from core.db.attention_rows import open_complaint_ids_select, open_inquiry_ids_select
from core.db.models import (
    ALL_STAGES,
    CLOSED_STAGES,
    Draft,
    Inquiry,
    Message,
)
from core.inquiry.search import has_search_index, scans_rows, search_condition
from core.inquiry.stage_policy import (
    STAGE_LIMIT_DAYS,
    StageTime,
    overdue_before,
    stage_time,
    stage_time_on,
)

if TYPE_CHECKING:
    from sqlalchemy import Row, Select
    from sqlalchemy.sql.elements import SQLColumnExpression

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


@dataclass(frozen=True)
class BoardQuery:
    """What the owner asked the board to show. Immutable so a stale answer is easy to detect."""

    stages: tuple[str, ...] = ()  # empty: every stage
    classes: tuple[str, ...] = ()  # empty: every class
    needs_me: bool = False
    attention: bool = False  # only inquiries with an open 需要您确认 item (core.rhythm.attention; rows in core.db.attention_rows)
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
    # the Sydney date of the query that read the row: the stage policy's figures for that day
    # are counted on first use and kept (a board repaints its cells far more often than it
    # queries); asked at another date, the row counts afresh
    counted_on: date | None = None

    @cached_property
    def _counted(self) -> StageTime:
        assert self.counted_on is not None
        return stage_time_on(self.stage, self.stage_changed_at, self.counted_on)

    def _stage_time(self, now: datetime) -> StageTime:
        if self.counted_on is not None and to_sydney(now).date() == self.counted_on:
            return self._counted
        return stage_time(self.stage, self.stage_changed_at, now)

    def owes_since(self) -> datetime | None:
        """When the side that owes a reply started owing it."""
        return self.last_inbound_at if self.owes_reply == "us" else self.last_outbound_at

    def days_in_stage(self, now: datetime) -> int:
        """Sydney working days in the stage (the stage policy's count)."""
        return self._stage_time(now).days_in_stage

    def overdue_days(self, now: datetime) -> int:
        return self._stage_time(now).overdue_days

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


def _overdue_condition(now: datetime) -> ColumnElement[bool]:
    """Overdue by the stage policy, as SQL: entered the stage before its policy boundary."""
    return or_(
        *(
            and_(Inquiry.stage == stage, Inquiry.stage_changed_at < overdue_before(limit, now))
            for stage, limit in STAGE_LIMIT_DAYS.items()
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
    session: Session,
    query: BoardQuery,
    now: datetime,
    *,
    with_stage: bool = True,
    dense: bool = False,
) -> list[ColumnElement[bool]]:
    """The WHERE of ``query``. ``dense``: a search that tests every row matches many of them,
    so a page walks the sort column's index and stops after one page of matches; otherwise
    (few matches) the matching ids come from one scan of the covering (stage, search_text)
    index and only they are sorted. A search through the trigram index is always its ids."""
    indexed = bool(query.search.strip()) and has_search_index(session)
    conditions: list[ColumnElement[bool]] = []
    if with_stage and query.stages:
        conditions.append(Inquiry.stage.in_(query.stages))
    if query.classes:
        conditions.append(Inquiry.classification.in_(query.classes))
    if query.needs_me:
        conditions.append(needs_me_condition(now))
    if query.attention:
        conditions.append(Inquiry.id.in_(open_inquiry_ids_select()))
    searched = search_condition(query.search, query.region, indexed=indexed)
    if searched is not None and scans_rows(query.search, indexed=indexed) and not dense:
        conditions.append(Inquiry.id.in_(select(Inquiry.id).where(searched)))
    elif searched is not None:
        conditions.append(searched)
    return conditions


def _sql_literal(value: str | int) -> ColumnElement[object]:
    """A constant written into the SQL, not bound: an expression index (migration 0015) serves
    only an ORDER BY whose expression is the same text, and ``?`` never equals ``'us'``.
    Only code constants (stage names, ranks) go through here, never what a user typed."""
    return literal_column(f"'{value}'" if isinstance(value, str) else str(int(value)))


def _stage_order() -> ColumnElement[int]:
    ranks = {_sql_literal(s): _sql_literal(i) for i, s in enumerate(ALL_STAGES)}
    return case(ranks, value=Inquiry.stage, else_=_sql_literal(99))


def _sort_keys(query: BoardQuery) -> list[SQLColumnExpression[object]]:
    owes_since = case(
        (Inquiry.owes_reply == _sql_literal("us"), Inquiry.last_inbound_at),
        else_=Inquiry.last_outbound_at,
    )
    keys: dict[str, list[SQLColumnExpression[object]]] = {
        "customer": [func.lower(func.coalesce(Inquiry.customer_name, Inquiry.customer_email))],
        "suburb": [func.lower(Inquiry.suburb)],
        # as its JSON text: PostgreSQL's json type has no order, SQLite compares the same text
        "products": [cast(Inquiry.product_types, Text)],
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
# a board row as ``_row_select`` reads it: the types of ``_ROW_COLUMNS``, then the count of
# drafts pending approval
_RowTypes: TypeAlias = tuple[
    int,
    str | None,
    str | None,
    str | None,
    str | None,
    list[str],
    str,
    str,
    str,
    str,
    datetime | None,
    datetime | None,
    datetime | None,
    datetime,
    int,
]


def _row_select() -> Select[*_RowTypes]:
    pending = (
        select(func.count(Draft.id))
        .where(and_(Draft.inquiry_id == Inquiry.id, Draft.status == "pending_approval"))
        .correlate(Inquiry)
        .scalar_subquery()
    )
    return select(*_ROW_COLUMNS, pending.label("pending_drafts"))


def _to_row(r: Row[*_RowTypes], today: date | None = None) -> BoardRow:
    # unpacked by position: a Row's attribute access by name costs more than the rest together
    (
        id_,
        name,
        email,
        phone,
        suburb,
        products,
        classification,
        confidence,
        stage,
        owes,
        inbound,
        outbound,
        contact,
        changed,
        pending,
    ) = r
    return BoardRow(
        id=id_,
        customer_name=name,
        customer_email=email,
        customer_phone=phone,
        suburb=suburb,
        product_types=tuple(products or ()),
        classification=classification or "A",
        confidence=confidence or "low",
        stage=stage,
        owes_reply=owes or "us",
        last_inbound_at=inbound,
        last_outbound_at=outbound,
        last_contact_at=contact,
        stage_changed_at=changed,
        pending_drafts=int(pending or 0),
        counted_on=today,
    )


def fetch_rows(
    session: Session,
    query: BoardQuery,
    now: datetime,
    *,
    offset: int = 0,
    limit: int = 200,
    dense: bool = False,
) -> list[BoardRow]:
    """One page of the board: open complaints first whatever the sort, then the rest.

    An open complaint (需要您确认 "complaint") leads because he handles it himself. That order is
    two queries merged, not one ``CASE WHEN id IN (…)`` sort key: such a key ahead of the sorted
    column makes SQLite sort every matching row (17–31 ms at 50,000) instead of walking the
    column's index and stopping after one page. The complaints are a handful of rows.
    """
    conditions = _conditions(session, query, now, dense=dense)
    order = _sort_keys(query)
    complaints = sorted({int(i) for i in session.scalars(open_complaint_ids_select())})
    if not complaints:
        return _page(session, conditions, order, now, offset, limit)
    leading = _page(session, [*conditions, Inquiry.id.in_(complaints)], order, now, 0, None)
    head = leading[offset : offset + limit]
    if len(head) == limit:
        return head
    rest_conditions = [*conditions, Inquiry.id.not_in(complaints)]
    rest_offset = max(0, offset - len(leading))
    return head + _page(session, rest_conditions, order, now, rest_offset, limit - len(head))


def _page(
    session: Session,
    conditions: list[ColumnElement[bool]],
    order: list[SQLColumnExpression[object]],
    now: datetime,
    offset: int,
    limit: int | None,
) -> list[BoardRow]:
    # the page's ids first, then their columns and draft counts: the correlated count runs for
    # the page's rows only. PostgreSQL evaluated it for every row before its top-N sort
    # (50,000 inquiries: ~330 ms a page); SQLite gives the same answer either way.
    page = _page_ids(conditions, order, offset, limit).subquery()
    stmt = _row_select().join(page, page.c.id == Inquiry.id).order_by(*order)
    today = to_sydney(now).date()
    return [_to_row(r, today) for r in session.execute(stmt)]


def _page_ids(
    conditions: list[ColumnElement[bool]],
    order: list[SQLColumnExpression[object]],
    offset: int,
    limit: int | None,
) -> Select[int]:
    """The ids of one page, in order: the query that must walk the sort column's index."""
    stmt = select(Inquiry.id).where(*conditions).order_by(*order)
    if limit is not None:
        stmt = stmt.limit(limit)
    if offset:
        stmt = stmt.offset(offset)
    return stmt


def fetch_row(session: Session, inquiry_id: int) -> BoardRow | None:
    r = session.execute(_row_select().where(Inquiry.id == inquiry_id)).first()
    return _to_row(r) if r is not None else None


def fetch_rows_by_id(session: Session, inquiry_ids: list[int], now: datetime) -> list[BoardRow]:
    """The board rows of ``inquiry_ids`` (those that exist), in one query: what a board re-reads
    after an action that changed a few inquiries, instead of its whole loaded window."""
    if not inquiry_ids:
        return []
    today = to_sydney(now).date()
    stmt = _row_select().where(Inquiry.id.in_(sorted(set(inquiry_ids))))
    return [_to_row(r, today) for r in session.execute(stmt)]


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
    counted: BoardPage | None = None,
) -> BoardPage:
    """Everything the board needs for a new query, in one read transaction.

    Two scans at most: the page itself and one GROUP BY that gives both the stage bar and the
    total (the total is the sum over the selected stages). ``with_needs_me=False`` skips the
    filter-independent "needs me" count (a search keystroke does not change it); -1 then.
    ``counted``: an answer for the same filters in another order (the owner clicked a column
    title); its counts still hold, so only the page is read.
    """
    if counted is not None and same_filters(counted.query, query):
        counts, total = counted.stage_counts, counted.total
    else:
        counts = stage_counts(session, query, now)
        selected = query.stages or tuple(counts)
        total = sum(counts.get(s, 0) for s in selected)
    return BoardPage(
        query=query,
        rows=fetch_rows(session, query, now, limit=limit, dense=_dense(session, query, total)),
        total=total,
        stage_counts=dict(counts),
        needs_me_total=needs_me_total(session, now) if with_needs_me else -1,
    )


def same_filters(a: BoardQuery, b: BoardQuery) -> bool:
    """Whether two queries select the same rows (they may differ in order)."""
    return replace(a, sort=b.sort, descending=b.descending) == b


# a search that tests every row walks the sort index when at least 1 row in this many matches:
# then one page of 200 reads at most ~4,000 rows (a few ms), where collecting and sorting every
# match costs a scan of the covering index (~20 ms at 50,000 inquiries)
DENSE_ONE_IN = 20


def _dense(session: Session, query: BoardQuery, total: int) -> bool:
    """Whether ``total`` matches of a row-testing search are dense enough to walk the index."""
    if total == 0 or not scans_rows(query.search, indexed=has_search_index(session)):
        return False
    everyone = int(session.scalar(select(func.count(Inquiry.id))) or 0)
    return total * DENSE_ONE_IN >= everyone
