"""The app's "now" comes from one clock; ``INQUIRY_BRIDGE_NOW`` sets it for a whole process."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from core.cli.main import main
from core.clock import StartedClock, SystemClock, clock_from_env, parse_now, to_sydney


def test_an_instant_with_an_offset_is_read_as_that_instant() -> None:
    assert parse_now("2026-12-01T02:00:00+11:00") == datetime(2026, 11, 30, 15, 0, tzinfo=UTC)
    assert parse_now("2026-11-30T15:00:00Z") == datetime(2026, 11, 30, 15, 0, tzinfo=UTC)


@pytest.mark.parametrize("value", ["2026-12-01T02:00:00", "tomorrow", "2026-13-01T00:00:00Z"])
def test_a_value_without_an_offset_or_a_date_is_refused(value: str) -> None:
    with pytest.raises(ValueError, match="INQUIRY_BRIDGE_NOW"):
        parse_now(value)


def test_unset_means_the_real_clock() -> None:
    assert isinstance(clock_from_env({}), SystemClock)
    assert isinstance(clock_from_env({"INQUIRY_BRIDGE_NOW": " "}), SystemClock)


def test_a_set_clock_starts_there_and_keeps_running() -> None:
    clock = clock_from_env({"INQUIRY_BRIDGE_NOW": "2026-12-01T02:00:00+11:00"})
    assert isinstance(clock, StartedClock)
    first = clock.now()
    assert to_sydney(first).hour == 2 and to_sydney(first).day == 1
    time.sleep(0.02)
    assert clock.now() > first


def test_the_cli_reads_its_now_from_the_variable(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A message ingested while the clock says 1 December is stamped 1 December."""
    eml = tmp_path / "eml"
    eml.mkdir()
    (eml / "001.eml").write_text(
        "From: A <a@example.com>\nSubject: Sliding door quote\nMessage-ID: <n1@example.com>\n"
        "\nPlease quote a sliding door 2400 x 2100 for 3 Main St, Ryde. 0412 345 678\n",
        encoding="utf-8",
    )
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T09:00:00+11:00")
    assert main(["ingest", "--eml-dir", str(eml), "--offline", "--home", str(home)]) == 0
    capsys.readouterr()
    assert main(["mail", "--json", "--home", str(home)]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert row["received_at"].startswith("2026-11-30T22:00")  # no Date header: arrival time


def test_a_malformed_value_is_one_clear_line(home: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "core.cli.main", "inquiries", "--json", "--home", str(home)],
        env={"INQUIRY_BRIDGE_NOW": "half past nine", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert done.stderr.count("\n") == 1 and "INQUIRY_BRIDGE_NOW" in done.stderr
    assert "Traceback" not in done.stderr
