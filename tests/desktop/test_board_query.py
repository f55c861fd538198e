"""Board queries against a real SQLite store: filters, search in any phone format, sort, paging."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import insert

from core.db.models import Draft, Inquiry
from core.inquiry.board import BoardQuery, count_rows, fetch_rows, load_page, needs_me_total
from core.inquiry.search import build_search_text


def _add(services, **fields) -> int:  # type: ignore[no-untyped-def]
    now = services.clock.now().replace(tzinfo=None)
    values = {
        "classification": "A",
        "stage": "inquiry",
        "stage_changed_at": now,
        "owes_reply": "customer",
        "created_at": now,
        "updated_at": now,
        "last_contact_at": now,
        "product_types": [],
        "dimensions": [],
        "context_data": {},
    }
    values.update(fields)
    values["search_text"] = build_search_text(
        values.get("customer_name"),
        values.get("customer_email"),
        values.get("customer_phone"),
        values.get("suburb"),
    )
    return services.store.write(
        lambda s: s.execute(insert(Inquiry).returning(Inquiry.id), [values]).scalar_one()
    )


def test_phone_search_matches_every_format(services) -> None:  # type: ignore[no-untyped-def]
    target = _add(services, customer_name="Sarah Mitchell", customer_phone="+61412345678")
    _add(services, customer_name="Other", customer_phone="+61498765432")
    now = services.clock.now()
    with services.store.session() as s:
        for typed in (
            "0412 345 678",
            "+61 412 345 678",
            "0412345678",
            "412-345-678",
            "(04) 1234 5678",
        ):
            rows = fetch_rows(s, BoardQuery(search=typed), now)
            assert [r.id for r in rows] == [target], typed


def test_text_search_name_email_suburb_words(services) -> None:  # type: ignore[no-untyped-def]
    a = _add(
        services,
        customer_name="Sarah Mitchell",
        customer_email="sm@bigpond.com",
        suburb="Castle Hill",
    )
    b = _add(
        services, customer_name="James Nguyen", customer_email="jn@gmail.com", suburb="Parramatta"
    )
    now = services.clock.now()
    with services.store.session() as s:
        assert [r.id for r in fetch_rows(s, BoardQuery(search="castle"), now)] == [a]
        assert [r.id for r in fetch_rows(s, BoardQuery(search="GMAIL"), now)] == [b]
        assert [r.id for r in fetch_rows(s, BoardQuery(search="sarah hill"), now)] == [a]
        assert fetch_rows(s, BoardQuery(search="sarah parramatta"), now) == []
        assert fetch_rows(s, BoardQuery(search="100%_"), now) == []


def test_filters_by_stage_class_and_needs_me(services, clock) -> None:  # type: ignore[no-untyped-def]
    now = clock.now().replace(tzinfo=None)
    owes_us = _add(
        services, customer_name="A1", owes_reply="us", stage="quoting", stage_changed_at=now
    )
    overdue = _add(
        services, customer_name="A2", stage="inquiry", stage_changed_at=now - timedelta(days=3)
    )
    fresh = _add(
        services, customer_name="A3", stage="inquiry", stage_changed_at=now - timedelta(days=1)
    )
    with_draft = _add(services, customer_name="B1", classification="B", stage="follow_up")
    lost = _add(services, customer_name="L", owes_reply="us", stage="lost")
    not_inquiry = _add(services, customer_name="C", owes_reply="us", classification="C")
    services.store.write(
        lambda s: s.add(
            Draft(inquiry_id=with_draft, status="pending_approval", created_at=now, updated_at=now)
        )
    )
    at = clock.now()
    with services.store.session() as s:
        needs = {r.id for r in fetch_rows(s, BoardQuery(needs_me=True), at)}
        assert needs == {owes_us, overdue, with_draft}
        assert needs_me_total(s, at) == 3
        assert {r.id for r in fetch_rows(s, BoardQuery(stages=("inquiry",)), at)} == {
            overdue,
            fresh,
            not_inquiry,
        }
        assert {r.id for r in fetch_rows(s, BoardQuery(classes=("B",)), at)} == {with_draft}
        page = load_page(s, BoardQuery(stages=("inquiry",)), at)
        # the stage bar counts ignore the stage filter itself
        assert page.stage_counts["quoting"] == 1 and page.stage_counts["lost"] == 1
        assert page.total == 3
        row = next(r for r in page.rows if r.id == overdue)
        assert row.overdue_days(at) > 0 and row.needs_me(at)
        assert lost not in needs


def test_every_column_sorts_in_sql_both_ways(services, clock) -> None:  # type: ignore[no-untyped-def]
    now = clock.now().replace(tzinfo=None)
    _add(
        services,
        customer_name="bob",
        suburb="Ryde",
        stage="quoting",
        classification="B",
        last_contact_at=now - timedelta(days=1),
        stage_changed_at=now - timedelta(days=9),
        product_types=["sliding_door"],
        owes_reply="us",
        last_inbound_at=now - timedelta(days=1),
    )
    _add(
        services,
        customer_name="Alice",
        suburb="Manly",
        stage="inquiry",
        classification="A",
        last_contact_at=now - timedelta(days=3),
        stage_changed_at=now - timedelta(days=2),
        product_types=["awning_window"],
        owes_reply="customer",
        last_outbound_at=now,
    )
    _add(
        services,
        customer_name="carol",
        suburb="Bondi",
        stage="done",
        classification="C",
        last_contact_at=now,
        stage_changed_at=now,
        product_types=["flyscreen"],
    )
    expected = {
        "customer": ["Alice", "bob", "carol"],
        "suburb": ["carol", "Alice", "bob"],
        "classification": ["Alice", "bob", "carol"],
        "stage": ["Alice", "bob", "carol"],
        "last_contact": ["Alice", "bob", "carol"],
        "days_in_stage": ["carol", "Alice", "bob"],
        "products": ["Alice", "carol", "bob"],
    }
    with services.store.session() as s:
        for column, names in expected.items():
            up = [
                r.customer_name
                for r in fetch_rows(s, BoardQuery(sort=column, descending=False), clock.now())
            ]
            down = [
                r.customer_name
                for r in fetch_rows(s, BoardQuery(sort=column, descending=True), clock.now())
            ]
            assert up == names, column
            assert down == list(reversed(names)), column
        owes = [
            r.owes_reply
            for r in fetch_rows(s, BoardQuery(sort="owes", descending=False), clock.now())
        ]
        assert owes == sorted(owes)


def test_paging_returns_disjoint_pages(services) -> None:  # type: ignore[no-untyped-def]
    for i in range(25):
        _add(services, customer_name=f"c{i:02d}")
    now = services.clock.now()
    with services.store.session() as s:
        q = BoardQuery(sort="customer", descending=False)
        first = fetch_rows(s, q, now, offset=0, limit=10)
        second = fetch_rows(s, q, now, offset=10, limit=10)
        assert [r.customer_name for r in first + second] == [f"c{i:02d}" for i in range(20)]
        assert count_rows(s, q, now) == 25


def test_the_search_index_gives_the_same_answers_as_a_scan(services) -> None:  # type: ignore[no-untyped-def]
    """The trigram index (migration 0003) must find exactly what a substring scan finds, for
    short and long words, phone digits in any format and text that is FTS5 syntax, and it must
    follow edits to a customer (the triggers) -- a search that silently misses a customer is
    worse than a slow one."""
    from sqlalchemy import select, update

    from core.inquiry.search import has_search_index, refresh_search_text, search_condition

    people = [
        ("Sarah Mitchell", "sarah.m@gmail.com", "+61412345678", "Castle Hill"),
        ("Sam O'Neil", "oneil@bigpond.com", "+61298765432", "Parramatta"),
        ("李明", "liming@qq.com", "+8613800138000", "Hurstville"),
        ("Tom Nguyen", "tom@nguyen-family.net", None, "Cabramatta"),
        ("AND OR NOT", "near@example.com", "+61400111222", "Ryde"),
    ]
    ids = [
        _add(services, customer_name=n, customer_email=e, customer_phone=p, suburb=sub)
        for n, e, p, sub in people
    ]

    def edit(session) -> None:  # type: ignore[no-untyped-def]
        tom = session.get(Inquiry, ids[3])
        tom.customer_name, tom.suburb = "Tom Tran", "Ryde"
        refresh_search_text(tom)

    services.store.write(edit)
    services.store.write(
        lambda s: s.execute(update(Inquiry).where(Inquiry.id == ids[4]).values(search_text=""))
    )
    queries = [
        "s", "sa", "sar", "mitch", "sarah hill", "O'NEIL", "o'n", "李明", "明", "qq.com",
        "0412 345", "+61 412", "0298765432", "04123", "tom tran", "nguyen", "cabramatta",
        "ryde", "and or not", '"', "near", "%", "hill sarah zz", "-", "neil*", "ol",
    ]  # fmt: skip
    with services.store.session() as s:
        assert has_search_index(s)
        for typed in queries:
            found = {}
            for indexed in (True, False):
                condition = search_condition(typed, indexed=indexed)
                found[indexed] = sorted(s.scalars(select(Inquiry.id).where(condition)))
            assert found[True] == found[False], typed
        hits = {
            t: sorted(s.scalars(select(Inquiry.id).where(search_condition(t)))) for t in queries
        }
    assert hits["mitch"] == [ids[0]] and hits["o'n"] == [ids[1]] and hits["李明"] == [ids[2]]
    assert hits["tom tran"] == [ids[3]] and hits["cabramatta"] == [] and hits["ryde"] == [ids[3]]
    assert hits["and or not"] == [] and hits["near"] == []  # its search text was emptied
    assert hits["0412 345"] == [ids[0]] and hits["0298765432"] == [ids[1]]


def _open_complaint(services, inquiry_id: int) -> None:  # type: ignore[no-untyped-def]
    from core.db.app_state import put_state

    key = f"attention:complaint:inquiry:{inquiry_id}"
    value = {"inquiry_id": inquiry_id, "status": "open", "kind": "complaint"}
    services.store.write(lambda s: put_state(s, key, value, services.clock.now()))


def test_open_complaints_lead_every_page_and_paging_loses_or_repeats_no_row(services) -> None:  # type: ignore[no-untyped-def]
    now = services.clock.now().replace(tzinfo=None)
    ids = [
        _add(services, customer_name=f"C{i:02d}", last_contact_at=now - timedelta(hours=i))
        for i in range(12)
    ]
    complaints = [ids[5], ids[9], ids[11]]  # the oldest contact among them leads nothing else
    for i in complaints:
        _open_complaint(services, i)
    at = services.clock.now()
    with services.store.session() as s:
        for query in (BoardQuery(), BoardQuery(sort="customer", descending=False)):
            whole = [r.id for r in fetch_rows(s, query, at, limit=100)]
            assert set(whole[:3]) == set(complaints) and len(whole) == 12, query
            for size in (1, 2, 4, 5):
                paged = [
                    r.id
                    for offset in range(0, 12, size)
                    for r in fetch_rows(s, query, at, offset=offset, limit=size)
                ]
                assert paged == whole, (query, size)
        # a filter that leaves one complaint out still puts the other first
        rows = fetch_rows(s, BoardQuery(search="C09"), at)
        assert [r.id for r in rows] == [ids[9]]


def test_the_page_query_walks_the_sort_index_instead_of_sorting_every_row(services) -> None:  # type: ignore[no-untyped-def]
    """EXPLAIN QUERY PLAN: no temporary B-tree for ORDER BY on the default board (most recent
    contact first), with or without an open complaint; at 50,000 rows such a sort cost 17–31 ms
    per page, the index walk stops after one page."""
    from sqlalchemy import text

    from core.inquiry import board

    now = services.clock.now().replace(tzinfo=None)
    ids = [_add(services, last_contact_at=now - timedelta(hours=i)) for i in range(30)]
    at = services.clock.now()
    order = board._sort_keys(BoardQuery())

    def plan(s, extra) -> list[str]:  # type: ignore[no-untyped-def]
        """The plan of the page's id query (the one that sorts; its columns are then joined)."""
        conditions = [*board._conditions(s, BoardQuery(), at), *extra]
        stmt = board._page_ids(conditions, order, 0, 200)
        sql = stmt.compile(dialect=s.bind.dialect, compile_kwargs={"literal_binds": True})
        return [str(row[-1]) for row in s.execute(text(f"EXPLAIN QUERY PLAN {sql}"))]

    from core.db.models import Inquiry as Row

    with services.store.session() as s:
        plain = plan(s, [])
    assert not any("TEMP B-TREE FOR ORDER BY" in step for step in plain), plain
    assert any("last_contact_at" in step for step in plain), plain
    _open_complaint(services, ids[20])
    with services.store.session() as s:
        assert board.fetch_rows(s, BoardQuery(), at)[0].id == ids[20]
        # the complaints' own query sorts its handful of rows; the page of the rest walks the index
        rest = plan(s, [Row.id.not_in([ids[20]])])
    assert not any("TEMP B-TREE FOR ORDER BY" in step for step in rest), rest
    assert any("last_contact_at" in step for step in rest), rest
