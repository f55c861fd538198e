"""A send in flight in one process is never settled, and sent again, by another (#38).

One process (a real ``inquiry-bridge send`` child) has claimed an approved draft and is at the
SMTP server's DATA, the message's bytes not yet sent (its mark ``smtp:prepared``); the server
holds it there. Meanwhile another process on the same store runs ``send-due`` (the runner's
round) and ``send``: they must leave the draft to its sender, because "prepared and not in
Sent" means "never left" only for a *dead* sender. Released, the child sends it: the customer
gets one mail. Killed there instead (``kill -9``), its lock dies with it and the next
``send-due`` sends the draft once. On SQLite both processes share the data folder; on
PostgreSQL each has its own (two PCs), so nothing leans on the folder.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.mailbox.test_smtp_send import _approved_draft, _cli, _status
from tests.support.dovecot import DovecotServer
from tests.support.serve_procs import ROOT
from tests.support.smtp_server import SmtpServer

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")


@pytest.fixture(params=["sqlite", "postgresql"])
def homes(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, Path]:
    """(the sender's data folder, the other process's)."""
    if request.param == "sqlite":
        return tmp_path / "home", tmp_path / "home"
    monkeypatch.setenv("INQUIRY_BRIDGE_DATABASE_URL", request.getfixturevalue("pg_url"))
    return tmp_path / "desk", tmp_path / "box"


def _sending_child(home: Path, draft_id: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "core.cli.main", "send", str(draft_id), "--home", str(home)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def _held_at_data(
    account: tuple[DovecotServer, SmtpServer],
    capsys: pytest.CaptureFixture[str],
    homes: tuple[Path, Path],
) -> tuple[int, subprocess.Popen[bytes]]:
    dovecot, smtp = account
    sender_home, other = homes
    draft_id = _approved_draft(capsys, sender_home, dovecot)
    smtp.fail_next("DATA", "hold")
    child = _sending_child(sender_home, draft_id)
    assert smtp.holding.wait(90), "the sender never reached DATA"
    # another process's round and the owner's button, while the first sender is mid-send
    code, out, _ = _cli(capsys, "send-due", "--home", str(other))
    assert code == 0, out
    code, _, err = _cli(capsys, "send", str(draft_id), "--home", str(other))
    assert code != 0 and "未重复发送" in err
    assert smtp.received == []
    assert _status(capsys, other, draft_id) == "sending"
    return draft_id, child


def test_another_process_leaves_a_send_in_flight_to_its_sender(
    account: tuple[DovecotServer, SmtpServer],
    capsys: pytest.CaptureFixture[str],
    homes: tuple[Path, Path],
) -> None:
    _, smtp = account
    draft_id, child = _held_at_data(account, capsys, homes)
    try:
        smtp.released.set()
        _, err = child.communicate(timeout=90)
        assert child.returncode == 0, err.decode()
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate(timeout=10)
    assert len(smtp.received) == 1
    assert _status(capsys, homes[1], draft_id) == "sent"
    _cli(capsys, "send-due", "--home", str(homes[1]))
    assert len(smtp.received) == 1


def test_a_sender_killed_before_any_byte_left_is_sent_once_by_the_next_round(
    account: tuple[DovecotServer, SmtpServer],
    capsys: pytest.CaptureFixture[str],
    homes: tuple[Path, Path],
) -> None:
    _, smtp = account
    draft_id, child = _held_at_data(account, capsys, homes)
    os.kill(child.pid, signal.SIGKILL)
    child.communicate(timeout=10)
    smtp.released.set()
    # its lock died with it: the next round settles the draft (nothing left) and sends it once
    code, out, _ = _cli(capsys, "send-due", "--home", str(homes[1]))
    assert code == 0, out
    assert len(smtp.received) == 1
    assert _status(capsys, homes[1], draft_id) == "sent"
    _cli(capsys, "send-due", "--home", str(homes[1]))
    _cli(capsys, "send-due", "--home", str(homes[0]))
    assert len(smtp.received) == 1
