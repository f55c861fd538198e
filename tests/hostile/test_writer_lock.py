"""Issue 28: a busy data folder is worded as busy and waited for, never reported as broken."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from core.cli.main import one_line
from core.db.store import explain
from core.db.writer_lock import WAITING_LINE

HOLD = """
import sys, time
from pathlib import Path
from core.db.writer_lock import WriterLock
release = Path(sys.argv[2])
with WriterLock(Path(sys.argv[1])).hold():
    print("held", flush=True)
    while not release.exists():  # until the test has seen the other process wait
        time.sleep(0.05)
"""


def test_a_cli_writer_waits_visibly_for_another_process_then_proceeds(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    folder = tmp_path / "eml"
    folder.mkdir()
    (folder / "1.eml").write_bytes(
        b"From: Jane <jane@example.com>\r\nTo: sales@aurorawindows.com.au\r\n"
        b"Subject: Door\r\nMessage-ID: <one@example.com>\r\n"
        b"Date: Mon, 30 Nov 2026 09:00:00 +1100\r\n\r\nPlease quote a sliding door for 1 Smith St.\r\n"
    )
    release = tmp_path / "release"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(home), str(release)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        ingest = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "desktop.launcher",
                "ingest",
                "--eml-dir",
                str(folder),
                "--offline",
                "--home",
                str(home),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ),
        )
        assert ingest.stderr is not None
        first = ingest.stderr.readline()  # blocks until it says why it waits
        assert first.strip() == WAITING_LINE
        assert ingest.poll() is None  # still waiting, not failed
        release.touch()
        out, rest = ingest.communicate(timeout=240)
    finally:
        release.touch()
        holder.communicate(timeout=60)
    assert ingest.returncode == 0, rest
    assert "等待另一个询盘桥进程" not in rest  # said once
    assert "处理邮件 1 封" in out


def test_locked_and_raced_are_busy_not_broken(tmp_path: Path) -> None:
    database = tmp_path / "inquiry-bridge.sqlite3"
    for text in ("database is locked", "UNIQUE constraint failed: messages.message_id"):
        error = explain(sqlite3.OperationalError(text), database)
        assert error.code == "store_busy"
        line = one_line(error)
        assert "数据库正忙" in line and "数据库无法打开" not in line and "busy" in line
