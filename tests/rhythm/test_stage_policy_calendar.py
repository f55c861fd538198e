"""The stage policy through the calendar's awkward days: every front end agrees with the others
*and* with a hand-written count, at Sydney public holidays, weekends, both daylight-saving
changes and either side of Sydney midnight.

``test_stage_policy.py`` checks agreement at four pinned times around one ingest; this file adds
what it does not reach: Christmas, the Boxing Day substitute Monday, New Year, Australia Day, Easter,
the nights the clocks jump (2026-10-04) and fall back (2027-04-04, when 02:30 happens twice), mail
that arrives at 23:59 and 00:01 Sydney time (a different UTC date), mail ingested live at its own
time beside mail of a first sync, and the plain-text briefing (not only its JSON). At every pinned
time the Telegram reminders, as the owner's phone receives them from a loopback Bot API, say the
same hand-counted days (``tests/rhythm/gui`` checks the desktop's board and detail the same way).

The expected numbers come from a plain list of the NSW public holidays of the period, not from
``core.workdays``, so a holiday the library gets wrong (or a UTC date used for a Sydney one) fails.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from datetime import date, datetime, time, timedelta
from email.utils import parsedate_to_datetime
from functools import partial
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from core.app.build import build_app
from core.cli.main import main
from core.clock import FakeClock
from core.inquiry.board import BoardQuery, fetch_rows
from core.inquiry.stage_policy import STAGE_LIMIT_DAYS
from core.inquiry.stages import StageService
from core.rhythm.reminders import DIGEST_AT
from core.services import build_services
from tests.rhythm.board_view import board_at
from tests.support.telegram_server import TelegramServer

SYD = ZoneInfo("Australia/Sydney")

# NSW public holidays from September 2026 to April 2027, written out by hand (weekend ones left
# out: they do not change a count). Boxing Day 2026 is a Saturday, so Monday 28 Dec is the holiday.
HOLIDAYS = {
    date(2026, 10, 5),  # Labour Day
    date(2026, 12, 25),  # Christmas Day
    date(2026, 12, 28),  # Boxing Day (observed)
    date(2027, 1, 1),  # New Year's Day
    date(2027, 1, 26),  # Australia Day
    date(2027, 3, 26),  # Good Friday
    date(2027, 3, 29),  # Easter Monday
}

# (suburb, Date header of the first email, when it was ingested, stage, when it entered that stage)
# ``ingested`` None: ingested by the first sync of 2026-10-01 (old mail).
JOBS = [
    ("Ryde", "Tue, 29 Sep 2026 16:00:00 +1000", None, "inquiry", None),
    ("Epping", "Fri, 02 Oct 2026 17:30:00 +1000", "2026-10-02T17:31:00+10:00", "inquiry", None),
    # 23:59 and 00:01 Sydney time: 12:59 and 13:01 UTC of the same UTC day
    ("Burwood", "Thu, 24 Dec 2026 23:59:00 +1100", "2026-12-25T00:00:00+11:00", "inquiry", None),
    ("Kogarah", "Fri, 25 Dec 2026 00:01:00 +1100", "2026-12-25T00:02:00+11:00", "inquiry", None),
    (
        "Eastwood",
        "Mon, 07 Dec 2026 10:00:00 +1100",
        "2026-12-07T10:01:00+11:00",
        "measure",
        "2027-01-22T16:00:00+11:00",  # the Friday before Australia Day
    ),
    (
        "Hurstville",
        "Mon, 09 Nov 2026 10:00:00 +1100",
        "2026-11-09T10:01:00+11:00",
        "quoting",
        "2027-03-24T09:00:00+11:00",  # the Wednesday before Easter
    ),
    (
        "Parramatta",
        "Mon, 01 Feb 2027 10:00:00 +1100",
        "2027-02-01T10:01:00+11:00",
        "follow_up",
        "2027-03-12T12:00:00+11:00",  # crosses Easter and the end of daylight saving
    ),
    # arrives 00:30 Sunday 4 April Sydney time, which is still Saturday 3 April in UTC
    (
        "Strathfield",
        "Sat, 03 Apr 2027 13:30:00 +0000",
        "2027-04-04T00:31:00+11:00",
        "inquiry",
        None,
    ),
    (
        "Chatswood",
        "Mon, 05 Oct 2026 10:00:00 +1100",
        "2026-10-06T09:00:00+11:00",
        "done",
        "2026-10-20T10:00:00+11:00",
    ),
]

PINNED = [
    "2026-10-02T16:00:00+10:00",  # a Friday afternoon
    "2026-10-04T01:59:00+10:00",  # Sunday, a minute before the clocks jump to 03:00
    "2026-10-04T03:30:00+11:00",  # Sunday, just after
    "2026-10-05T10:00:00+11:00",  # Labour Day (Monday, a public holiday)
    "2026-10-05T23:59:59+11:00",  # a second before midnight Sydney time
    "2026-10-05T13:00:01Z",  # a second after it (still Monday in UTC)
    "2026-12-25T10:00:00+11:00",  # Christmas Day
    "2026-12-26T12:00:00+11:00",  # Boxing Day, a Saturday
    "2026-12-28T10:00:00+11:00",  # Boxing Day observed (Monday)
    "2026-12-28T13:00:00Z",  # midnight Sydney: Tuesday 29 December begins
    "2027-01-01T10:00:00+11:00",  # New Year's Day
    "2027-01-25T10:00:00+11:00",  # a Monday
    "2027-01-26T10:00:00+11:00",  # Australia Day (Tuesday)
    "2027-01-27T00:00:01+11:00",  # just after midnight
    "2027-01-30T11:00:00+11:00",  # a Saturday
    "2027-03-26T10:00:00+11:00",  # Good Friday
    "2027-03-29T10:00:00+11:00",  # Easter Monday
    "2027-03-30T09:00:00+11:00",  # the Tuesday after Easter
    "2027-04-04T02:30:00+11:00",  # Sunday 02:30, the first time (daylight saving)
    "2027-04-04T02:30:00+10:00",  # Sunday 02:30 again, after falling back
    "2027-04-05T00:00:30+10:00",  # Monday, 30 s after midnight
    "2027-04-07T16:00:00+10:00",  # a Wednesday
]


def _expected_days(since: datetime, now: datetime) -> int:
    """Working days d with since's Sydney date < d <= now's Sydney date, by the list above."""
    first, last = since.astimezone(SYD).date(), now.astimezone(SYD).date()
    count, day = 0, first + timedelta(days=1)
    while day <= last:
        count += day.weekday() < 5 and day not in HOLIDAYS
        day += timedelta(days=1)
    return count


def _mail(folder: Path, n: int, suburb: str, date_header: str) -> None:
    (folder / f"{n:03d}.eml").write_text(
        f"From: Customer {n} <cal{n}@example.com>\nTo: sales@aurorawindows.com.au\n"
        f"Date: {date_header}\nSubject: New windows {n}\nMessage-ID: <calendar-{n}@example.com>\n"
        "Content-Type: text/plain; charset=utf-8\n\n"
        "Hi, could you come and measure our house for 3 new awning windows?\n"
        f"Address: {n} Main St, {suburb} NSW. Call me on 0412 345 {n:03d}.\nThanks, Customer {n}\n",
        encoding="utf-8",
    )


def _ingest(mp: pytest.MonkeyPatch, home: Path, folder: Path, at: str) -> None:
    mp.setenv("INQUIRY_BRIDGE_NOW", at)
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0


@pytest.fixture(scope="module")
def calendar_home(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[Path, dict[str, int]]]:
    """JOBS in one home, each ingested when it arrived (or by the first sync), then staged.

    Module-scoped: every check below only reads (``reminders`` without ``--announce``)."""
    root = tmp_path_factory.mktemp("calendar")
    home = root / "home"
    home.mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("INQUIRY_BRIDGE_HOME", str(home))
        first_sync = root / "sync"
        first_sync.mkdir()
        live = []
        for n, (suburb, header, ingested, _, _) in enumerate(JOBS, 1):
            if ingested is None:
                _mail(first_sync, n, suburb, header)
            else:
                folder = root / f"live{n}"
                folder.mkdir()
                _mail(folder, n, suburb, header)
                live.append((ingested, folder))
        _ingest(mp, home, first_sync, "2026-10-01T10:00:00+10:00")
        for at, folder in sorted(live, key=lambda item: datetime.fromisoformat(item[0])):
            _ingest(mp, home, folder, at)
        services = build_services(home, clock=FakeClock())
        try:
            with services.store.session() as session:
                rows = fetch_rows(session, BoardQuery(), datetime(2027, 6, 1, tzinfo=SYD))
                ids = {row.suburb: row.id for row in rows}
            assert len(ids) == len(JOBS)
            for suburb, _, _, stage, entered in JOBS:
                if entered is not None:
                    at = FakeClock(datetime.fromisoformat(entered))
                    StageService(services.store, services.bus, at).advance(
                        ids[suburb], stage, reason="test", triggered_by="owner"
                    )
        finally:
            services.close()
        yield home, ids


def _run(capsys: pytest.CaptureFixture[str], home: Path, *argv: str) -> str:
    capsys.readouterr()
    assert main([*argv, "--home", str(home)]) == 0
    return capsys.readouterr().out


def _since(header: str, entered: str | None) -> datetime:
    """When the job's clock started: its stage move, else its first mail's Date."""
    return datetime.fromisoformat(entered) if entered else parsedate_to_datetime(header)


_BRIEFING_LINE = re.compile(r"^- Customer (\d+)「[^」]+」(\d+)/(\d+) 个工作日", re.M)


@pytest.mark.parametrize("when", PINNED)
def test_every_front_end_and_the_calendar_agree(
    when: str,
    calendar_home: tuple[Path, dict[str, int]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    home, ids = calendar_home
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", when)
    now = datetime.fromisoformat(when.replace("Z", "+00:00"))
    items = {i["suburb"]: i for i in json.loads(_run(capsys, home, "inquiries", "--json"))}
    reminders = {r["inquiry_id"]: r for r in json.loads(_run(capsys, home, "reminders", "--json"))}
    briefing = json.loads(_run(capsys, home, "briefing", "--json"))
    in_briefing = {r["inquiry_id"]: r for r in briefing["overdue"]}
    text = _run(capsys, home, "briefing")
    in_text = {int(n): (int(d), int(lim)) for n, d, lim in _BRIEFING_LINE.findall(text)}
    board, needs_me = board_at(home, now)
    assert len(items) == len(JOBS)
    for n, (suburb, header, _, stage, entered) in enumerate(JOBS, 1):
        item = items[suburb]
        since = _since(header, entered)
        # the clock starts at the mail's own time (or the stage move), whenever it was imported
        assert datetime.fromisoformat(item["stage_since"].replace("Z", "+00:00")) == since, suburb
        assert item["stage"] == stage
        limit = STAGE_LIMIT_DAYS.get(stage)
        # a job not yet in the store at ``now`` (a later pinned time made it) counts nothing
        expected = _expected_days(since, now) if since <= now else 0
        over = max(0, expected - limit) if limit is not None else 0
        assert (item["days_in_stage"], item["overdue_days"]) == (expected, over), (suburb, when)
        row = board[ids[suburb]]
        assert (row.days_in_stage(now), row.overdue_days(now)) == (expected, over), suburb
        assert (ids[suburb] in reminders) == (over > 0), (suburb, when)
        assert (ids[suburb] in in_briefing) == (over > 0), (suburb, when)
        assert (n in in_text) == (over > 0), (suburb, when, text)
        if over:
            assert ids[suburb] in needs_me, suburb  # the board's SQL filter
            assert reminders[ids[suburb]]["days_in_stage"] == expected
            assert reminders[ids[suburb]]["limit_days"] == limit
            assert in_briefing[ids[suburb]]["days_in_stage"] == expected
            assert in_text[n] == (expected, limit)


def test_hand_counted_days_on_the_awkward_dates(
    calendar_home: tuple[Path, dict[str, int]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A few counts done on paper, so the list above is not the only witness."""
    home, _ = calendar_home

    def days(when: str) -> dict[str, int]:
        monkeypatch.setenv("INQUIRY_BRIDGE_NOW", when)
        out = json.loads(_run(capsys, home, "inquiries", "--json"))
        return {i["suburb"]: i["days_in_stage"] for i in out}

    # Friday 17:30 before the long weekend: Sat, Sun, Labour Day Monday do not count
    assert days("2026-10-05T23:59:59+11:00")["Epping"] == 0
    assert days("2026-10-05T13:00:01Z")["Epping"] == 1  # Tuesday has begun in Sydney
    # 23:59 on Christmas Eve vs 00:01 on Christmas Day: both count from Tuesday 29 December
    at_29th = days("2026-12-28T13:00:00Z")
    assert at_29th["Burwood"] == 1 and at_29th["Kogarah"] == 1
    # measure since Friday 22 Jan: Mon 25 counts, Australia Day does not, Wed 27 does
    assert days("2027-01-27T00:00:01+11:00")["Eastwood"] == 2
    # quoting since Wed 24 Mar: Thu 25, then Good Friday .. Easter Monday off, Tue 30
    assert days("2027-03-30T09:00:00+11:00")["Hurstville"] == 2
    # arrived 00:30 Sunday Sydney time (Saturday in UTC): Monday is its first working day
    assert days("2027-04-05T00:00:30+10:00")["Strathfield"] == 1


