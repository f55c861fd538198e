"""The weekly report fires once a week from Monday 08:00 (pinned clock), on the tray and on
Telegram, with last week's figures beside the week before's — counted from the store."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from core.app import build_app
from core.cli.main import main
from core.clock import SYDNEY, FakeClock, naive_utc
from core.db.models import LLMCall, Notification
from core.events import RecordingBus
from tests.support.telegram_server import TelegramServer


def _mail(folder: Path, n: int, date: str) -> None:
    (folder / f"{n:03d}.eml").write_text(
        f"From: Customer {n} <c{n}@example.com>\nTo: sales@example.com.au\nDate: {date}\n"
        f"Subject: Quote for a sliding door {n}\nMessage-ID: <week-{n}@example.com>\n"
        "Content-Type: text/plain; charset=utf-8\n\n"
        f"Hi, please quote a sliding door 2400 x 2100 for {n} Main St, Ryde.\nCustomer {n}\n",
        encoding="utf-8",
    )


@pytest.fixture
def filled(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three inquiries in the week of 23 Nov, one in the week before; AI calls in both."""
    folder = tmp_path / "eml"
    folder.mkdir()
    dates = [
        "Tue, 17 Nov 2026 10:00:00 +1100",
        "Mon, 23 Nov 2026 09:00:00 +1100",
        "Wed, 25 Nov 2026 14:00:00 +1100",
        "Sun, 29 Nov 2026 20:00:00 +1100",
    ]
    for n, date in enumerate(dates, 1):
        _mail(folder, n, date)
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-11-30T07:00:00+11:00")
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    app = build_app(home, clock=FakeClock())
    try:
        rows = [
            {"at": naive_utc(datetime(2026, 11, d, 12, tzinfo=SYDNEY)), "tier": 1,
             "model": "gpt-4o-mini", "purpose": "classify", "cost_usd": cost, "ok": True}
            for d, cost in ((18, 0.25), (24, 0.5), (26, 0.75))
        ]  # fmt: skip
        app._services.store.write(lambda s: s.execute(insert(LLMCall), rows))
    finally:
        app.close()
    return home


def _weekly(app) -> list[Notification]:  # type: ignore[no-untyped-def]
    with app._services.store.session() as s:
        rows = list(s.scalars(select(Notification).where(Notification.kind == "weekly")))
        s.expunge_all()
        return rows


async def test_the_report_fires_once_a_week_at_monday_eight(filled: Path) -> None:
    clock = FakeClock(datetime(2026, 11, 30, 7, 30, tzinfo=SYDNEY))  # Monday, before 08:00
    app = build_app(filled, clock=clock, bus=RecordingBus())
    try:
        daily = app.rhythm.daily()
        await daily.run_once()
        assert _weekly(app) == []
        clock.advance(40 * 60)  # 08:10
        await daily.run_once()
        await daily.run_once()
        [report] = _weekly(app)
        assert "2026-W48" in report.title
        body = report.body_md
        assert "新询盘：**3 个**（前一周 1 个）" in body
        assert "US$1.25" in body and "2 次调用" in body and "前一周 US$0.25" in body
        clock.advance(2 * 86400)  # Wednesday: nothing new
        await daily.run_once()
        assert len(_weekly(app)) == 1
        clock.advance(5 * 86400)  # the next Monday 08:10
        await daily.run_once()
        titles = [r.title for r in _weekly(app)]
        assert len(titles) == 2 and "2026-W49" in titles[1]
    finally:
        await app.aclose()
        app.close()


async def test_a_second_process_does_not_raise_it_again(filled: Path) -> None:
    clock = FakeClock(datetime(2026, 11, 30, 9, 0, tzinfo=SYDNEY))
    for _ in range(2):  # the tray app, then the headless Telegram mirror on the same folder
        app = build_app(filled, clock=clock, bus=RecordingBus())
        try:
            await app.rhythm.daily().run_once()
            assert len(_weekly(app)) == 1
        finally:
            await app.aclose()
            app.close()


def test_the_report_reaches_the_phone(
    filled: Path, owner_env: TelegramServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    import asyncio

    clock = FakeClock(datetime(2026, 11, 30, 8, 5, tzinfo=SYDNEY))

    async def round_() -> None:
        app = build_app(filled, clock=clock, bus=RecordingBus())
        try:
            await app.rhythm.daily().run_once()
        finally:
            await app.aclose()
            app.close()

    asyncio.run(round_())
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-11-30T08:06:00+11:00")
    assert main(["telegram", "--once", "--home", str(filled)]) == 0
    weekly = [m for m in owner_env.sent if "每周报告" in m.visible]
    assert len(weekly) == 1 and "2026-W48" in weekly[0].visible
    assert main(["telegram", "--once", "--home", str(filled)]) == 0
    assert len([m for m in owner_env.sent if "每周报告" in m.visible]) == 1


async def test_a_fresh_folder_has_no_report_and_no_error(home: Path, caplog) -> None:  # type: ignore[no-untyped-def]
    clock = FakeClock(datetime(2026, 11, 30, 9, 0, tzinfo=SYDNEY))
    app = build_app(home, clock=clock, bus=RecordingBus())
    try:
        await app.rhythm.daily().run_once()
        assert _weekly(app) == []
        assert "weekly failed" not in caplog.text
    finally:
        await app.aclose()
        app.close()
