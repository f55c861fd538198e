"""``briefing [--json] [--announce]``: tomorrow's measuring round, in route order, once an evening."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.cli.main import main
from core.rhythm.route import locate, path_km
from tests.notify.conftest import OWNER
from tests.support.telegram_server import TelegramServer

SUBURBS = [
    "Penrith",
    "Bondi",
    "Castle Hill",
    "Manly",
    "Liverpool",
    "Chatswood",
    "Hornsby",
    "Epping",
]


def _measure_mail(folder: Path, n: int, suburb: str) -> None:
    (folder / f"{n:03d}.eml").write_text(
        f"From: Customer {n} <c{n}@example.com>\nTo: sales@aurorawindows.com.au\n"
        f"Subject: Measure for new windows\nMessage-ID: <brief-{n}@example.com>\n"
        "Content-Type: text/plain; charset=utf-8\n\n"
        "Hi, could you come and measure our house for 3 new awning windows?\n"
        f"Address: {n} Main St, {suburb} NSW. Call me on 0412 345 {n:03d}.\nThanks, Customer {n}\n",
        encoding="utf-8",
    )


@pytest.fixture
def measured_home(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "eml"
    folder.mkdir()
    for n, suburb in enumerate([*SUBURBS, "Atlantis"], 1):
        _measure_mail(folder, n, suburb)
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T10:00:00+11:00")
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    return home


def test_json_lists_waiting_measures_in_route_order_unknown_last(
    measured_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = measured_home
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T20:00:00+11:00")
    capsys.readouterr()
    assert main(["briefing", "--json", "--home", str(home)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["for_date"] == "2026-12-02"
    route = [v["suburb"] for v in data["measure_route"]]
    assert sorted(route) == sorted(SUBURBS)
    assert [v["suburb"] for v in data["unknown_places"]] == ["Atlantis"]
    in_order = path_km([locate(s) for s in route])  # type: ignore[misc]
    as_arrived = path_km([locate(s) for s in SUBURBS])  # type: ignore[misc]
    assert in_order < as_arrived
    assert data["measure_route"][0]["products_zh"] == ["上悬窗"]
    assert data["measure_route"][0]["last_said_by"] == "customer"
    assert len(data["new_inquiries"]) == 9 and data["drafts_waiting"] == []
    assert data["maps_url"].startswith("https://www.google.com/maps/dir/")
    assert data["calendar_checked"] is False


def test_the_route_starts_at_the_office_when_one_is_set(
    measured_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = measured_home
    (home / "settings.toml").write_text(
        '[general]\noffice_address = "5 Factory Rd, Penrith NSW 2750"\n', encoding="utf-8"
    )
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T20:00:00+11:00")
    capsys.readouterr()
    assert main(["briefing", "--json", "--home", str(home)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["measure_route"][0]["suburb"] == "Penrith"  # the nearest stop to the office
    assert "origin=5%20Factory%20Rd" in data["maps_url"]


def test_the_chinese_briefing_reaches_telegram_once_at_the_configured_time(
    measured_home: Path,
    owner_env: TelegramServer,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    home = measured_home
    assert main(["telegram", "--once", "--home", str(home)]) == 0  # the new-inquiry alerts
    before = len(owner_env.sent)
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T19:59:00+11:00")
    assert main(["briefing", "--announce", "--home", str(home)]) == 0
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    assert len(owner_env.sent) == before  # not yet
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T20:00:30+11:00")
    assert main(["briefing", "--announce", "--home", str(home)]) == 0
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    [briefing] = owner_env.sent[before:]
    assert briefing.chat_id == OWNER
    text = briefing.visible
    assert text.startswith("明日简报 · 12月2日（星期三）")
    assert "等待上门量尺（A 类）· 建议路线" in text and "未能定位的地址" in text
    assert text.index("Atlantis") > text.index("Bondi")
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T20:40:00+11:00")
    assert main(["briefing", "--announce", "--home", str(home)]) == 0
    assert main(["telegram", "--once", "--home", str(home)]) == 0
    assert len(owner_env.sent) == before + 1
    capsys.readouterr()


def test_briefing_only_reads(
    measured_home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = measured_home
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T20:00:00+11:00")
    capsys.readouterr()
    assert main(["inquiries", "--json", "--home", str(home)]) == 0
    before = capsys.readouterr().out
    assert main(["briefing", "--home", str(home)]) == 0
    assert "明日简报" in capsys.readouterr().out
    assert main(["inquiries", "--json", "--home", str(home)]) == 0
    assert capsys.readouterr().out == before
