"""``serve`` as real processes on one SQLite store and a real IMAP mailbox (Dovecot).

Two ``serve`` processes start on one store: exactly one holds the runner lease (``status
--json``) and ingests the mailbox; the other is a standby. ``kill -9`` of the holder: the
standby takes over within the (short, for the test) takeover time and ingests the mail that
arrives next. SIGTERM stops it cleanly (exit 0) and frees the lease. Every message is in the
store once.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support import dovecot as dovecot_support
from tests.support.dovecot import DovecotServer
from tests.support.mailbox_mail import inquiries, when

ROOT = Path(__file__).resolve().parents[2]
LEASE_S = 6  # runner.takeover_seconds for the test (90 by default)

pytestmark = pytest.mark.skipif(not dovecot_support.available(), reason="no dovecot-imapd")


@pytest.fixture
def dovecot() -> Iterator[DovecotServer]:
    with dovecot_support.running() as server:
        yield server


def _env(dovecot: DovecotServer) -> dict[str, str]:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "INQUIRY_BRIDGE_IMAP_URL": dovecot.url,
        "INQUIRY_BRIDGE_MAIL_PASSWORD": dovecot.password,
        "INQUIRY_BRIDGE_LEASE_SECONDS": str(LEASE_S),
    }


def _serve(home: Path, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "core.cli.main", "serve", "--home", str(home)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def _status(home: Path, env: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "core.cli.main", "status", "--json", "--home", str(home)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    body: dict[str, Any] = json.loads(done.stdout)
    return body


def _runner_pid(home: Path, env: dict[str, str]) -> int | None:
    runner = _status(home, env)["runner"]
    return None if runner is None else int(runner["pid"])


def _message_ids(home: Path) -> list[str]:
    db = home / "inquiry-bridge.sqlite3"
    if not db.exists():
        return []
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            rows = conn.execute("SELECT message_id FROM messages WHERE source = 'imap'").fetchall()
    except sqlite3.OperationalError:  # not migrated yet
        return []
    return [r[0] for r in rows]


def _until(check: Callable[[], bool], timeout: float, what: str) -> None:
    """A bound on a failure, not a speed claim: a loaded CI machine gets plenty of time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.3)
    raise AssertionError(f"timed out waiting for {what}")


def test_two_serves_one_runner_kill_9_takeover_and_a_clean_sigterm(
    dovecot: DovecotServer, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    env = _env(dovecot)
    raws = inquiries(12)
    first, later = raws[:8], raws[8:]
    for i, raw in enumerate(first):
        dovecot.append(raw, when=when(i, len(raws)).timestamp())

    a = _serve(home, env, tmp_path / "a.log")
    procs = [a]
    try:
        _until(lambda: len(_message_ids(home)) == 8, 120, "the first serve to ingest 8 messages")
        b = _serve(home, env, tmp_path / "b.log")
        procs.append(b)
        _until(lambda: "standby" in (tmp_path / "b.log").read_text(), 60, "a standby")

        status = _status(home, env)
        assert status["store"] == "sqlite"
        runner = status["runner"]
        assert runner is not None and runner["kind"] == "serve" and runner["pid"] == a.pid
        assert {"host", "since", "heartbeat_at"} <= set(runner)
        # the holder's health view, written with its heartbeat: the mail piece runs
        assert runner["pieces"]["mail"] == "running", runner

        os.kill(a.pid, signal.SIGKILL)
        a.wait(10)
        # the standby takes over within the takeover time and reads what arrives next
        _until(lambda: _runner_pid(home, env) == b.pid, 60, "the standby to take over")
        for i, raw in enumerate(later, start=len(first)):
            dovecot.append(raw, when=when(i, len(raws)).timestamp())
        _until(lambda: len(_message_ids(home)) == 12, 120, "the new runner to ingest the rest")

        b.send_signal(signal.SIGTERM)
        assert b.wait(60) == 0, (tmp_path / "b.log").read_text()
        assert "Traceback" not in (tmp_path / "b.log").read_text()
        assert _status(home, env)["runner"] is None  # released: nobody waits for the expiry
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    ids = _message_ids(home)
    assert len(ids) == len(set(ids)) == 12