def _phone_gets_it_at(now: datetime) -> datetime:
    """When an alert raised at ``now`` reaches the phone: at once, or at 07:00 Sydney after the
    quiet hours (21:00-07:00, the default) it was raised in."""
    local = now.astimezone(SYD)
    if time(7) <= local.time() < time(21):
        return now
    morning = local.date() + timedelta(days=1 if local.time() >= time(21) else 0)
    return datetime.combine(morning, time(7), tzinfo=SYD)


@pytest.mark.parametrize("when", PINNED)
def test_the_telegram_reminders_say_the_hand_counted_days(
    when: str,
    calendar_home: tuple[Path, dict[str, int]],
    owner_env: TelegramServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``reminders --announce`` then ``telegram --once`` at each pinned time (on a copy of the
    home: announcing is once per stage entry): the owner's phone gets one alert per overdue job
    (one digest when many), each saying the working days counted by hand for the moment it
    arrives and the stage's limit, and nothing about a job that is not overdue. The commands run
    on a FakeClock so the mirror's 1 s pacing between messages costs no real time."""
    source, ids = calendar_home
    home = tmp_path / "home"
    shutil.copytree(source, home)
    now = datetime.fromisoformat(when.replace("Z", "+00:00"))
    clock = FakeClock(now)

    def run(*argv: str) -> str:
        capsys.readouterr()
        assert main([*argv, "--home", str(home)], app_factory=partial(build_app, clock=clock)) == 0
        return capsys.readouterr().out

    due = {r["inquiry_id"]: r for r in json.loads(run("reminders", "--json", "--announce"))}
    run("telegram", "--once")
    arrives = _phone_gets_it_at(now)
    if arrives != now:  # raised in quiet hours: held, then sent when they end
        assert not [m for m in owner_env.sent if "跟进提醒" in m.visible], when
        clock.advance((arrives - now).total_seconds())
        run("telegram", "--once")
    alerts = [m.visible for m in owner_env.sent if "跟进提醒" in m.visible]
    overdue = {}
    for suburb, header, _, stage, entered in JOBS:
        since = _since(header, entered)
        limit = STAGE_LIMIT_DAYS.get(stage)
        if since <= now and limit is not None and _expected_days(since, now) > limit:
            overdue[ids[suburb]] = (_expected_days(since, arrives), limit)
    assert set(due) == set(overdue), when
    if len(overdue) > DIGEST_AT:  # many at once: one digest, a line each
        [digest] = alerts
        lines = {int(n): (int(d), int(lim)) for n, d, lim in _DIGEST_LINE.findall(digest)}
        assert lines == overdue, (when, digest)
        return
    assert len(alerts) == len(overdue), (when, alerts)
    for inquiry_id, (days, limit) in overdue.items():
        [said] = [a for a in alerts if f"（询盘 #{inquiry_id}）" in a]
        assert f"已 {days} 个工作日" in said, (when, said)  # the title
        assert f"已停留 {days} 个工作日（期限 {limit} 个工作日）" in said, (when, said)


_DIGEST_LINE = re.compile(r"（#(\d+)）「[^」]+」(\d+)/(\d+) 个工作日")
