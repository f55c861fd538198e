"""Measuring appointments in Outlook: proposed, then confirmed by the owner, exactly one event.

Against the loopback Graph server (``/me/events`` with ``transactionId``, ``/me/calendarView``
paged); the stage moves to ``measure`` with an audit entry only when the event exists.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from core.cli.main import main
from core.clock import SYDNEY
from tests.support.graph_server import GraphServer


@pytest.fixture
def graph_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[GraphServer]:
    with GraphServer(page_size=2) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_URL", srv.base_url)
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", srv.token)
        yield srv


@pytest.fixture
def one_inquiry(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    folder = tmp_path / "eml"
    folder.mkdir()
    (folder / "001.eml").write_text(
        "From: Mary Lee <mary@example.com>\nTo: sales@aurorawindows.com.au\n"
        "Subject: Measure for new windows\nMessage-ID: <appt-1@example.com>\n\n"
        "Hi, could you come and measure our house for 3 new awning windows?\n"
        "Address: 7 Rose St, Epping NSW 2121. Call me on 0412 345 678.\nMary\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T09:00:00+11:00")
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    return 1


def _inquiry(capsys: pytest.CaptureFixture[str], home: Path) -> dict:
    capsys.readouterr()
    assert main(["inquiries", "--json", "--home", str(home)]) == 0
    [inquiry] = json.loads(capsys.readouterr().out)
    return inquiry


def _audit(home: Path) -> list[tuple[str, str, str]]:
    with sqlite3.connect(home / "inquiry-bridge.sqlite3") as db:
        return db.execute(
            "SELECT from_stage, to_stage, triggered_by FROM stage_events ORDER BY id"
        ).fetchall()


def test_an_event_is_created_once_and_only_after_confirmation(
    home: Path,
    one_inquiry: int,
    graph_env: GraphServer,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["appointment", "1", "--at", "2026-12-03 10:00", "--home", str(home)]) == 0
    out = capsys.readouterr().out
    assert "2026-12-03 10:00" in out and "7 Rose St, Epping NSW 2121" in out
    assert graph_env.events == [] and graph_env.requests_to("/me/events") == []
    assert _inquiry(capsys, home)["stage"] == "inquiry"

    assert main(["appointment", "1", "--confirm", "--home", str(home)]) == 0
    assert "已在 Outlook 日历创建上门量尺" in capsys.readouterr().out
    [event] = graph_env.events
    assert event["requested"]["start"] == {
        "dateTime": "2026-12-03T10:00:00",
        "timeZone": "AUS Eastern Standard Time",
    }
    assert event["location"] == {"displayName": "7 Rose St, Epping NSW 2121"}
    assert "Mary Lee" in event["subject"]
    assert _inquiry(capsys, home)["stage"] == "measure"
    assert _audit(home)[-1] == ("inquiry", "measure", "owner")

    # confirming again writes nothing more
    assert main(["appointment", "1", "--confirm", "--home", str(home)]) == 0
    assert "未重复预约" in capsys.readouterr().out
    assert len(graph_env.events) == 1 and len(_audit(home)) == 2


def test_confirm_without_a_proposal_is_one_clear_line(
    home: Path, one_inquiry: int, graph_env: GraphServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["appointment", "1", "--confirm", "--home", str(home)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "没有待确认的上门时间" in err
    assert graph_env.events == []
    assert main(["appointment", "9", "--at", "2026-12-03 10:00", "--home", str(home)]) == 1
    assert "#9" in capsys.readouterr().err


def test_the_briefing_reads_tomorrows_appointments_from_outlook(
    home: Path,
    one_inquiry: int,
    graph_env: GraphServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def at(day: int, hour: int) -> datetime:
        return datetime(2026, 12, day, hour, 0, tzinfo=SYDNEY)

    graph_env.add_event("Dentist", at(2, 8), at(2, 9))  # today: not in tomorrow's list
    for hour in (9, 11, 14):
        graph_env.add_event(f"Visit {hour}", at(3, hour), at(3, hour + 1), location="Ryde")
    assert main(["appointment", "1", "--at", "2026-12-03 16:00", "--home", str(home)]) == 0
    assert main(["appointment", "1", "--confirm", "--home", str(home)]) == 0
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-02T20:00:00+11:00")
    capsys.readouterr()
    assert main(["briefing", "--json", "--home", str(home)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["calendar_checked"] is True
    starts = [a["start"] for a in data["appointments"]]
    assert starts == [
        "2026-12-03T09:00+11:00",
        "2026-12-03T11:00+11:00",
        "2026-12-03T14:00+11:00",
        "2026-12-03T16:00+11:00",
    ]
    assert main(["briefing", "--home", str(home)]) == 0
    text = capsys.readouterr().out
    assert "**明天的预约**（4）" in text and "16:00 上门量尺 · Mary Lee" in text


def test_a_lost_answer_after_the_create_still_makes_one_event(
    home: Path, one_inquiry: int, graph_env: GraphServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """Graph created the event but the answer never arrived: the retry carries the same
    transactionId, so Outlook keeps one event and the stage moves once."""
    assert main(["appointment", "1", "--at", "2026-12-03 10:00", "--home", str(home)]) == 0
    graph_env.fail(path=r"/me/events$", method="POST", drop_after=True)
    assert main(["appointment", "1", "--confirm", "--home", str(home)]) == 0
    assert len(graph_env.requests_to(r"/me/events$", "POST")) == 2
    assert len(graph_env.events) == 1
    assert _audit(home)[-1] == ("inquiry", "measure", "owner")
    capsys.readouterr()


@pytest.mark.parametrize(
    ("fault", "said"),
    [
        (
            {"status": 400, "code": "ErrorInvalidRequest", "times": 20},
            "Outlook 拒绝了请求，HTTP 400",
        ),
        ({"status": 403, "code": "ErrorAccessDenied", "times": 20}, "没有读取日历的权限"),
        ({"status": 503, "times": 20}, "Outlook 暂时无法连接"),
        ({"drop": True, "times": 20}, "Outlook 日历"),
    ],
)
def test_a_calendar_that_cannot_be_read_never_sinks_the_briefing(
    home: Path,
    one_inquiry: int,
    graph_env: GraphServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    fault: dict,
    said: str,
) -> None:
    graph_env.fail(r"/me/calendarView", **fault)
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-02T20:00:00+11:00")
    capsys.readouterr()
    assert main(["briefing", "--json", "--home", str(home)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["calendar_checked"] is False and said in data["calendar_note"]
    assert [v["inquiry_id"] for v in data["measure_route"]] == [one_inquiry]  # the rest is there
    if fault.get("times", 1) > 1 and fault.get("status") in (400, 403):  # the owner's words too
        assert main(["briefing", "--home", str(home)]) == 0
        out = capsys.readouterr()
        assert said in out.out and "Traceback" not in out.err


def test_without_outlook_three_free_times_and_a_chosen_one_booked(
    home: Path, one_inquiry: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """An IMAP user (no Microsoft account): the app's own visits are his calendar, and the
    confirmation to the customer waits for approval."""
    capsys.readouterr()
    assert main(["appointment", "1", "--free", "--home", str(home)]) == 0
    out = capsys.readouterr().out  # Tue 1 Dec 09:00: Wed, Thu, Fri from 08:00
    assert "2026-12-02 08:00、2026-12-03 08:00、2026-12-04 08:00" in out
    assert (
        main(["appointment", "1", "--confirm", "--choose", "2026-12-03 08:00", "--home", str(home)])
        == 0
    )
    out = capsys.readouterr().out
    assert "已在询盘桥的日历约好上门量尺：2026-12-03 08:00" in out
    assert "确认邮件草稿 #1 等您批准" in out
    assert _inquiry(capsys, home)["stage"] == "measure"
    assert main(["drafts", "--json", "--home", str(home)]) == 0
    [draft] = json.loads(capsys.readouterr().out)
    assert draft["status"] == "pending_approval" and draft["unconfirmed_facts"] == []
    assert "Thursday 3 December 2026 at 8:00 am" in draft["body_en"]
