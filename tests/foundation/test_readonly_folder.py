"""A read-only or full data folder: one Chinese line and no traceback, readers still work; backups leave
nothing beside them.

The folder is made read-only for a child process by ``tests.support.failing_fs`` (writes inside
it fail with ``EROFS`` at the OS call, SQLite opens it read-only): ``chmod`` does not stop root,
and the tests run as root on CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from core.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "resources" / "demo"


def _run(mode: str, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tests.support.failing_fs", mode, str(home), "--", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "INQUIRY_BRIDGE_HOME": str(home)},
    )


def _mail(tmp_path: Path, names: list[str]) -> Path:
    folder = tmp_path / f"eml-{len(names)}"
    folder.mkdir()
    for name in names:
        shutil.copy(DEMO / name, folder / name)
    return folder


@pytest.fixture
def filled(home: Path, tmp_path: Path) -> Path:
    first = _mail(tmp_path, ["13-li-na-utf8.eml"])
    assert main(["ingest", "--eml-dir", str(first), "--offline", "--home", str(home)]) == 0
    return home


def _one_chinese_line(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "Logging error" not in done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert "数据文件夹无法使用" in done.stderr


@pytest.mark.parametrize("command", [["repair"], ["ingest", "--offline"]])
def test_a_read_only_folder_gives_one_chinese_line(
    filled: Path, tmp_path: Path, command: list[str]
) -> None:
    if command[0] == "ingest":
        command = [
            *command,
            "--eml-dir",
            str(_mail(tmp_path, sorted(p.name for p in DEMO.glob("0[1-3]*.eml")))),
        ]
    _one_chinese_line(_run("readonly", filled, *command))


def test_a_read_only_folder_can_still_be_read(filled: Path) -> None:
    done = _run("readonly", filled, "inquiries", "--json")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert '"customer_email"' in done.stdout


def test_a_backup_leaves_nothing_beside_it(filled: Path) -> None:
    backups = sorted((filled / "backups").iterdir())
    assert backups and all(p.name.endswith(".sqlite3") for p in backups), backups


def test_a_full_disk_gives_one_chinese_line_and_no_part_file(filled: Path, tmp_path: Path) -> None:
    """ENOSPC at every write (files still get created, 0 bytes, as on a real full disk); the
    store's closing backup meets it too. One line, and no 0-byte ``backups/*.part`` stays."""
    for old in (filled / "backups").iterdir():
        old.unlink()  # so the closing backup is owed and runs into the full disk
    mail = _mail(tmp_path, sorted(p.name for p in DEMO.glob("0[1-3]*.eml")))
    done = _run("full", filled, "ingest", "--offline", "--eml-dir", str(mail))
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1, done.stderr
    assert "磁盘空间已满" in done.stderr
    assert [p.name for p in (filled / "backups").iterdir()] == []
    assert [p for p in filled.rglob("*") if ".part" in p.name or p.name.endswith(".tmp")] == []
