"""Nothing is ever lost: a damaged database, an unusable data folder, file modes, backups.

Random bytes over the database: every command prints one clear line and exits non-zero; ``repair``
exits 0 and ``inquiries --json`` lists every inquiry again (the backup's, plus those re-ingested
from the raw mail the backup lacks).
"""

from __future__ import annotations

import json
import os
import shutil
import stat
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from core.cli.main import main
from core.db.backup import backup_database, list_backups, thin
from tests.conftest import CORPUS


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _inquiries(capsys: pytest.CaptureFixture[str], home: Path) -> list[dict]:
    code, out, err = _run(capsys, "inquiries", "--json", "--home", str(home))
    assert code == 0, err
    return json.loads(out)


def _shape(inquiries: list[dict]) -> list[tuple]:
    return sorted(
        (
            i["customer_email"] or "",
            i["classification"],
            i["stage"],
            tuple(sorted(i["message_ids"])),
        )
        for i in inquiries
    )


def _corpus_halves(tmp_path: Path) -> tuple[Path, Path]:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    for index, path in enumerate(sorted(CORPUS.glob("*.eml"))):
        shutil.copy(path, (first if index < 25 else second) / path.name)
    return first, second


@pytest.mark.corpus
def test_random_bytes_over_the_database_then_repair(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = _corpus_halves(tmp_path)
    assert _run(capsys, "ingest", "--eml-dir", str(first), "--offline")[0] == 0
    assert list_backups(home / "backups")  # the first close took a backup
    assert _run(capsys, "ingest", "--eml-dir", str(second), "--offline")[0] == 0
    before = _inquiries(capsys, home)
    assert len(before) > 10

    database = home / "inquiry-bridge.sqlite3"
    size = database.stat().st_size
    database.write_bytes(os.urandom(size))
    for argv in (
        ["inquiries", "--json"],
        ["mail", "--json"],
        ["drafts", "--json"],
        ["ingest", "--eml-dir", str(first), "--offline"],
    ):
        code, out, err = _run(capsys, *argv)
        assert code != 0, argv
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        assert "repair" in lines[0] and "数据库已损坏" in lines[0]
        assert "Traceback" not in err and "sqlalche.me" not in err

    code, out, err = _run(capsys, "repair", "--offline")
    assert code == 0, err
    assert "damaged" in out
    assert list(home.glob("inquiry-bridge.sqlite3.damaged-*"))  # kept aside, never deleted
    after = _inquiries(capsys, home)
    assert _shape(after) == _shape(before)


@pytest.mark.corpus
def test_repair_without_any_backup_rebuilds_from_raw_mail(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, _second = _corpus_halves(tmp_path)
    assert _run(capsys, "ingest", "--eml-dir", str(first), "--offline")[0] == 0
    before = _inquiries(capsys, home)
    shutil.rmtree(home / "backups")
    (home / "inquiry-bridge.sqlite3").write_bytes(b"\x00garbage" * 4096)
    code, _out, err = _run(capsys, "repair", "--offline")
    assert code == 0, err
    assert _shape(_inquiries(capsys, home)) == _shape(before)


def test_a_data_folder_that_is_a_file_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x")
    code, _out, err = _run(capsys, "inquiries", "--json", "--home", str(not_a_folder / "home"))
    assert code != 0
    assert len(err.strip().splitlines()) == 1
    assert "数据文件夹无法使用" in err and "Traceback" not in err


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
@pytest.mark.corpus
def test_data_files_are_owner_only(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, _ = _corpus_halves(tmp_path)
    assert _run(capsys, "ingest", "--eml-dir", str(first), "--offline")[0] == 0
    checked = 0
    for path in [home, *home.rglob("*")]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode & 0o077 == 0, f"{path} is {oct(mode)}"
        checked += 1
    assert (home / "inquiry-bridge.sqlite3").exists()
    assert list((home / "logs").glob("*.log"))
    assert checked > 30


def test_backups_are_thinned_like_ankis(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    import sqlite3

    connection = sqlite3.connect(database)
    connection.execute("CREATE TABLE t (x)")
    connection.commit()
    connection.close()
    folder = tmp_path / "backups"
    start = datetime(2026, 1, 1, 9, 0)
    for hour in range(0, 24 * 60, 6):  # four a day for 60 days
        backup_database(database, folder, now=start + timedelta(hours=hour))
    now = start + timedelta(days=60)
    thin(folder, now)
    kept = list_backups(folder)
    assert 3 + 7 <= len(kept) <= 3 + 7 + 4 + 6
    assert kept[0].taken_at == start + timedelta(hours=24 * 60 - 6)


def test_two_repairs_in_one_second_keep_both_damaged_copies(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The kept damaged copy is the owner's last trace of that data: a second repair in the same
    (pinned) second must not replace it."""
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T09:00:00+11:00")
    database = home / "inquiry-bridge.sqlite3"
    damage = [b"first damage " * 400, b"second damage " * 400]
    for junk in damage:
        database.write_bytes(junk)
        code, out, err = _run(capsys, "repair", "--offline", "--home", str(home))
        assert code == 0, err
    kept = sorted(
        path
        for path in home.glob("inquiry-bridge.sqlite3.damaged-*")
        if not path.name.endswith(("-wal", "-shm"))
    )
    assert sorted(path.read_bytes() for path in kept) == sorted(damage), [p.name for p in kept]
    assert kept[-1].name in out  # the report names the copy this repair kept
