"""Whatever zone a clock answers in, the store keeps UTC.

SQLite keeps naive datetimes that are UTC by convention. A stamp taken as
``clock.now().replace(tzinfo=None)`` is only UTC when the clock happens to answer in UTC: a
clock answering in Sydney time (a test's ``FakeClock`` pinned at 15:00 +11:00, or any aware
clock a caller hands in) stored 15:00 as if it were UTC -- eleven hours in the future, so a job
would read as entered tomorrow and a reminder count none of today's time. Every stamp now goes
through ``core.clock.naive_utc``; this loads the demo folder on a Sydney-zoned clock and looks at
every timestamp column of every table.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import DateTime, select

from core.app import build_app
from core.clock import SYDNEY, FakeClock
from core.db.models import Base
from core.events import RecordingBus

PINNED = datetime(2026, 12, 1, 15, 0, tzinfo=SYDNEY)  # 04:00 UTC


async def test_stamps_taken_on_a_sydney_clock_are_stored_as_utc(home: Path) -> None:
    app = build_app(home, clock=FakeClock(PINNED), bus=RecordingBus())
    try:
        result = await app.load_demo()
        assert result.inquiries > 0
        now_utc = PINNED.astimezone(UTC).replace(tzinfo=None)
        later: list[str] = []
        seen = 0
        with app._services.store.session() as session:
            for table in Base.metadata.sorted_tables:
                for column in table.columns:
                    if not isinstance(column.type, DateTime):
                        continue
                    for value in session.scalars(select(column).where(column.is_not(None))):
                        seen += 1
                        if value > now_utc + timedelta(seconds=1):
                            later.append(f"{table.name}.{column.name} = {value}")
        assert seen > 20  # the demo stamps plenty of rows
        assert later == [], "stored later than now (Sydney time kept as UTC):\n" + "\n".join(later)
    finally:
        await app.aclose()
        app.close()
