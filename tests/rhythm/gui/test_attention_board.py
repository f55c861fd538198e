"""需要您确认 on the board: the marked rows, the filter button and a resolution repainting them."""

from __future__ import annotations

from PySide6.QtCore import Qt

from core.events import NeedsAttention
from desktop.board.view import BoardPage
from tests.desktop.seed import seed_inquiries
from tests.support.qt import settles, wait_until


@settles
async def test_guesses_are_marked_filtered_and_cleared_by_confirming(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    ids = seed_inquiries(ctx.app._services, 30)
    ctx.app._services.bus.publish(NeedsAttention("low_confidence", "inquiry", ids[3], "rules"))
    ctx.app._services.bus.publish(NeedsAttention("low_confidence", "inquiry", ids[7], "rules"))
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    await page.ready()
    assert page.attention.text() == "需要您确认 (2)"
    model = page.model
    row = model.row_of(ids[3])
    assert model.data(model.index(row, 0), Qt.ItemDataRole.DecorationRole) is not None
    assert model.data(model.index(row, 0), Qt.ItemDataRole.ToolTipRole).startswith("需要您确认")
    other = model.row_of(ids[4])
    assert model.data(model.index(other, 0), Qt.ItemDataRole.DecorationRole) is None
    # a guess made while the board is open marks its row in place (no page re-read)
    ctx.app._services.bus.publish(NeedsAttention("low_confidence", "inquiry", ids[4], "rules"))
    await wait_until(lambda: page.attention.text() == "需要您确认 (3)")
    await page.ready()
    other = model.row_of(ids[4])
    assert model.data(model.index(other, 0), Qt.ItemDataRole.DecorationRole) is not None
    [fourth] = [i for i in await ctx.app.attention.items() if i.inquiry_id == ids[4]]
    await ctx.app.attention.confirm(fourth.key)
    await wait_until(lambda: page.attention.text() == "需要您确认 (2)")
    await page.ready()
    assert model.data(model.index(other, 0), Qt.ItemDataRole.DecorationRole) is None

    page.attention.setChecked(True)
    await wait_until(lambda: model.query.attention)
    await page.ready()
    assert sorted(model.ids()) == sorted([ids[3], ids[7]])

    [first, _] = await ctx.app.attention.items()
    await ctx.app.attention.confirm(first.key)
    await wait_until(lambda: page.attention.text() == "需要您确认 (1)")
    await page.ready()
    assert model.ids() == [ids[7]]
