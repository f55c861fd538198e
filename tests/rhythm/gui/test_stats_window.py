"""概览 · 成本与质量: opened from the tray menu, it shows the ledger's figures and the trade's
charts, in Chinese and in English, and opens again after being closed."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import insert

from core.db.models import Inquiry, LLMCall, StageEvent
from desktop.tray import TrayController
from tests.support.qt import settles


def _fill(ctx) -> None:  # type: ignore[no-untyped-def]
    now = ctx.app._services.clock.now().replace(tzinfo=None)

    def do(session) -> None:  # type: ignore[no-untyped-def]
        for n in range(3):
            at = now - timedelta(days=n * 3)
            inquiry = Inquiry(
                customer_name=f"Customer {n}", classification="A", stage="measure",
                stage_changed_at=at + timedelta(days=1), created_at=at, updated_at=at,
            )  # fmt: skip
            session.add(inquiry)
            session.flush()
            session.add(StageEvent(inquiry_id=inquiry.id, from_stage=None, to_stage="inquiry",
                                   at=at, reason="new", triggered_by="pipeline"))  # fmt: skip
            session.add(StageEvent(inquiry_id=inquiry.id, from_stage="inquiry",
                                   to_stage="measure", at=at + timedelta(days=1), reason="booked",
                                   triggered_by="owner"))  # fmt: skip
        session.execute(
            insert(LLMCall),
            [
                {"at": now - timedelta(hours=h), "tier": 1 + h % 2, "model": "gpt-4o-mini",
                 "purpose": "classify" if h % 2 else "draft", "prompt_tokens": 100,
                 "completion_tokens": 20, "cost_usd": 0.5, "ok": True}
                for h in range(4)
            ],
        )  # fmt: skip

    ctx.app._services.store.write(do)


@settles
async def test_the_tray_opens_figures_he_can_read(ctx, qtbot, languages) -> None:  # type: ignore[no-untyped-def]
    _fill(ctx)
    tray = TrayController(ctx.app)
    assert tray.stats_action.text() == "概览 · 成本与质量"
    for _ in range(2):  # closed and opened again
        tray.stats_action.trigger()
        window = tray.rhythm.stats
        qtbot.addWidget(window)
        await window.loads.ready()
        assert window.isVisible() and window.tabs.tabText(1) == "成本与质量"
        assert "AI 调用 4 次" in window.summary.text() and "US$2.00" in window.summary.text()
        cells = [window.split_table.item(r, 0).text() for r in range(window.split_table.rowCount())]
        assert "第 1 层" in cells and "邮件分类" in cells and "起草回复" in cells
        assert window.inquiries_chart.series == [window.overview.inquiries_per_week]
        assert sum(window.inquiries_chart.series[0]) == 3
        assert window.stage_chart.labels and window.stage_chart.series[0] == [1.0]
        window.resize(1366, 720)
        assert not window.grab().isNull()
        window.close()
    languages.apply("en")
    tray.stats_action.trigger()
    window = tray.rhythm.stats
    await window.loads.ready()
    assert window.tabs.tabText(1) == "Cost and quality"
    assert window.summary.text().startswith("AI calls: 4")
    window.close()
    tray.hide()


@settles
async def test_cost_page_speaks_chinese_dates_and_skips_empty_weeks(ctx, qtbot, languages) -> None:  # type: ignore[no-untyped-def]
    """词元 (not "tokens"), weeks as dates (not "2026-W43"), and no row of zeros."""
    _fill(ctx)
    tray = TrayController(ctx.app)
    tray.stats_action.trigger()
    window = tray.rhythm.stats
    qtbot.addWidget(window)
    await window.loads.ready()
    table = window.weeks_table
    headers = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert "词元（输入 / 输出）" in headers and not any("token" in h.lower() for h in headers)
    weeks = [table.item(r, 0).text() for r in range(table.rowCount())]
    assert weeks and all("-W" not in w and "月" in w and "日" in w for w in weeks)
    calls = [table.item(r, 1).text() for r in range(table.rowCount())]
    assert "0" not in calls  # weeks without a call are left out
    accuracy = window.accuracy_table
    for r in range(accuracy.rowCount()):
        assert "-W" not in accuracy.item(r, 0).text()
        assert any(accuracy.item(r, c).text() not in ("0", "—") for c in range(1, 6))
    assert all("W" not in label for label in window.inquiries_chart.labels)
    window.close()
    tray.hide()
