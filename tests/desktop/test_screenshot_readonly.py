"""A picture never changes the folder it shows: ``screenshot`` renders over a temporary copy.

Before, ``screenshot --window approval`` in a folder without drafts inserted a fake customer,
a sent mail, a file and an approvable draft into the owner's own store.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from desktop.screenshots import WINDOWS
from tests.desktop.seed import seed_inquiries

ROOT = Path(__file__).resolve().parents[2]


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-m", "desktop.launcher", *args, "--home", str(home)],
        capture_output=True,
        timeout=300,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 0, done.stderr.decode()
    return done


def _listings(home: Path) -> dict[str, bytes]:
    return {name: _cli(home, name, "--json").stdout for name in ("inquiries", "mail", "drafts")}


def test_screenshots_of_every_window_leave_the_folder_as_it_was(services, tmp_path) -> None:  # type: ignore[no-untyped-def]
    seed_inquiries(services, 30, messages=True)
    home = services.paths.home
    before = _listings(home)
    assert before["drafts"].strip() == b"[]"  # the case that used to insert a sample draft
    database = services.paths.database
    stat = database.stat()
    files_before = sorted(p.relative_to(home) for p in home.rglob("*") if "logs" not in p.parts)
    for window in WINDOWS:
        out = tmp_path / f"{window}.png"
        _cli(home, "screenshot", "--window", window, "--lang", "zh_CN", "--out", str(out))
        assert QImage(str(out)).width() > 300
    after = database.stat()
    assert (after.st_mtime_ns, after.st_size) == (stat.st_mtime_ns, stat.st_size)
    assert _listings(home) == before
    files_after = sorted(p.relative_to(home) for p in home.rglob("*") if "logs" not in p.parts)
    assert files_after == files_before  # no sample attachment, no stray file
