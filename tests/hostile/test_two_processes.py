"""Issue 28: one data folder, several processes — every one ends successfully, every message once.

Real processes (the installed entry point, ``python -m desktop.launcher``) on one folder: two
``ingest`` at once (on a fresh folder, so schema creation races too), two ``sync --once`` against
the loopback Graph server, the tray app beside a CLI ``ingest``, and a second tray app, which
brings the first forward and exits.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest

from tests.support.graph_server import GraphServer

COUNT = 30


def _mails(folder: Path) -> list[bytes]:
    """``COUNT`` distinct customer inquiries as .eml files (and their bytes)."""
    folder.mkdir()
    start = datetime(2026, 11, 20, 9, 0, tzinfo=UTC)
    raws = []
    for n in range(COUNT):
        msg = EmailMessage()
        msg["From"] = f"Customer {n} <customer{n}@example.com>"
        msg["To"] = "sales@aurorawindows.com.au"
        msg["Subject"] = f"Quote for a sliding door #{n}"
        msg["Date"] = format_datetime(start + timedelta(minutes=n))
        msg["Message-ID"] = f"<inquiry-{n}@example.com>"
        msg.set_content(
            f"Hi, please quote a sliding door 2400 x 2100 for {n} Smith St, Ryde. "
            f"Call me on 0412 345 {n:03d}. Thanks"
        )
        raw = bytes(msg)
        (folder / f"{n:03d}.eml").write_bytes(raw)
        raws.append(raw)
    return raws


def _start(home: Path, *argv: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "desktop.launcher", *argv, "--home", str(home)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **(env or {})},
    )


def _finish(proc: subprocess.Popen[str], timeout: float = 240) -> tuple[int, str, str]:
    out, err = proc.communicate(timeout=timeout)
    return proc.returncode, out, err


def _recorded(home: Path) -> Counter[str]:
    done = subprocess.run(
        [sys.executable, "-m", "desktop.launcher", "mail", "--json", "--home", str(home)],
        capture_output=True,
        text=True,
        check=True,
    )
    return Counter(m["message_id"] for m in json.loads(done.stdout))


def _assert_ok(results: list[tuple[int, str, str]]) -> None:
    for code, _out, err in results:
        assert code == 0, err
        assert "Traceback" not in err and "数据库无法打开" not in err
        assert "already exists" not in err and "UNIQUE" not in err


def _once_each(counts: Counter[str]) -> None:
    assert len(counts) == COUNT and set(counts.values()) == {1}, counts


def test_two_ingests_on_a_fresh_folder(tmp_path: Path) -> None:
    home = tmp_path / "home"
    folder = tmp_path / "eml"
    _mails(folder)
    procs = [_start(home, "ingest", "--eml-dir", str(folder), "--offline") for _ in range(2)]
    results = [_finish(p) for p in procs]
    _assert_ok(results)
    _once_each(_recorded(home))
    # each says what IT recorded: together every message once, the rest already known
    processed = [int(re.findall(r"processed (\d+)", out)[-1]) for _, out, _ in results]
    assert sum(processed) == COUNT, [out for _, out, _ in results]


ROUNDS = 40
RACERS = 4

_OPENER = r"""
import sys, time
from pathlib import Path
from core.db.store import make_engine
from sqlalchemy import text
root, me, rounds = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
for n in range(rounds):
    engine = make_engine(root / str(n) / "inquiry-bridge.sqlite3")
    (root / str(n) / f"ready-{me}").touch()
    while not (root / str(n) / "go").exists():
        pass
    with engine.connect() as connection:
        mode = connection.execute(text("PRAGMA journal_mode")).scalar()
    engine.dispose()
    print(n, mode, flush=True)
