"""The desktop's board and detail header through the calendar's awkward days: at every pinned time
of ``tests/rhythm/test_stage_policy_calendar.py`` (holidays, the DST nights, either side of
Sydney midnight), over the same home, they show the hand-counted working days and overdue.

Real widgets (offscreen) over an App whose FakeClock is pinned to the instant: the board's
"days in stage" cell as the owner reads it ("⚠ 8 个工作日 (+6)" when overdue), and the detail
header's "超期 N 个工作日" (nothing about overdue when the job is not).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from core.clock import FakeClock
from core.db.models import CLOSED_STAGES
from core.inquiry.board import COLUMNS
from core.inquiry.stage_policy import STAGE_LIMIT_DAYS
from desktop.board.view import BoardPage
from desktop.detail import InquiryDetailView
from tests.rhythm import test_stage_policy_calendar as calendar
from tests.support.qt import settles

# the module-scoped home of the calendar test, built once for this module too
calendar_home = calendar.calendar_home


@pytest.fixture(params=calendar.PINNED)
def when(request: pytest.FixtureRequest) -> datetime:
    return datetime.fromisoformat(str(request.param).replace("Z", "+00:00"))


@pytest.fixture
def home(calendar_home: tuple[Path, dict[str, int]]) -> Path:
    """The ``services`` (and so ``ctx``) of this module open the calendar home."""
    return calendar_home[0]


@pytest.fixture
def clock(when: datetime) -> FakeClock:
    return FakeClock(when)


def _hand_count(now: datetime) -> dict[str, tuple[int, int]]:
    """Working days in the stage and overdue, by suburb, counted from the list of holidays."""
    counted = {}
    for suburb, header, _, stage, entered in calendar.JOBS:
        since = calendar._since(header, entered)
        days = calendar._expected_days(since, now) if since <= now else 0
        limit = STAGE_LIMIT_DAYS.get(stage)
        counted[suburb] = (days, max(0, days - limit) if limit is not None else 0)
    return counted


@settles
async def test_the_board_and_the_detail_header_show_the_hand_counted_days(  # type: ignore[no-untyped-def]
    ctx, qtbot, when: datetime, calendar_home: tuple[Path, dict[str, int]]
) -> None:
    _, ids = calendar_home
    assert ctx.app.clock.now() == when
    page = BoardPage(ctx)
    qtbot.addWidget(page)
    await page.ready()
    model = page.model
    column = COLUMNS.index("days_in_stage")
    detail = InquiryDetailView(ctx)
    qtbot.addWidget(detail)
    stages = {job[0]: job[3] for job in calendar.JOBS}
    for suburb, (days, over) in _hand_count(when).items():
        row = model.row_of(ids[suburb])
        assert row >= 0, suburb
        cell = model.data(model.index(row, column), Qt.ItemDataRole.DisplayRole)
        expected = f"⚠ {days} 个工作日 (+{over})" if over else f"{days} 个工作日"
        assert cell == expected, (suburb, when, cell)
        detail.show_inquiry(ids[suburb])
        await detail.ready()
        subtitle = detail.header.subtitle.text().replace("\u00a0", " ")
        stage_part = subtitle.split(" · ")[0]
        if stages[suburb] in CLOSED_STAGES:  # a finished job's clock is not shown
            assert "工作日" not in stage_part, (suburb, when, subtitle)
        else:
            assert stage_part.endswith(f" {days} 个工作日"), (suburb, when, subtitle)
        if over:
            assert f"⚠ 超期 {over} 个工作日" in subtitle, (suburb, when, subtitle)
        else:
            assert "超期" not in subtitle, (suburb, when, subtitle)
