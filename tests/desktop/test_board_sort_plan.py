"""How SQLite answers the board's page: a click on any column title walks an index and stops
after one page, a search reads the trigram index's ids, and a search that tests every row
gives the same page whichever way it is answered (#44).

The plans are read with ``EXPLAIN QUERY PLAN`` on the statements the board really sends, caught
as they go out: a query that sorts every inquiry for one page is what made a click take
25-50 ms at 50,000 inquiries, and only its plan says so on a small test store.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime

import pytest

from core.inquiry.board import COLUMNS, BoardPage, BoardQuery, fetch_rows, load_page
from core.services import Services
from tests.desktop.seed import seed_inquiries
from tests.support.sql_seen import Sent, statements_sent


@contextmanager
def _sent(services: Services) -> Iterator[list[Sent]]:
    """The SELECTs the store sends inside the block, with their parameters."""
    with statements_sent(services.store.engine) as seen:
        selects: list[Sent] = []
        yield selects
    selects.extend(x for x in seen if x.sql.lstrip().upper().startswith("SELECT"))


def _plans(services: Services, sent: list[Sent]) -> list[str]:
    """One line per statement: its plan steps joined."""
    with services.store.engine.connect() as conn:
        raw = conn.connection.dbapi_connection
        assert raw is not None
        return [
            " | ".join(row[3] for row in raw.execute("EXPLAIN QUERY PLAN " + sql, params))
            for sql, params in sent
        ]


def _page_plan(services: Services, query: BoardQuery, now: datetime) -> str:
    """The plan of the subquery that picks the page's ids (the one with LIMIT; the outer query
    then reads and orders those few rows)."""
    with services.store.session() as s, _sent(services) as sent:
        fetch_rows(s, query, now, limit=50)
    limited = [x for x in sent if "LIMIT" in x.sql]
    assert len(limited) == 1, [sql for sql, _ in sent]
    plan = _plans(services, limited)[0]
    inner = re.search(r"MATERIALIZE (\w+) \| (.*?) \| SCAN \1", plan)
    assert inner is not None, plan
    return inner.group(2)


@pytest.fixture
def board(services: Services) -> Services:
    seed_inquiries(services, 600)
    return services


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("column", COLUMNS)
def test_a_click_on_any_column_walks_an_index(
    board: Services, column: str, descending: bool
) -> None:
    plan = _page_plan(board, BoardQuery(sort=column, descending=descending), board.clock.now())
    assert plan.startswith("SCAN inquiries USING") and "INDEX" in plan, plan
    # (owes, ascending: the index gives the order of who owes; only ties are sorted after)
    assert "USE TEMP B-TREE FOR ORDER BY" not in plan, plan


def test_a_word_search_reads_the_trigram_index_not_every_row(board: Services) -> None:
    now = board.clock.now()
    with board.store.session() as s, _sent(board) as sent:
        load_page(s, BoardQuery(search="sarah"), now, with_needs_me=False)
    plans = _plans(board, sent)
    searched = [p for p in plans if "inquiry_search" in p]
    assert len(searched) == 2, plans  # the stage bar's counts and the page
    assert all("SCAN inquiries" not in p for p in searched), searched


@pytest.mark.parametrize("typed", ["s", "sa", "zq", "o", "li", "04"])
@pytest.mark.parametrize("column", ["last_contact", "customer", "owes"])
def test_a_row_testing_search_gives_the_same_page_either_way(
    board: Services, typed: str, column: str
) -> None:
    now = board.clock.now()
    query = BoardQuery(search=typed, sort=column)
    with board.store.session() as s:
        walked = [r.id for r in fetch_rows(s, query, now, limit=50, dense=True)]
        collected = [r.id for r in fetch_rows(s, query, now, limit=50, dense=False)]
        page = load_page(s, query, now, limit=50, with_needs_me=False)
    assert walked == collected == [r.id for r in page.rows]


def test_a_new_sort_order_keeps_the_counts_a_new_filter_counts_again(board: Services) -> None:
    now = board.clock.now()
    with board.store.session() as s:
        first = load_page(s, BoardQuery(search="sarah"), now, with_needs_me=False)
        assert first.total > 0
        resorted = replace(first.query, sort="customer", descending=False)
        with _sent(board) as sent:
            second = load_page(s, resorted, now, with_needs_me=False, counted=first)
        assert not any("GROUP BY" in sql for sql, _ in sent)  # no count was read
        assert (second.total, second.stage_counts) == (first.total, first.stage_counts)
        assert [r.id for r in second.rows] != [r.id for r in first.rows]
        narrowed = replace(resorted, classes=("B",))
        third = load_page(s, narrowed, now, with_needs_me=False, counted=second)
    assert third.total < first.total and third.stage_counts != first.stage_counts
    assert isinstance(third, BoardPage)