"""


def test_processes_opening_one_fresh_database_at_the_same_instant_all_open_it(
    tmp_path: Path,
) -> None:
    """Two ``sync --once`` started together on a fresh folder: one died at start-up with
    "数据库正忙" (1 run in ~50 on a loaded machine). Switching a new database to WAL takes an
    exclusive lock that SQLite does not wait for when two connections want it at once, so the
    openers are released here together, round after round, on fresh databases."""
    for n in range(ROUNDS):
        (tmp_path / str(n)).mkdir()
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _OPENER, str(tmp_path), str(me), str(ROUNDS)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for me in range(RACERS)
    ]
    try:
        for n in range(ROUNDS):  # release each round once every opener waits at its line
            deadline = time.monotonic() + 60
            while len(list((tmp_path / str(n)).glob("ready-*"))) < RACERS:
                assert all(p.poll() is None for p in procs), "an opener died"
                assert time.monotonic() < deadline, f"round {n}: openers never got ready"
                time.sleep(0.002)
            (tmp_path / str(n) / "go").touch()
    finally:  # an opener that died leaves the others spinning at their line: release them all
        for n in range(ROUNDS):
            (tmp_path / str(n) / "go").touch()
    results = [_finish(p) for p in procs]
    for code, out, err in results:
        assert code == 0, err.strip().splitlines()[-1:]
        assert out.split() == [w for n in range(ROUNDS) for w in (str(n), "wal")]


@pytest.fixture
def graph_env(tmp_path: Path):  # type: ignore[no-untyped-def]
    with GraphServer(page_size=7) as srv:
        for raw in _mails(tmp_path / "mailbox"):
            srv.add_message(raw=raw)
        yield (
            srv,
            {
                "INQUIRY_BRIDGE_GRAPH_URL": srv.base_url,
                "INQUIRY_BRIDGE_GRAPH_TOKEN": srv.token,
            },
        )


def test_two_sync_once_against_one_mailbox(tmp_path: Path, graph_env) -> None:  # type: ignore[no-untyped-def]
    _srv, env = graph_env
    home = tmp_path / "home"
    procs = [_start(home, "sync", "--once", "--offline", "--no-drive", env=env) for _ in range(2)]
    results = [_finish(p) for p in procs]
    _assert_ok(results)
    _once_each(_recorded(home))
    # new= is what THIS process recorded: both used to print new=30 for 30 messages stored once
    new = [int(re.findall(r"\bnew=(\d+)", out)[-1]) for _, out, _ in results]
    known = [int(re.findall(r"\bknown=(\d+)", out)[-1]) for _, out, _ in results]
    assert sum(new) == COUNT, [out for _, out, _ in results]
    assert [n + k for n, k in zip(new, known, strict=True)] == [COUNT, COUNT]


def _wait_for_log(home: Path, words: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for log in (home / "logs").glob("*.log"):
            if words in log.read_text(encoding="utf-8", errors="replace"):
                return
        time.sleep(0.2)
    raise AssertionError(f"{words!r} never logged")


def test_the_tray_app_beside_a_cli_ingest(tmp_path: Path, graph_env) -> None:  # type: ignore[no-untyped-def]
    """The tray app polls the mailbox while a CLI ingest reads the same messages from files:
    both end with rc 0, each message recorded once; a second tray app raises the first."""
    _srv, env = graph_env
    home = tmp_path / "home"
    ui_env = {**env, "QT_QPA_PLATFORM": "offscreen"}
    tray = _start(home, "app", "--no-tray", "--quit-after", "50", env=ui_env)
    try:
        _wait_for_log(home, "ready: window shown")
        ingest = _start(home, "ingest", "--eml-dir", str(tmp_path / "mailbox"), "--offline")
        second = _start(home, "app", "--no-tray", "--quit-after", "5", env=ui_env)
        code, _out, err = _finish(second, timeout=60)
        assert code == 0 and "已在运行" in err, err
        _wait_for_log(home, "another launch asked for this window: shown")
        ingested = _finish(ingest)
        tray_result = _finish(tray, timeout=120)
    finally:
        if tray.poll() is None:
            tray.kill()
    _assert_ok([ingested, tray_result])
    _once_each(_recorded(home))
