"""An SMTP server that fails before DATA: the approved reply goes exactly once when it recovers.

Issue 40: a refused or dropped connection, a drop at MAIL FROM, a ``451`` to RCPT, a ``4xx`` to
DATA — none of them lets a byte of the message reach the server, and the adapter says so
(``MailerUnavailable``), so the draft waits and is sent on the next try. Before, every one of
them left a ``submitting`` journal line without an outcome, the next try found no "remote draft"
and the draft became ``failed`` for good ("请在 Outlook 中确认", on an SMTP account). A ``5xx``
is the server's "no": the owner is told, in Chinese, which server said what and what to do.
"""

from __future__ import annotations

import asyncio
import email
import email.policy
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy.orm import Session

from core.app import build_app
from tests.mailbox.test_smtp_send import _approved_draft, _cli, _sent_copies, _status
from tests.support.dovecot import DovecotServer, free_port
from tests.support.smtp_server import SmtpServer

# every fault here happens before the message's final dot: nothing reached the server
BEFORE_DATA = [
    ("CONNECT", "drop"),  # closed on connect, without a greeting
    ("CONNECT", "421 4.3.2 Service not available, closing channel"),
    ("MAIL", "drop"),  # dropped at MAIL FROM
    ("MAIL", "451 4.3.0 Mail server temporarily rejected message"),
    ("RCPT", "451 4.7.1 Greylisted, please try again later"),
    ("DATA", "451 4.3.0 Requested action aborted: local error"),
    ("DATA", "drop"),
]


def _message_id(smtp: SmtpServer) -> str:
    msg = email.message_from_bytes(smtp.received[0].data, policy=email.policy.default)
    return str(msg["Message-ID"])


