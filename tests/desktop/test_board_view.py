"""The board widget over a real store: search box, filters, header sort, live updates."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt

from core.events import InquiryCreated
from core.inquiry.board import COLUMNS
from core.inquiry.stages import StageService
from desktop.board.model import FIRST_PAGE, PAGE_SIZE
from desktop.board.view import BoardPage
from tests.desktop.seed import seed_inquiries
from tests.support.qt import settles, wait_until


def _names(page: BoardPage) -> list[str]:
    m = page.model
    return [m.data(m.index(r, 0)) for r in range(m.rowCount())]


@settles
async def test_search_box_filters_in_sql_with_phone_in_any_format(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    ids = seed_inquiries(ctx.app._services, 120)
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    await page.ready()
    assert page.model.total == 120
    with ctx.app._services.store.session() as s:
        from core.db.models import Inquiry

        target = s.get(Inquiry, ids[17])
        phone, name = target.customer_phone, target.customer_name
    national = "0" + phone[3:6] + " " + phone[6:9] + " " + phone[9:]
    page.search.setText(national)  # what the owner types: 04xx xxx xxx
    await wait_until(lambda: page.model.query.search == national)
    await page.ready()
    assert page.model.rowCount() == 1
    assert _names(page) == [name]
    assert "1" in page.total_label.text()
    page.search.clear()
    await wait_until(lambda: page.model.query.search == "")
    await page.ready()
    assert page.model.total == 120
    assert page.model.rowCount() == FIRST_PAGE and page.model.canFetchMore()


@settles
async def test_stage_bar_class_and_needs_me_filters(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed_inquiries(ctx.app._services, 200)
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    await page.ready()
    counts = dict(page.model.stage_counts)
    page.stage_buttons["quoting"].click()
    await page.ready()
    assert page.model.rowCount() == counts["quoting"] > 0
    stage_col = COLUMNS.index("stage")
    assert {
        page.model.data(page.model.index(r, stage_col)) for r in range(page.model.rowCount())
    } == {"报价中"}
    assert page.stage_buttons["quoting"].text() == f"报价中 {counts['quoting']}"
    page.class_filter.setCurrentIndex(page.class_filter.findData("B"))
    await page.ready()
    rows = [page.model.row_at(r) for r in range(page.model.rowCount())]
    assert rows and all(r.classification == "B" and r.stage == "quoting" for r in rows)
    page.stage_buttons[""].click()
    page.class_filter.setCurrentIndex(0)
    page.needs_me.setChecked(True)
    await page.ready()
    now = ctx.app._services.clock.now()
    rows = [page.model.row_at(r) for r in range(page.model.rowCount())]
    assert rows and all(r.needs_me(now) for r in rows)
    assert page.model.total == page.model.needs_me_total


@settles
async def test_header_click_sorts_every_column_in_sql(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed_inquiries(ctx.app._services, 60)
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    await page.ready()
    header = page.table.horizontalHeader()
    for column in COLUMNS:
        section = COLUMNS.index(column)
        header.setSortIndicator(section, Qt.SortOrder.AscendingOrder)
        await page.ready()
        assert page.model.query.sort == column and not page.model.query.descending
    page.table.sortByColumn(COLUMNS.index("customer"), Qt.SortOrder.AscendingOrder)
    await page.ready()
    names = [(r.customer_name or "").lower() for r in (page.model.row_at(i) for i in range(60))]
    assert names == sorted(names)
    page.table.sortByColumn(COLUMNS.index("customer"), Qt.SortOrder.DescendingOrder)
    await page.ready()
    names = [(r.customer_name or "").lower() for r in (page.model.row_at(i) for i in range(60))]
    assert names == sorted(names, reverse=True)


@settles
async def test_fetch_more_pages_through_large_boards(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed_inquiries(ctx.app._services, 450)
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    await page.ready()
    assert page.model.rowCount() == FIRST_PAGE and page.model.canFetchMore()
    page.model.fetchMore()
    await wait_until(lambda: page.model.rowCount() == FIRST_PAGE + PAGE_SIZE)
    page.model.fetchMore()
    await wait_until(lambda: page.model.rowCount() == 450)
    assert not page.model.canFetchMore()
    assert len(set(page.model.ids())) == 450


@settles
async def test_a_tall_board_fills_its_window_past_the_first_page(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    """A query reads a short first page; a window taller than it shows no blank rows: the view
    asks for more until its last loaded row is below the bottom edge."""
    seed_inquiries(ctx.app._services, 450)
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    page.resize(1200, 200)
    page.show()
    await page.ready()
    table, model = page.table, page.model
    assert model.rowCount() == FIRST_PAGE
    rows_high = FIRST_PAGE + 60  # the viewport grows past the first page by 60 rows
    page.resize(1200, page.height() - table.viewport().height() + rows_high * table.rowHeight(0))

    def filled() -> bool:
        last = table.visualRect(model.index(model.rowCount() - 1, 0))
        return model.rowCount() > FIRST_PAGE and last.bottom() >= table.viewport().height()

    await wait_until(filled)
    await page.ready()
    assert len(set(model.ids())) == model.rowCount() <= FIRST_PAGE + PAGE_SIZE


@settles
async def test_live_update_keeps_selection_and_scroll(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    ids = seed_inquiries(ctx.app._services, 150)
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    page.resize(1200, 600)
    page.show()
    await page.ready()
    page.table.sortByColumn(COLUMNS.index("customer"), Qt.SortOrder.AscendingOrder)
    await page.ready()
    page.select_row(40)
    selected = page.selected_id()
    page.table.verticalScrollBar().setValue(30)
    scroll = page.table.verticalScrollBar().value()
    # another surface moves a stage and a new inquiry arrives: both come in as core events
    other = next(i for i in ids if i != selected)
    StageService(ctx.app._services.store, ctx.app._services.bus, ctx.app._services.clock).advance(
        other, "lost", reason="test", triggered_by="agent"
    )
    new_id = seed_inquiries(ctx.app._services, 1, seed=99)[0]
    ctx.app._services.bus.publish(InquiryCreated(new_id))
    await wait_until(lambda: page.model.total == 151)
    await page.ready()
    assert page.selected_id() == selected
    assert page.table.verticalScrollBar().value() == scroll
    stage_col = COLUMNS.index("stage")
    row = page.model.row_of(other)
    if row >= 0:
        assert page.model.data(page.model.index(row, stage_col)) == "流失"
    sel = page.table.selectionModel()
    assert sel.isRowSelected(page.model.row_of(selected))
    assert sel.currentIndex().row() == page.model.row_of(selected)
    _ = QItemSelectionModel


@settles
async def test_relative_ages_move_on_while_the_window_is_open(ctx, qtbot, clock) -> None:  # type: ignore[no-untyped-def]
    """ "待我们回复 · 14 分钟" is repainted as time passes, with no new mail and no click: the
    model's minute timer tells the view every age cell changed (the clock is the injected one)."""
    seed_inquiries(ctx.app._services, 3)
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    await page.ready()
    owes = COLUMNS.index("owes")
    model = page.model
    before = model.data(model.index(0, owes))
    repainted: list[tuple[int, int]] = []
    model.dataChanged.connect(
        lambda top, bottom, *_: repainted.append((top.column(), bottom.column()))
    )
    clock.advance(3 * 3600)
    assert model.age_timer.isActive() and model.age_timer.interval() == 60_000
    model.age_timer.setInterval(20)  # a minute, shortened for the test
    await wait_until(lambda: bool(repainted))
    first, last = repainted[0]
    assert first <= owes <= last  # the view re-reads the age cells …
    assert model.data(model.index(0, owes)) != before  # … which now say the later age


