"""The background rhythm: one round announces reminders, raises the briefing when due, backs up."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from core.app import build_app
from core.clock import SYDNEY, FakeClock
from core.db.models import Notification
from core.events import RecordingBus
from tests.desktop.seed import seed_inquiries


def _kinds(app) -> list[str]:  # type: ignore[no-untyped-def]
    with app._services.store.session() as s:
        return list(s.scalars(select(Notification.kind).order_by(Notification.id)))


async def test_a_round_raises_reminders_then_the_evening_briefing_once(home) -> None:  # type: ignore[no-untyped-def]
    clock = FakeClock(datetime(2026, 12, 1, 15, 0, tzinfo=SYDNEY))
    app = build_app(home, clock=clock, bus=RecordingBus())
    try:
        seed_inquiries(app._services, 40)  # stages entered up to 40 days ago: many overdue
        daily = app.rhythm.daily()
        await daily.run_once()
        kinds = _kinds(app)
        assert kinds.count("overdue") == 1  # a first round with many: one digest
        assert "briefing" not in kinds  # 15:00, before 20:00
        assert list(app._services.paths.backups.glob("*")) != []  # first backup taken
        clock.advance(5.5 * 3600)  # 20:30
        await daily.run_once()
        await daily.run_once()
        assert _kinds(app).count("briefing") == 1
        assert _kinds(app).count("overdue") == 1  # nothing new is overdue
        due = await app.rhythm.reminders()
        assert due and all(r.days_in_stage > r.limit_days for r in due)
    finally:
        await app.aclose()
        app.close()


async def test_a_failing_step_does_not_stop_the_others(home, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    clock = FakeClock(datetime(2026, 12, 1, 20, 30, tzinfo=SYDNEY))
    app = build_app(home, clock=clock, bus=RecordingBus())
    try:
        daily = app.rhythm.daily()

        async def broken() -> None:
            raise RuntimeError("disk on fire")

        monkeypatch.setattr(daily, "_reminders", broken)
        await daily.run_once()
        assert _kinds(app) == ["briefing"]
    finally:
        await app.aclose()
        app.close()