def test_failures_before_data_wait_and_the_reply_goes_once_on_recovery(
    account: tuple[DovecotServer, SmtpServer],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    dovecot, smtp = account
    home = tmp_path / "home"
    draft_id = _approved_draft(capsys, home, dovecot)

    # the server is down: nothing listens on the port (connection refused)
    monkeypatch.setenv("INQUIRY_BRIDGE_SMTP_URL", f"smtp://{dovecot.user}@127.0.0.1:{free_port()}")
    code, out, err = _cli(capsys, "send", str(draft_id), "--home", str(home))
    said = out + err
    assert "发信 SMTP" in said and "Outlook" not in said, said
    assert _status(capsys, home, draft_id) == "approved"
    monkeypatch.setenv("INQUIRY_BRIDGE_SMTP_URL", smtp.url)

    for command, action in BEFORE_DATA:
        smtp.fail_next(command, action)
        code, out, err = _cli(capsys, "send-due", "--home", str(home))
        said = out + err
        assert smtp.received == [], (command, action)
        assert _status(capsys, home, draft_id) == "approved", (command, action, said)
        # which server, and what it said, reach the owner; no word of Outlook
        assert "发信 SMTP" in said and "Outlook" not in said, said
        if action[0].isdigit():
            assert action.split()[1] in said, said

    code, out, err = _cli(capsys, "send-due", "--home", str(home))
    assert len(smtp.received) == 1, out + err
    assert _status(capsys, home, draft_id) == "sent"
    assert _sent_copies(dovecot, _message_id(smtp)) == 1
    _cli(capsys, "send-due", "--home", str(home))
    code, _, err = _cli(capsys, "send", str(draft_id), "--home", str(home))
    assert code != 0 and "未发送" in err
    assert len(smtp.received) == 1


def test_the_schedulers_own_retry_sends_once_after_a_greylisting(
    account: tuple[DovecotServer, SmtpServer], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    dovecot, smtp = account
    home = tmp_path / "home"
    draft_id = _approved_draft(capsys, home, dovecot)
    app = build_app(home)
    statuses: list[list[str]] = []

    async def rounds() -> None:
        scheduler = app.scheduler()
        try:
            for _ in range(3):  # the poller's mail rounds, each followed by send_due
                await scheduler.mail.run_once()
                statuses.append([r.status for r in scheduler.last_sends])
        finally:
            await app.aclose()

    smtp.fail_next("RCPT", "451 4.7.1 Greylisted, please try again later")
    try:
        asyncio.run(rounds())
    finally:
        app.close()
    assert statuses[:2] == [["waiting"], ["sent"]]
    assert len(smtp.received) == 1
    assert _sent_copies(dovecot, _message_id(smtp)) == 1
    assert _status(capsys, home, draft_id) == "sent"


def test_a_refusal_is_told_in_chinese_and_a_reapproved_draft_goes_once(
    account: tuple[DovecotServer, SmtpServer], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    dovecot, smtp = account
    home = tmp_path / "home"
    draft_id = _approved_draft(capsys, home, dovecot)
    smtp.fail_next("DATA", "554 5.7.1 Message rejected as spam")
    code, out, err = _cli(capsys, "send", str(draft_id), "--home", str(home))
    said = out + err
    assert "发信 SMTP" in said and "554 5.7.1" in said and "重新批准" in said, said
    assert "Outlook" not in said
    assert _status(capsys, home, draft_id) == "failed"
    assert smtp.received == []

    code, _, err = _cli(
        capsys, "approve", str(draft_id), "--accept-unconfirmed", "--home", str(home)
    )
    assert code == 0, err
    code, out, err = _cli(capsys, "send", str(draft_id), "--home", str(home))
    assert code == 0, out + err
    assert len(smtp.received) == 1
    assert _status(capsys, home, draft_id) == "sent"


def test_an_answer_after_the_final_dot_is_believed(
    account: tuple[DovecotServer, SmtpServer],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """Every byte left, but the server answered: a 4xx means it did not take the message
    (RFC 5321), so it goes again, once; a 5xx is its "no", told to the owner."""
    dovecot, smtp = account
    home = tmp_path / "home"
    draft_id = _approved_draft(capsys, home, dovecot)
    smtp.fail_next("END", "452 4.3.1 Insufficient system storage")
    code, out, err = _cli(capsys, "send", str(draft_id), "--home", str(home))
    assert "452 4.3.1" in out + err and "发信 SMTP" in out + err
    assert _status(capsys, home, draft_id) == "approved" and smtp.received == []
    smtp.fail_next("END", "550 5.7.1 Content rejected")
    _cli(capsys, "send-due", "--home", str(home))
    assert _status(capsys, home, draft_id) == "failed" and smtp.received == []
    code, _, err = _cli(
        capsys, "approve", str(draft_id), "--accept-unconfirmed", "--home", str(home)
    )
    assert code == 0, err
    _cli(capsys, "send-due", "--home", str(home))
    _cli(capsys, "send-due", "--home", str(home))
    assert len(smtp.received) == 1
    assert _status(capsys, home, draft_id) == "sent"
    assert _sent_copies(dovecot, _message_id(smtp)) == 1


def test_a_cut_after_data_is_reconciled_not_resent(
    account: tuple[DovecotServer, SmtpServer], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    dovecot, smtp = account
    home = tmp_path / "home"
    draft_id = _approved_draft(capsys, home, dovecot)
    smtp.cut_after_data = True
    _cli(capsys, "send", str(draft_id), "--home", str(home))
    assert len(smtp.received) == 1
    smtp.cut_after_data = False
    _cli(capsys, "send-due", "--home", str(home))
    _cli(capsys, "send-due", "--home", str(home))
    assert len(smtp.received) == 1, "resent after a lost confirmation"
    assert _status(capsys, home, draft_id) == "sent"
    assert _sent_copies(dovecot, _message_id(smtp)) == 1


def _journal_an_attempt(home: Path, draft_id: int, message_id: str, *, prepared: bool) -> None:
    """What a process that died between the journal line and the submit leaves (or a restore
    that forgot the outcome): ``submitting`` without an outcome, the draft ``approved``."""
    from core.db.models import Draft
    from core.db.send_journal import SUBMITTING, SendJournal
    from core.drafts.submit_once import PREPARED

    app = build_app(home)
    try:
        services = app._services

        def mark(session: Session) -> datetime | None:
            draft = session.get(Draft, draft_id)
            assert draft is not None
            if prepared:
                draft.internet_message_id = message_id
                draft.outlook_draft_id = PREPARED
            return draft.created_at

        created = services.store.write(mark)
        SendJournal.for_home(home).record(
            SUBMITTING, draft_id, message_id, at=services.clock.now(), draft_created=created
        )
    finally:
        app.close()


def test_an_unanswered_attempt_whose_bytes_never_left_is_sent_once(
    account: tuple[DovecotServer, SmtpServer],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """The journal asks the mailbox; SMTP has no drafts to ask, but the store's mark
    ``smtp:prepared`` with the same Message-ID proves nothing left: sent once, not failed."""
    dovecot, smtp = account
    home = tmp_path / "home"
    draft_id = _approved_draft(capsys, home, dovecot)
    _journal_an_attempt(home, draft_id, "<never-left@aurorawindows.com.au>", prepared=True)
    _cli(capsys, "send-due", "--home", str(home))
    _cli(capsys, "send-due", "--home", str(home))
    assert len(smtp.received) == 1
    assert _message_id(smtp) == "<never-left@aurorawindows.com.au>"
    assert _status(capsys, home, draft_id) == "sent"


def test_an_attempt_nobody_can_confirm_names_the_sent_folder_not_outlook(
    account: tuple[DovecotServer, SmtpServer],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    dovecot, smtp = account
    home = tmp_path / "home"
    draft_id = _approved_draft(capsys, home, dovecot)
    _journal_an_attempt(home, draft_id, "<unknown@aurorawindows.com.au>", prepared=False)
    code, out, err = _cli(capsys, "send", str(draft_id), "--home", str(home))
    said = out + err
    assert code != 0 and "「已发送」" in said and "Outlook" not in said, said
    assert smtp.received == []
    assert _status(capsys, home, draft_id) == "failed"
