"""Absurd Date headers must not make absurd clocks: a mail "sent" in 1970 or 2099, with no Date,
or with one nobody can parse starts its stage clock at its arrival, and every front end then says
a small, non-negative number of working days — never 14,000, never less than nothing — and no
contact "in the future".

A folder of ``.eml`` has no server time, so the Date header is all intake knows; a sender's clock
at zero (1970-01-01) or a century ahead is a broken clock, not a fact about the customer.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core.cli.main import main

IMPORTED = "2026-12-01T09:00:00+11:00"  # a Tuesday
LOOKED = "2026-12-03T10:00:00+11:00"  # Thursday: Wed and Thu count, 2 working days

# (customer n, Date header or None)
DATES = [
    (1, "Thu, 01 Jan 1970 00:00:00 +0000"),  # a clock at zero
    (2, "Wed, 31 Dec 1969 23:59:59 -0100"),  # 1970 again, by way of an offset
    (3, "Mon, 01 Jan 1990 09:00:00 +1000"),  # a PC clock reset to its BIOS year
    (4, "Thu, 01 Jan 2099 09:00:00 +1100"),  # a century ahead
    (5, "Tue, 01 Dec 2026 09:05:00 +1100"),  # five minutes ahead of the import (clock skew)
    (6, None),  # no Date header at all
    (7, "sometime last week"),  # unparseable
    (8, "Fri, 31 Dec 9999 23:59:59 -1200"),  # overflows time-zone arithmetic
    (9, "Mon, 30 Nov 2026 16:00:00 +1100"),  # an ordinary Date, for contrast
]


def _write(folder: Path, n: int, header: str | None) -> None:
    date_line = f"Date: {header}\n" if header is not None else ""
    (folder / f"{n:03d}.eml").write_text(
        f"From: Customer {n} <odd{n}@example.com>\nTo: sales@aurorawindows.com.au\n"
        f"{date_line}Subject: New windows {n}\nMessage-ID: <odd-date-{n}@example.com>\n"
        "Content-Type: text/plain; charset=utf-8\n\n"
        "Hi, could you come and measure our house for 3 new awning windows?\n"
        f"Address: {n} Main St, Ryde NSW. Call me on 0412 345 {n:03d}.\nThanks, Customer {n}\n",
        encoding="utf-8",
    )


def _run(capsys: pytest.CaptureFixture[str], home: Path, *argv: str) -> str:
    capsys.readouterr()
    assert main([*argv, "--home", str(home)]) == 0
    return capsys.readouterr().out


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


@pytest.fixture
def odd_home(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "eml"
    folder.mkdir()
    for n, header in DATES:
        _write(folder, n, header)
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", IMPORTED)
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    return home


def test_absurd_dates_start_the_clock_at_arrival(
    odd_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", LOOKED)
    items = {
        int(i["customer_email"].removeprefix("odd").split("@")[0]): i
        for i in json.loads(_run(capsys, odd_home, "inquiries", "--json"))
    }
    assert sorted(items) == [n for n, _ in DATES]  # nothing dropped
    imported, looked = _at(IMPORTED), _at(LOOKED)
    for n, header in DATES:
        item = items[n]
        since = _at(item["stage_since"])
        contact = _at(item["last_contact_at"])
        assert contact <= looked, (header, item["last_contact_at"])  # not in the future
        if n == 9:  # the ordinary mail keeps its own time: Tue, Wed, Thu count -> 3
            assert since == _at("2026-11-30T16:00:00+11:00")
            assert (item["days_in_stage"], item["overdue_days"]) == (3, 1)
            continue
        # every odd one: the clock started when the mail arrived (the import), not its claim;
        # the CLI's clock runs at real speed from IMPORTED, so "then" is a few seconds after it
        assert imported <= since < imported + timedelta(minutes=5), (header, item["stage_since"])
        assert imported <= contact < imported + timedelta(minutes=5), header
        assert (item["days_in_stage"], item["overdue_days"]) == (2, 0), header
    reminders = json.loads(_run(capsys, odd_home, "reminders", "--json"))
    assert {r["days_in_stage"] for r in reminders} == {3}  # only the ordinary one is overdue
    briefing = json.loads(_run(capsys, odd_home, "briefing", "--json"))
    assert [r["days_in_stage"] for r in briefing["overdue"]] == [3]
