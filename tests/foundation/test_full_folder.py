"""A full disk or a read-only data folder: one Chinese line, no traceback, no leftover temp file.

The disk is "full" for a child process through ``RLIMIT_FSIZE`` (every write past the limit fails
as it would on a full disk; POSIX only), so the test needs no special mount.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli.main import main

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
ROOT = Path(__file__).resolve().parents[2]


def _full_disk(limit: int) -> object:
    def _apply() -> None:
        import resource
        import signal

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return _apply


def _child(
    code: str, limit: int, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=_full_disk(limit),
        env={**os.environ, **(env or {})},
    )


def _leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.endswith((".part", ".tmp"))]


def test_a_backup_that_hits_a_full_disk_leaves_no_part_file(tmp_path: Path) -> None:
    database = tmp_path / "inquiry-bridge.sqlite3"
    with sqlite3.connect(database) as db:
        db.execute("CREATE TABLE t (x TEXT)")
        db.executemany("INSERT INTO t VALUES (?)", [("x" * 1000,)] * 300)
    backups = tmp_path / "backups"
    code = (
        "from pathlib import Path; from core.db.backup import backup_database\n"
        f"backup_database(Path({str(database)!r}), Path({str(backups)!r}))"
    )
    done = _child(code, 64_000)
    assert done.returncode != 0  # the copy failed ...
    assert _leftovers(backups) == [] and list(backups.iterdir()) == []  # ... and left nothing


def test_ingest_on_a_full_disk_says_so_in_one_line(home: Path, tmp_path: Path) -> None:
    assert main(["inquiries", "--home", str(home)]) == 0  # the store exists
    mail = tmp_path / "eml"
    mail.mkdir()
    body = "Please quote a sliding door for 3 Main St, Ryde. " + "Thanks. " * 8000
    (mail / "001.eml").write_text(
        f"From: A <a@example.com>\nSubject: Quote\nMessage-ID: <full-1@example.com>\n\n{body}\n",
        encoding="utf-8",
    )
    code = (
        "import sys; from core.cli.main import main\n"
        f"sys.exit(main(['ingest', '--eml-dir', {str(mail)!r}, '--offline', '--home', {str(home)!r}]))"
    )
    done = _child(code, 40_000)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "Logging error" not in done.stderr
    assert done.stderr.count("\n") == 1 and "磁盘空间已满" in done.stderr
    assert str(home) in done.stderr
    assert _leftovers(home) == []
    # with room again, the same folder takes the mail: nothing was lost
    assert main(["ingest", "--eml-dir", str(mail), "--offline", "--home", str(home)]) == 0
