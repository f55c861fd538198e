"""``send`` over a real SMTP server (aiosmtpd) with the copy in a real Sent folder (Dovecot).

Done-when of the IMAP/SMTP issue: an approved draft reaches the SMTP server exactly once, has a
copy in Sent (threaded to the customer's mail), and neither a second ``send`` nor ``send-due``
sends anything — also when the connection is cut right after DATA and the process is killed.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.cli.main import main
from tests.support.dovecot import DovecotServer

ROOT = Path(__file__).resolve().parents[2]
CUSTOMER_MAIL = (
    b"From: =?utf-8?b?546L5Lyf?= <wang.wei@example.com>\r\n"
    b"To: owner@aurorawindows.com.au\r\n"
    b"Subject: Quote for bifold doors\r\n"
    b"Date: Fri, 27 Nov 2026 09:00:00 +1100\r\n"
    b"Message-ID: <wang-1@mail.example.com>\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n\r\n"
    b"Hi, please quote bifold doors 3600 x 2100 for 8 Park Rd, Burwood. Call 0412 555 010.\r\n"
)


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _approved_draft(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    dovecot: DovecotServer,
    attach: Path | None = None,
) -> int:
    """The customer's mail arrives by IMAP, the owner drafts (attaches) and approves a reply."""
    dovecot.append(CUSTOMER_MAIL)
    code, _, err = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert code == 0, err
    code, out, err = _cli(capsys, "inquiries", "--json", "--home", str(home))
    inquiry_id = json.loads(out)[0]["id"]
    code, _, err = _cli(
        capsys, "draft", str(inquiry_id), "--instruction", "说下周二上门量尺", "--home", str(home)
    )
    assert code == 0, err
    code, out, _ = _cli(capsys, "drafts", "--json", "--home", str(home))
    draft_id = int(json.loads(out)[0]["id"])
    if attach is not None:
        code, _, err = _cli(
            capsys,
            "draft-files",
            "--draft",
            str(draft_id),
            "--add",
            str(attach),
            "--home",
            str(home),
        )
        assert code == 0, err
    code, _, err = _cli(
        capsys, "approve", str(draft_id), "--accept-unconfirmed", "--home", str(home)
    )
    assert code == 0, err
    return draft_id


def _status(capsys: pytest.CaptureFixture[str], home: Path, draft_id: int) -> str:
    _code, out, _ = _cli(capsys, "drafts", "--json", "--home", str(home))
    return next(d["status"] for d in json.loads(out) if int(d["id"]) == draft_id)


def _sent_copies(dovecot: DovecotServer, message_id: str) -> int:
    return sum(1 for _flags, raw in dovecot.fetch_all("Sent") if message_id.encode() in raw)


def test_send_reaches_the_server_once_with_a_threaded_copy_in_sent(
    account, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    dovecot, smtp = account
    home = tmp_path / "home"
    quote = tmp_path / "报价单.pdf"
    quote.write_bytes(b"%PDF-1.4 the quote")
    draft_id = _approved_draft(capsys, home, dovecot, attach=quote)

    code, _, err = _cli(capsys, "send", str(draft_id), "--home", str(home))
    assert code == 0, err
    assert len(smtp.received) == 1
    got = smtp.received[0]
    assert got.rcpt_tos == ["wang.wei@example.com"]
    msg = email.message_from_bytes(got.data, policy=email.policy.default)
    assert msg["In-Reply-To"] == "<wang-1@mail.example.com>"
    assert "<wang-1@mail.example.com>" in msg["References"]
    (attachment,) = list(msg.iter_attachments())
    assert attachment.get_filename() == "报价单.pdf"
    assert attachment.get_content() == b"%PDF-1.4 the quote"
    message_id = msg["Message-ID"]
    assert _sent_copies(dovecot, message_id) == 1
    assert _status(capsys, home, draft_id) == "sent"

    code, _, err = _cli(capsys, "send", str(draft_id), "--home", str(home))
    assert code != 0 and "未发送" in err
    code, _, _ = _cli(capsys, "send-due", "--home", str(home))
    assert len(smtp.received) == 1
    assert _sent_copies(dovecot, message_id) == 1


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_cut_after_data_and_killed_is_never_sent_twice(
    account, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    dovecot, smtp = account
    home = tmp_path / "home"
    draft_id = _approved_draft(capsys, home, dovecot)
    smtp.hold = True
    smtp.cut_after_data = True
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-m", "core.cli.main", "send", str(draft_id), "--home", str(home)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        assert smtp.taken.wait(60), "the message never reached the server"
        time.sleep(0.2)  # the journal write right after the last byte
        os.kill(child.pid, signal.SIGKILL)
        child.wait(10)
    finally:
        if child.poll() is None:
            child.kill()
    smtp.released.set()
    assert len(smtp.received) == 1
    assert _status(capsys, home, draft_id) == "sending"

    code, _, err = _cli(capsys, "send", str(draft_id), "--home", str(home))
    assert code != 0 and "未发送" in err  # still being settled: refused, nothing submitted
    _cli(capsys, "send-due", "--home", str(home))
    assert len(smtp.received) == 1, "resent after a lost confirmation"
    assert _status(capsys, home, draft_id) == "sent"
    msg = email.message_from_bytes(smtp.received[0].data, policy=email.policy.default)
    assert _sent_copies(dovecot, msg["Message-ID"]) == 1
    code, _, _ = _cli(capsys, "send-due", "--home", str(home))
    assert len(smtp.received) == 1