def _widths(page: BoardPage) -> list[int]:
    table = page.table
    return [0 if table.isColumnHidden(i) else table.columnWidth(i) for i in range(len(COLUMNS))]


@settles
async def test_columns_hold_still_while_he_types_and_grow_for_a_name_they_would_cut(  # type: ignore[no-untyped-def]
    ctx, qtbot
) -> None:
    """Each keystroke used to share the width out again by the rows it found, so the columns
    jumped as he typed; now they move only when a cell would be cut."""
    from datetime import datetime

    from sqlalchemy import update

    from core.db.models import Inquiry

    ids = seed_inquiries(ctx.app._services, 60)
    long_name = "Bartholomew Featherstonehaugh-Wolfeschlegelsteinhausen"
    ctx.app._services.store.write(
        lambda s: s.execute(
            update(Inquiry)
            .where(Inquiry.id == ids[5])
            .values(customer_name=long_name, last_contact_at=datetime(2020, 1, 1))
        )  # contacted long ago: the last row, off screen when the columns are first fitted
    )
    with ctx.app._services.store.session() as s:
        email = s.get(Inquiry, ids[5]).customer_email
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    page.resize(1400, 700)
    page.show()
    await page.ready()
    before = _widths(page)
    first = _names(page)[0].split()[0]
    for typed in ("a", "an", "e", first[:2], first):  # searches that find fewer, shorter rows
        page.search.setText(typed)
        await wait_until(lambda typed=typed: page.model.query.search == typed)
        await page.ready()
        assert page.model.rowCount() > 0
        assert _widths(page) == before, typed

    assert page.table.columnWidth(0) < page.table.fontMetrics().horizontalAdvance(long_name)
    page.search.setText(email)
    await wait_until(lambda: page.model.query.search == email)
    await page.ready()
    assert _names(page) == [long_name]
    need = page.table.fontMetrics().horizontalAdvance(long_name)
    assert page.table.columnWidth(0) > need  # the whole name, not "Bartho…hausen"
