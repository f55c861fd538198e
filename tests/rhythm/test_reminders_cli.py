"""``reminders --json`` / ``--announce`` / ``snooze`` with the clock set by INQUIRY_BRIDGE_NOW.

Done-when of the daily-rhythm issue: an inquiry created on a Saturday is not due on Sunday and is
due on Wednesday (3 working days > 2); a Friday before a public holiday counts correctly; each
reminder is delivered once, and snoozing moves it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.cli.main import main
from tests.notify.conftest import OWNER
from tests.support.telegram_server import TelegramServer


def _mail(folder: Path, n: int, name: str = "Mary Lee") -> None:
    (folder / f"{n:03d}.eml").write_text(
        f"From: {name} <customer{n}@example.com>\n"
        "To: sales@aurorawindows.com.au\n"
        f"Subject: Quote for sliding door {n}\n"
        f"Message-ID: <rem-{n}@example.com>\n"
        "Content-Type: text/plain; charset=utf-8\n\n"
        f"Hi, please quote a new sliding door 2400 x 2100 for {n} Main St, Ryde.\n"
        f"Call me on 0412 345 {n:03d}.\n{name}\n",
        encoding="utf-8",
    )


def _at(monkeypatch: pytest.MonkeyPatch, when: str) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", when)


def _reminders(capsys: pytest.CaptureFixture[str], home: Path, *extra: str) -> list[dict[str, Any]]:
    capsys.readouterr()
    assert main(["reminders", "--json", *extra, "--home", str(home)]) == 0
    rows: list[dict[str, Any]] = json.loads(capsys.readouterr().out)
    return rows


def _ingest_at(
    monkeypatch: pytest.MonkeyPatch, home: Path, tmp_path: Path, when: str, count: int = 1
) -> None:
    folder = tmp_path / "eml"
    folder.mkdir()
    for n in range(1, count + 1):
        _mail(folder, n, name=f"Customer {n}")
    _at(monkeypatch, when)
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0


def test_saturday_inquiry_is_due_on_wednesday_not_sunday(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _ingest_at(monkeypatch, home, tmp_path, "2026-11-28T11:00:00+11:00")  # Saturday
    _at(monkeypatch, "2026-11-29T18:00:00+11:00")  # Sunday
    assert _reminders(capsys, home) == []
    _at(monkeypatch, "2026-12-01T18:00:00+11:00")  # Tuesday: 2 working days, the limit
    assert _reminders(capsys, home) == []
    _at(monkeypatch, "2026-12-02T08:00:00+11:00")  # Wednesday: 3 > 2
    [reminder] = _reminders(capsys, home)
    assert reminder["stage"] == "inquiry"
    assert reminder["days_in_stage"] == 3 and reminder["limit_days"] == 2
    assert isinstance(reminder["inquiry_id"], int)


def test_friday_before_labour_day_counts_from_tuesday(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _ingest_at(monkeypatch, home, tmp_path, "2026-10-02T15:00:00+10:00")  # Friday, AEST
    _at(monkeypatch, "2026-10-07T17:00:00+11:00")  # Wednesday: Tue + Wed = 2 (Mon is a holiday)
    assert _reminders(capsys, home) == []
    _at(monkeypatch, "2026-10-08T09:00:00+11:00")  # Thursday: 3
    [reminder] = _reminders(capsys, home)
    assert reminder["days_in_stage"] == 3


def test_each_reminder_reaches_the_phone_once_and_a_snooze_moves_it(
    home: Path,
    tmp_path: Path,
    owner_env: TelegramServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _ingest_at(monkeypatch, home, tmp_path, "2026-11-23T10:00:00+11:00")  # Monday
    assert main(["telegram", "--once", "--home", str(home)]) == 0  # the new-inquiry alert
    before = len(owner_env.sent)
    _at(monkeypatch, "2026-11-27T10:00:00+11:00")  # Friday: 4 working days
    [due] = _reminders(capsys, home, "--announce")
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    [alert] = owner_env.sent[before:]
    assert alert.chat_id == OWNER
    assert "跟进提醒" in alert.visible and "4 个工作日" in alert.visible
    assert "尽快回复客户" in alert.visible
    # announcing again in the same round (or later the same day) delivers nothing new
    assert _reminders(capsys, home, "--announce") == []
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    assert len(owner_env.sent) == before + 1
    # snooze one working day: hidden over the weekend, due again Monday 07:00, announced once
    assert main(["snooze", str(due["inquiry_id"]), "--days", "1", "--home", str(home)]) == 0
    assert "2026-11-30 07:00" in capsys.readouterr().out
    _at(monkeypatch, "2026-11-29T12:00:00+11:00")
    assert _reminders(capsys, home) == []
    _at(monkeypatch, "2026-11-30T07:30:00+11:00")
    assert [r["inquiry_id"] for r in _reminders(capsys, home, "--announce")] == [due["inquiry_id"]]
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    assert len(owner_env.sent) == before + 2
    assert _reminders(capsys, home, "--announce") == []


def test_many_overdue_jobs_arrive_as_one_digest(
    home: Path,
    tmp_path: Path,
    owner_env: TelegramServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _ingest_at(monkeypatch, home, tmp_path, "2026-11-02T10:00:00+11:00", count=7)
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    before = len(owner_env.sent)
    _at(monkeypatch, "2026-11-30T10:00:00+11:00")
    assert len(_reminders(capsys, home, "--announce")) == 7
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    [digest] = owner_env.sent[before:]
    assert "7 个询盘超过阶段期限" in digest.visible
    assert digest.visible.count("「询盘」") == 7


def test_snoozing_an_unknown_inquiry_says_so_in_one_line(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["snooze", "999", "--days", "3", "--home", str(home)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "找不到" in err and "#999" in err
