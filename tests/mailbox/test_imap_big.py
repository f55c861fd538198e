"""A big mail over IMAP (a real Dovecot) is fetched in pieces to a file, never held whole; a
connection lost mid-mail leaves no file and the next round takes the mail once."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
import tracemalloc
from pathlib import Path

import pytest

from core.cli.main import main
from core.mailbox import imap_big
from tests.support.big_inputs import plans_mail
from tests.support.dovecot import DovecotServer
from tests.support.mailbox_mail import inquiries, when

MB = 1_000_000


def _sync(capsys: pytest.CaptureFixture[str], home: Path) -> tuple[int, str]:
    code = main(["sync", "--once", "--offline", "--home", str(home)])
    out, err = capsys.readouterr()
    return code, out + err


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.toml").write_text("[intake]\nattachment_max_mb = 60\n", encoding="utf-8")
    return home


def _plans_stored(home: Path) -> bytes:
    db = sqlite3.connect(home / "inquiry-bridge.sqlite3")
    [(stored,)] = db.execute(
        "select stored_path from attachments where filename = 'plans.pdf'"
    ).fetchall()
    db.close()
    return hashlib.sha256((home / stored).read_bytes()).digest()


def _spool(home: Path) -> list[Path]:
    spool = home / "cache" / "spool"
    return sorted(spool.iterdir()) if spool.exists() else []


def _mails(capsys: pytest.CaptureFixture[str], home: Path) -> list[dict[str, object]]:
    assert main(["mail", "--json", "--home", str(home)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert isinstance(rows, list)
    return rows


def test_a_40_mb_mail_is_fetched_in_pieces_and_its_plans_stored_whole(
    imap_env: DovecotServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    home = _home(tmp_path)
    imap_env.append(inquiries(1)[0], when=when(0, 2).timestamp())
    assert _sync(capsys, home)[0] == 0  # a running app: modules loaded, first sync done
    source = tmp_path / "big.eml"
    plans = plans_mail(source, 40, when(1, 2))
    imap_env.append(source.read_bytes(), when=when(1, 2).timestamp())
    tracemalloc.start()
    try:
        code, out = _sync(capsys, home)
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert code == 0 and "new=1" in out, out
    assert _plans_stored(home) == plans
    assert peak < source.stat().st_size / 4, f"peak {peak / MB:.1f} MB"
    assert _spool(home) == []
    big = [r for r in _mails(capsys, home) if r["subject"] == "Plans for 5 George St"]
    assert [r["disposition"] for r in big] == ["new_inquiry"]


def test_a_connection_lost_mid_mail_leaves_no_file_and_the_next_round_takes_it_once(
    imap_env: DovecotServer,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    home = _home(tmp_path)
    source = tmp_path / "big.eml"
    plans = plans_mail(source, 20, when(0, 1))
    imap_env.append(source.read_bytes(), when=when(0, 1).timestamp())
    monkeypatch.setattr(imap_big, "PIECE", 16 * 1024)  # many pieces: time to pull the plug

    def pull_the_plug() -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if list((home / "cache" / "spool").glob("imap-*.part")):
                imap_env.drop_connections()
                return
            time.sleep(0.002)

    plug = threading.Thread(target=pull_the_plug)
    plug.start()
    code, out = _sync(capsys, home)
    plug.join()
    assert code != 0, out
    assert _spool(home) == []  # no partial mail left
    assert not (home / "attachments").exists() or not list((home / "attachments").rglob("*.pdf"))

    code, out = _sync(capsys, home)
    assert code == 0 and "new=1" in out, out
    assert _sync(capsys, home)[1].count("new=0") == 1
    rows = _mails(capsys, home)
    assert [r["disposition"] for r in rows] == ["new_inquiry"]
    assert _plans_stored(home) == plans
    assert _spool(home) == []


def test_a_round_that_fails_after_the_download_leaves_nothing_in_the_spool(
    imap_env: DovecotServer,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two big mails fetched and parsed (their PDFs decoded to the spool), then the store fails
    while the first is recorded: the downloads and the decoded parts are gone at once, not at
    the six-hour sweep, and the next round takes both."""
    from core.intake import records

    home = _home(tmp_path)
    for n in range(2):
        source = tmp_path / f"big{n}.eml"
        plans_mail(source, 17, when(n, 2))
        imap_env.append(source.read_bytes(), when=when(n, 2).timestamp())
    known_many = records.known_many

    def disk_gone(*args: object, **kwargs: object) -> object:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(records, "known_many", disk_gone)
    code, out = _sync(capsys, home)
    assert code != 0, out
    assert _spool(home) == []

    monkeypatch.setattr(records, "known_many", known_many)
    code, out = _sync(capsys, home)
    assert code == 0 and "new=2" in out, out
    assert len(_mails(capsys, home)) == 2
    assert _spool(home) == []
