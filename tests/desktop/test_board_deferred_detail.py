"""The detail pane comes after the board's first paint (#44): until then its place looks as the
pane does with nothing selected, the pane then arrives by itself where the owner's split puts
it, and a click that comes sooner shows the inquiry at once."""

from __future__ import annotations

import re

from PySide6.QtCore import QItemSelectionModel
from PySide6.QtWidgets import QLabel, QTabWidget, QWidget

from desktop.board.view import BoardPage
from desktop.detail import InquiryDetailView
from tests.desktop.seed import seed_inquiries
from tests.support.qt import settles, wait_until

CJK = re.compile(r"[\u4e00-\u9fff]")


def _shown_words(widget: QWidget) -> list[str]:
    return [label.text() for label in widget.findChildren(QLabel) if label.isVisibleTo(widget)]


def _board(ctx, qtbot) -> tuple[QTabWidget, BoardPage]:  # type: ignore[no-untyped-def]
    tabs = QTabWidget()  # where the main window holds the board
    qtbot.addWidget(tabs)
    page = BoardPage(ctx)
    tabs.addTab(page, "board")
    tabs.resize(1366, 700)
    return tabs, page


@settles
async def test_the_pane_arrives_after_the_rows_paint_looking_as_its_place_did(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed_inquiries(ctx.app._services, 30)
    tabs, page = _board(ctx, qtbot)
    right = page.splitter.widget(1)
    assert right is not None and not isinstance(
        right, InquiryDetailView
    )  # not built with the board
    before = _shown_words(right)
    assert len(before) == 1 and CJK.search(before[0]), before  # his language, one line
    tabs.show()
    await page.ready()
    sizes = page.splitter.sizes()
    assert sizes[1] > 0

    await wait_until(lambda: isinstance(page.splitter.widget(1), InquiryDetailView))
    pane = page.splitter.widget(1)
    assert pane is not None and pane.isVisible()
    assert _shown_words(pane) == before  # the same words where they were
    assert page.splitter.sizes() == sizes  # the split did not move
    assert page.detail is pane  # one pane, not a second one built on asking

    # a wider window widens both sides, the table by 3 and the detail by 2 (the board's split)
    tabs.resize(tabs.width() + 500, tabs.height())
    await wait_until(lambda: page.splitter.sizes() != sizes)
    table_gain, pane_gain = (a - b for a, b in zip(page.splitter.sizes(), sizes, strict=True))
    assert pane_gain > 0 and abs(table_gain * 2 - pane_gain * 3) <= 10, (table_gain, pane_gain)


@settles
async def test_a_row_clicked_before_the_pane_arrived_shows_its_inquiry_at_once(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed_inquiries(ctx.app._services, 30)
    tabs, page = _board(ctx, qtbot)
    await page.ready()  # loaded, never painted: the pane has not come by itself
    assert not isinstance(page.splitter.widget(1), InquiryDetailView)
    tabs.show()

    page.table.selectionModel().setCurrentIndex(
        page.model.index(0, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )
    pane = page.splitter.widget(1)
    assert isinstance(pane, InquiryDetailView)
    await pane.ready()
    row = page.model.row_at(0)
    assert row is not None and pane.inquiry_id == row.id
    assert pane.title.text() and pane.title.text() in {row.customer_name, row.customer_email}
    assert pane.isVisible()


@settles
async def test_a_pane_asked_for_before_the_window_shows_gets_the_same_split(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    """The screenshot tool and a tray click ask for the pane before the board was ever shown:
    the split must be the one the board is designed with, not the slot's unlaid-out sizes."""
    seed_inquiries(ctx.app._services, 30)
    early_tabs, early = _board(ctx, qtbot)
    await early.ready()
    assert isinstance(early.detail, InquiryDetailView)  # built now, never shown yet
    early_tabs.show()
    late_tabs, late = _board(ctx, qtbot)
    late_tabs.show()
    await late.ready()
    await wait_until(lambda: isinstance(late.splitter.widget(1), InquiryDetailView))
    await wait_until(lambda: early.splitter.sizes()[1] > 0)
    # within a few pixels: the slot and the pane round the split's shares differently
    pairs = zip(early.splitter.sizes(), late.splitter.sizes(), strict=True)
    assert all(abs(a - b) <= 4 for a, b in pairs), (early.splitter.sizes(), late.splitter.sizes())
    assert early.detail.width() >= 500  # the detail's designed ~540 px at 1366 wide
