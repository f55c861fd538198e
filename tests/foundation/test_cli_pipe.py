"""Issue 28: a command whose reader closes stdout early (``| head -1``) ends quietly.

The child writes far more than a pipe holds, so it is still writing when the test closes its
end after the first line: every run hits the broken pipe, none finishes first by luck.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli.main import main

MESSAGES = 150  # ~20 KB of ``mail`` lines, past the pipe's 4 KB below

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")


def _shrink(fd: int) -> None:
    """A one-page pipe (Linux), so the child blocks long before it is done."""
    import fcntl

    with contextlib.suppress(OSError, AttributeError):
        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", 1031), 4096)


def test_a_reader_closing_stdout_early_gets_no_traceback(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "eml"
    folder.mkdir()
    for n in range(MESSAGES):
        (folder / f"{n:03}.eml").write_text(
            f"From: Buyer {n} <buyer{n}@example.com>\nSubject: Quote {n}\n"
            f"Message-ID: <pipe{n}@example.com>\nDate: Mon, 30 Nov 2026 09:00:00 +1100\n\n"
            f"Please quote a sliding door for {n} Main St, Ryde.\n",
            encoding="utf-8",
        )
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    capsys.readouterr()

    read_end, write_end = os.pipe()
    _shrink(write_end)
    child = subprocess.Popen(
        [sys.executable, "-m", "desktop.launcher", "mail", "--home", str(home)],
        stdout=write_end,
        stderr=subprocess.PIPE,
        env=dict(os.environ),
    )
    os.close(write_end)
    with os.fdopen(read_end, "rb") as reader:
        first = reader.readline()
    _, err = child.communicate(timeout=120)
    text = err.decode("utf-8", "replace")

    assert b"buyer" in first  # it did print before the reader left
    assert "Traceback" not in text and "BrokenPipeError" not in text, text
    assert "数据库无法打开" not in text and "Broken pipe" not in text, text
    assert child.returncode == 141
