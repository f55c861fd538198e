"""What each board cell shows, as the item delegate that paints it reads it: the words, the bold
name of a customer waiting on him, the overdue colours, the muted closed rows. The model works a
row's cells out once and keeps them, so these also check that what it keeps follows the rows
through a new sort and a change to an inquiry."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QStyledItemDelegate, QStyleOptionViewItem

from core.inquiry.board import COLUMNS, BoardRow
from core.inquiry.stages import StageService
from desktop.board import model as board_model
from desktop.board.view import BoardPage
from desktop.look import ATTENTION, MUTED, OVERDUE
from tests.desktop.seed import seed_inquiries
from tests.support.qt import settles, wait_until


def _painted(index: QModelIndex) -> QStyleOptionViewItem:
    """The cell as Qt's delegate prepares it for painting (through the model's multiData)."""
    option = QStyleOptionViewItem()
    QStyledItemDelegate().initStyleOption(option, index)
    return option


def _check_row(page: BoardPage, r: int) -> BoardRow:
    model = page.model
    row = model.row_at(r)
    assert row is not None
    now = page.ctx.app.clock.now()
    closed = row.stage in ("done", "lost")
    cells = {c: _painted(model.index(r, i)) for i, c in enumerate(COLUMNS)}
    assert cells["customer"].text == (row.customer_name or row.customer_email)
    assert cells["suburb"].text == (row.suburb or "")
    assert cells["customer"].font.bold() == row.needs_me(now)
    assert not cells["stage"].icon.isNull()
    days = cells["days_in_stage"]
    text = days.palette.color(QPalette.ColorRole.Text)
    if row.overdue_days(now) > 0:
        assert days.text.startswith("⚠") and text == OVERDUE
        assert days.backgroundBrush.style() != Qt.BrushStyle.NoBrush
    else:
        assert not days.text.startswith("⚠")
        assert days.backgroundBrush.style() == Qt.BrushStyle.NoBrush
    owes = cells["owes"]
    if closed:
        assert owes.text == ""
        assert cells["suburb"].palette.color(QPalette.ColorRole.Text) == MUTED
    elif row.owes_reply == "us":
        assert owes.palette.color(QPalette.ColorRole.Text) == ATTENTION
    return row


@settles
async def test_each_cell_paints_its_own_row_before_and_after_a_sort(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed_inquiries(ctx.app._services, 80)
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    page.resize(1400, 700)
    page.show()
    await page.ready()
    model = page.model
    seen = [_check_row(page, r) for r in range(model.rowCount())]
    # the seed holds every kind of row the checks tell apart
    now = ctx.app.clock.now()
    assert any(r.overdue_days(now) > 0 for r in seen)
    assert any(r.stage in ("done", "lost") for r in seen)
    assert any(r.needs_me(now) for r in seen) and not all(r.needs_me(now) for r in seen)
    first = model.row_at(0)
    page.table.sortByColumn(COLUMNS.index("customer"), Qt.SortOrder.AscendingOrder)
    await page.ready()
    assert model.row_at(0) != first  # another row now leads: its own words, not the old ones
    for r in range(model.rowCount()):
        _check_row(page, r)


@settles
async def test_a_row_closed_elsewhere_repaints_muted_in_place(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    ids = seed_inquiries(ctx.app._services, 30)
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    page.show()
    await page.ready()
    model = page.model
    target = next(
        i for i in ids if (row := model.row_at(model.row_of(i))) and row.stage not in ("lost",)
    )
    r = model.row_of(target)
    _painted(model.index(r, 0))  # asked once: the model keeps the row's cells
    StageService(ctx.app._services.store, ctx.app._services.bus, ctx.app.clock).advance(
        target, "lost", reason="test", triggered_by="agent"
    )
    stage = COLUMNS.index("stage")
    await wait_until(lambda: _painted(model.index(model.row_of(target), stage)).text == "流失")
    row = _check_row(page, model.row_of(target))
    assert row.stage == "lost"


@settles
async def test_cells_stay_right_past_the_rows_kept(ctx, qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Scrolling far starts the kept cells afresh; every row still paints its own words."""
    monkeypatch.setattr(board_model, "ROWS_KEPT", 40)
    seed_inquiries(ctx.app._services, 250)
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    await page.ready()
    model = page.model
    while model.canFetchMore():
        model.fetchMore()
        await page.ready()
        await wait_until(lambda: model._more_task is None or model._more_task.done())
    assert model.rowCount() == 250
    for r in range(model.rowCount()):
        _check_row(page, r)
    assert len(model._cells) <= 41
