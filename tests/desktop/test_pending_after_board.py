"""A start shows the board first: the 待审批 list is read once the board's rows are in, and its
tab then counts the waiting drafts by itself; opening the tab sooner reads it at once (#44)."""

from __future__ import annotations

import asyncio
from typing import Any

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
