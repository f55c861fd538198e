"""A start shows the board first: the 待审批 list is read once the board's rows are in, and its
tab then counts the waiting drafts by itself; opening the tab sooner reads it at once (#44)."""

from __future__ import annotations

import asyncio
from typing import Any

from desktop.board.detail_slot import AFTER_PAINT_MS
from desktop.main_window import MainWindow
from tests.desktop.seed import seed_inquiries
from tests.support.qt import settles, wait_until


def _recorded_reads(ctx: Any, order: list[str]) -> None:
    """Note each read of the drafts list in ``order``."""
    reader = ctx.app.draft_reading.reader
    read = reader.list

    async def noted(*args: Any, **kwargs: Any) -> Any:
        order.append("drafts read")
        return await read(*args, **kwargs)

    reader.list = noted


@settles
async def test_the_waiting_list_is_read_after_the_board_and_counts_without_being_opened(  # type: ignore[no-untyped-def]
    ctx, qtbot
) -> None:
    seed_inquiries(ctx.app._services, 20)
    await ctx.app.draft_reading.sample_draft()  # one draft waits for him
    order: list[str] = []
    _recorded_reads(ctx, order)
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.board.model.loaded.connect(lambda: order.append("board rows"))
    window.resize(1340, 700)
    window.show()
    await wait_until(lambda: window.tabs.tabText(1) == "待审批 (1)")
    assert order[:2] == ["board rows", "drafts read"]
    assert window.tabs.currentIndex() == 0  # counted on the board, its tab never opened
    assert window.pending.summary.text() == "1 封草稿等待您批准"


@settles
async def test_opening_the_waiting_tab_before_the_board_has_rows_reads_it_at_once(  # type: ignore[no-untyped-def]
    ctx, qtbot
) -> None:
    await ctx.app.draft_reading.sample_draft()
    order: list[str] = []
    _recorded_reads(ctx, order)
    window = MainWindow(ctx)  # an empty folder: the board shows no rows
    qtbot.addWidget(window)
    assert window.pending.summary.text() == ""  # not "nothing waiting" before it has looked
    window.tabs.setCurrentWidget(window.pending)
    await asyncio.sleep(0.02)  # the read starts; the board's own timer is not due yet
    assert order == ["drafts read"]
    await window.pending.ready()
    assert window.pending.table.rowCount() == 1
    assert window.tabs.tabText(1) == "待审批 (1)"


@settles
async def test_a_window_closed_before_the_list_was_due_reads_it_when_shown_again(  # type: ignore[no-untyped-def]
    ctx, qtbot
) -> None:
    """Closed to the tray the moment its board came: the hidden window reads nothing; shown
    again, it counts the waiting drafts."""
    seed_inquiries(ctx.app._services, 20)
    await ctx.app.draft_reading.sample_draft()
    order: list[str] = []
    _recorded_reads(ctx, order)
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.board.model.loaded.connect(window.hide)  # the moment the rows come, before the list
    window.show()
    await window.board.ready()
    assert not window.isVisible()
    await asyncio.sleep(AFTER_PAINT_MS / 1000 * 3)  # well past when the list was due
    assert order == []
    window.show()
    await wait_until(lambda: window.tabs.tabText(1) == "待审批 (1)")
    assert order == ["drafts read"]


@settles
async def test_a_search_typed_before_the_first_page_came_shows_only_its_matches(  # type: ignore[no-untyped-def]
    ctx, qtbot
) -> None:
    """The first page is read while the window is built; what he asks before it arrives wins
    over it, whichever read finishes last."""
    ids = seed_inquiries(ctx.app._services, 120)
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    board = window.board
    wanted = board.model.row_at(0)
    assert wanted is None  # nothing has arrived yet: the loop has not turned
    board.search.setText("castle hill")
    board._apply_filters()  # (the box's own 150 ms wait, skipped)
    window.show()
    await board.ready()
    shown = [board.model.row_at(i) for i in range(board.model.rowCount())]
    assert 0 < board.model.total < len(ids)
    assert len(shown) == board.model.total
    assert all(r is not None and r.suburb == "Castle Hill" for r in shown)
