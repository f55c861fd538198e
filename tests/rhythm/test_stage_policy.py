"""One stage policy: the board, ``inquiries --json``, ``reminders --json``, the briefing and the
Telegram reminder agree on days in stage and overdue, at pinned times; old mail starts its clock
at its own date.

The jobs are real inquiries made by ``ingest`` from mail with ``Date`` headers, then moved through
stages with the stage service on the injected clock, so every front end reads the same rows.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.cli.main import main
from core.clock import FakeClock, naive_utc
from core.inquiry.board import BoardQuery, fetch_rows
from core.inquiry.stage_policy import STAGE_LIMIT_DAYS, overdue_before, stage_time
from core.inquiry.stages import StageService
from core.services import build_services
from tests.rhythm.board_view import board_at
from tests.support.telegram_server import TelegramServer

# (suburb, Date header of the first email, stage the job is in, when it entered that stage)
JOBS = [
    ("Ryde", "Fri, 04 Sep 2026 09:00:00 +1000", "inquiry", None),  # old mail, still unanswered
    ("Burwood", "Fri, 27 Nov 2026 09:00:00 +1100", "inquiry", None),  # Friday 09:00
    ("Eastwood", "Mon, 16 Nov 2026 10:00:00 +1100", "measure", "2026-11-20T15:00:00+11:00"),
    ("Hurstville", "Mon, 02 Nov 2026 10:00:00 +1100", "quoting", "2026-11-23T09:00:00+11:00"),
    ("Strathfield", "Thu, 01 Oct 2026 10:00:00 +1000", "follow_up", "2026-10-01T12:00:00+10:00"),
    ("Parramatta", "Tue, 01 Dec 2026 08:00:00 +1100", "inquiry", None),
    ("Chatswood", "Mon, 05 Oct 2026 10:00:00 +1100", "done", "2026-10-20T10:00:00+11:00"),
]

# a Friday, the Monday after the Friday-09:00 inquiry, Boxing Day observed (Mon 28 Dec 2026,
# a NSW public holiday), and the morning after it
PINNED = [
    "2026-12-04T16:00:00+11:00",
    "2026-11-30T10:00:00+11:00",
    "2026-12-28T10:00:00+11:00",
    "2026-12-29T08:00:00+11:00",
]


def _mail(folder: Path, n: int, suburb: str, date: str) -> None:
    (folder / f"{n:03d}.eml").write_text(
        f"From: Customer {n} <c{n}@example.com>\nTo: sales@aurorawindows.com.au\n"
        f"Date: {date}\nSubject: New windows {n}\nMessage-ID: <policy-{n}@example.com>\n"
        "Content-Type: text/plain; charset=utf-8\n\n"
        "Hi, could you come and measure our house for 3 new awning windows?\n"
        f"Address: {n} Main St, {suburb} NSW. Call me on 0412 345 {n:03d}.\nThanks, Customer {n}\n",
        encoding="utf-8",
    )


def _run_json(capsys: pytest.CaptureFixture[str], home: Path, *argv: str) -> object:
    capsys.readouterr()
    assert main([*argv, "--home", str(home)]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture
def jobs_home(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """The jobs of JOBS, ingested on 1 Dec 2026 (a first sync of months of mail), by suburb."""
    folder = tmp_path / "eml"
    folder.mkdir()
    for n, (suburb, date, _, _) in enumerate(JOBS, 1):
        _mail(folder, n, suburb, date)
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T09:00:00+11:00")
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    services = build_services(home, clock=FakeClock())
    try:
        with services.store.session() as session:
            rows = fetch_rows(session, BoardQuery(), datetime(2026, 12, 1, tzinfo=UTC))
            ids = {row.suburb: row.id for row in rows}
        for suburb, _, stage, entered in JOBS:
            if entered is None:
                continue
            at = FakeClock(datetime.fromisoformat(entered))
            StageService(services.store, services.bus, at).advance(
                ids[suburb], stage, reason="test", triggered_by="owner"
            )
    finally:
        services.close()
    return ids


def test_first_sync_of_old_mail_starts_each_clock_at_the_mail_date(
    jobs_home: dict[str, int],
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T09:30:00+11:00")
    items = {i["suburb"]: i for i in _run_json(capsys, home, "inquiries", "--json")}  # type: ignore[union-attr]
    ryde = items["Ryde"]
    assert ryde["stage_since"] == "2026-09-03T23:00:00Z"  # the email's date, not the import
    assert ryde["days_in_stage"] > 50 and ryde["overdue_days"] == ryde["days_in_stage"] - 2
    # mail of this morning: in its stage since 08:00 today, 0 working days, not overdue
    assert items["Parramatta"]["days_in_stage"] == 0
    assert items["Parramatta"]["overdue_days"] == 0
    reminders = _run_json(capsys, home, "reminders", "--json")
    assert ryde["id"] in {r["inquiry_id"] for r in reminders}  # type: ignore[union-attr]


def test_friday_nine_to_monday_ten_is_one_working_day_everywhere(
    jobs_home: dict[str, int],
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-11-30T10:00:00+11:00")
    items = {i["suburb"]: i for i in _run_json(capsys, home, "inquiries", "--json")}  # type: ignore[union-attr]
    assert items["Burwood"]["days_in_stage"] == 1 and items["Burwood"]["overdue_days"] == 0
    reminders = _run_json(capsys, home, "reminders", "--json")
    assert jobs_home["Burwood"] not in {r["inquiry_id"] for r in reminders}  # type: ignore[union-attr]


@pytest.mark.parametrize("when", PINNED)
def test_every_front_end_agrees_at_pinned_times(
    when: str,
    jobs_home: dict[str, int],
    home: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", when)
    now = datetime.fromisoformat(when)
    items = _run_json(capsys, home, "inquiries", "--json")
    reminders = {r["inquiry_id"]: r for r in _run_json(capsys, home, "reminders", "--json")}  # type: ignore[union-attr]
    briefing = _run_json(capsys, home, "briefing", "--json")
    in_briefing = {r["inquiry_id"]: r for r in briefing["overdue"]}  # type: ignore[index]
    board, needs_me = board_at(home, now)
    seen_overdue = 0
    for item in items:  # type: ignore[union-attr]
        row = board[item["id"]]
        assert row.days_in_stage(now) == item["days_in_stage"], item["suburb"]
        assert row.overdue_days(now) == item["overdue_days"], item["suburb"]
        overdue = item["overdue_days"] > 0
        seen_overdue += overdue
        # the reminder, the briefing and the board's SQL filter say the same
        assert (item["id"] in reminders) == overdue, item["suburb"]
        assert (item["id"] in in_briefing) == overdue, item["suburb"]
        if overdue:
            assert item["id"] in needs_me, item["suburb"]
            assert reminders[item["id"]]["days_in_stage"] == item["days_in_stage"]
            assert in_briefing[item["id"]]["days_in_stage"] == item["days_in_stage"]
            limit = STAGE_LIMIT_DAYS[item["stage"]]
            assert reminders[item["id"]]["limit_days"] == limit
            assert item["days_in_stage"] - limit == item["overdue_days"]
    assert seen_overdue >= 2  # the pinned times are not all trivially quiet


def test_the_telegram_reminder_says_the_reminders_working_days(
    jobs_home: dict[str, int],
    home: Path,
    owner_env: TelegramServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-02T16:00:00+11:00")
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    before = len(owner_env.sent)
    due = _run_json(capsys, home, "reminders", "--json", "--announce")
    assert 0 < len(due) <= 5  # type: ignore[arg-type]  # one alert each, not a digest
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    alerts = [m.visible for m in owner_env.sent[before:] if "跟进提醒" in m.visible]
    assert len(alerts) == len(due)  # type: ignore[arg-type]
    for reminder in due:  # type: ignore[union-attr]
        said = [a for a in alerts if f"#{reminder['inquiry_id']}" in a]
        assert said and f"{reminder['days_in_stage']} 个工作日" in said[0]
        assert f"期限 {reminder['limit_days']} 个工作日" in said[0]


@settings(max_examples=300, deadline=None)
@given(
    since=st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2027, 12, 31)),
    ahead=st.timedeltas(min_value=timedelta(0), max_value=timedelta(days=90)),
    stage=st.sampled_from(sorted(STAGE_LIMIT_DAYS)),
)
def test_the_sql_boundary_is_the_python_count(
    since: datetime, ahead: timedelta, stage: str
) -> None:
    """What the board's SQL filter computes (entered before a boundary) is what rows say."""
    now = (since + ahead).replace(tzinfo=UTC)
    by_sql = since < overdue_before(STAGE_LIMIT_DAYS[stage], now)
    assert by_sql == stage_time(stage, since, now).overdue
    assert naive_utc(now) >= since
