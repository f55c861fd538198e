"""Issue 28: a busy data folder is worded as busy and waited for, never reported as broken."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

from core.cli.main import one_line
from core.db.store import explain
from core.db.writer_lock import WAITING_LINE, WriterLock

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


HOLD_BRIEFLY = """
import sys, time
from pathlib import Path
from core.db.writer_lock import WriterLock
with WriterLock(Path(sys.argv[1])).hold():
    print("held", flush=True)
    time.sleep(0.6)
"""


def test_a_short_wait_for_another_process_is_explained_at_once(tmp_path: Path) -> None:
    """The line comes when the lock is found busy, not after a second: a 0.6 s wait shows it."""
    said: list[float] = []
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLD_BRIEFLY, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        start = time.monotonic()
        with WriterLock(tmp_path, on_wait=lambda: said.append(time.monotonic() - start)).hold():
            waited = time.monotonic() - start
    finally:
        holder.communicate(timeout=60)
    # once, while waiting: the old one-second delay said nothing at all for this 0.6 s wait
    assert len(said) == 1, said
    assert waited > said[0]  # and then it really waited for the holder


def test_a_free_lock_or_our_own_threads_say_nothing(tmp_path: Path) -> None:
    said: list[str] = []
    lock = WriterLock(tmp_path, on_wait=lambda: said.append("waiting"))
    with lock.hold(), lock.hold():  # free, then re-entered on the same thread
        pass
    assert said == []

    inside = threading.Event()
    leave = threading.Event()

    def hold_in_a_thread() -> None:
        with WriterLock(tmp_path, on_wait=lambda: said.append("thread")).hold():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=hold_in_a_thread)
    thread.start()
    assert inside.wait(10)
    threading.Timer(0.2, leave.set).start()
    with lock.hold():  # waits for our own other thread: no other process, no line
        pass
    thread.join(10)
    assert said == []
