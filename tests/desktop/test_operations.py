"""Owner actions as operations: busy while they run, a failure shown one way in Chinese, what
they changed broadcast on the hub, and the board updating the row a stage move changed without
re-reading its page."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QLabel, QProgressBar, QWidget

from core.inquiry.board import COLUMNS
from desktop import text
from desktop.board.view import BoardPage
from desktop.hub import OpChanges
from desktop.operations import Operation, StatusLine
from tests.desktop.seed import seed_inquiries
from tests.support.qt import settles, wait_until
from tests.support.sql_seen import statements_sent


@settles
async def test_an_operation_is_busy_then_says_in_chinese_why_it_failed(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    iid = seed_inquiries(ctx.app._services, 1)[0]
    window = QWidget()
    qtbot.addWidget(window)
    progress, label = QProgressBar(window), QLabel(window)
    progress.hide()
    followed: list[bool] = []
    status = StatusLine(progress, label, lambda: followed.append(status.is_busy))
    heard: list[tuple[OpChanges, object]] = []
    ctx.hub.changed.connect(lambda changes, handler: heard.append((changes, handler)))
    go = asyncio.Event()

    async def bad_email() -> tuple[str, ...]:
        await go.wait()
        fields: tuple[str, ...] = await ctx.app.inquiries.update_fields(
            iid, {"customer_email": "not-an-email"}
        )
        return fields

    changes = OpChanges(frozenset({iid}))
    op = Operation(window, bad_email, hub=ctx.hub, changes=changes, busy="保存中…", feedback=status)
    task = op.run_in_background()
    await wait_until(lambda: followed == [True])
    assert not progress.isHidden() and label.text() == "保存中…"
    go.set()
    assert await task is None
    assert followed == [True, False] and progress.isHidden()
    assert "邮箱格式不对" in label.text() and label.property("tone") == "error"
    assert op.error is not None
    await asyncio.sleep(0.05)
    assert not [c for c, h in heard if h is window]  # a failure broadcasts nothing


@settles
async def test_a_stage_move_updates_its_row_and_the_stage_bar_without_the_page(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    seed_inquiries(ctx.app._services, 300)
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    page.show()
    await page.ready()
    model = page.model
    page.select_row(5)
    await page.detail.ready()
    iid = page.selected_id()
    assert iid is not None
    before = model.row_at(5)
    assert before is not None
    target = "install" if before.stage != "install" else "production"
    counts = dict(model.stage_counts)
    heard: list[tuple[OpChanges, object]] = []
    ctx.hub.changed.connect(lambda changes, handler: heard.append((changes, handler)))
    with statements_sent(ctx.app._services.store.engine) as sent:
        assert await page.detail.advance_stage(target, "量好了")
        stage = COLUMNS.index("stage")
        await wait_until(lambda: model.row_at(5) is not None and model.row_at(5).stage == target)  # type: ignore[union-attr]
        await page.ready()
    seen = [x.sql for x in sent]
    assert (OpChanges(frozenset({iid}), stages=True), page.detail) in heard
    assert model.data(model.index(5, stage)) == text.stage_name(target)
    assert page.selected_id() == iid  # the row kept its place and the selection
    assert model.stage_counts[target] == counts[target] + 1
    assert model.stage_counts[before.stage] == counts[before.stage] - 1
    assert page.stage_buttons[target].text().endswith(str(counts[target] + 1))
    assert not [s for s in seen if "LIMIT" in s and "FROM inquiries" in s]  # no page re-read
