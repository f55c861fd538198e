""" "Test the connection": log in to IMAP and SMTP once, answer in the owner's words.

The wizard and the settings page call ``check_account`` (blocking: from a worker thread via
``core.app``) before anything is saved, so a wrong 授权码, IMAP switched off at the provider or
no network is told at once in Chinese (``core.errors``: ``MailAuthError``,
``MailServiceDisabled``, ``MailNetworkError``), not discovered at the first sync.
"""

from __future__ import annotations

import contextlib
import smtplib
from dataclasses import dataclass

from core.errors import MailboxError
from core.mailbox.account import Endpoint
from core.mailbox.folders import find_sent, list_folders
from core.mailbox.imap_session import dropped, network_error, open_session
from core.mailbox.smtp_mailer import connect_smtp, login_smtp


@dataclass(frozen=True)
class CheckResult:
    sent_folder: str | None  # the Sent folder found (None: only INBOX will be read)
    idle: bool


def check_account(imap: Endpoint, smtp: Endpoint | None, password: str) -> CheckResult:
    session = open_session(imap, password)
    try:
        sent = find_sent(list_folders(session))
        result = CheckResult(sent.name if sent else None, session.has("IDLE"))
    finally:
        session.close()
    if smtp is not None:
        try:
            conn = connect_smtp(smtp)
        except smtplib.SMTPServerDisconnected as exc:
            raise dropped(str(exc), smtp) from exc
        except OSError as exc:
            raise network_error(exc, smtp) from exc
        except smtplib.SMTPException as exc:
            raise MailboxError(str(exc)) from exc
        try:
            login_smtp(conn, smtp, password)
        except smtplib.SMTPServerDisconnected as exc:
            raise dropped(str(exc), smtp) from exc
        finally:
            with contextlib.suppress(smtplib.SMTPException, OSError):
                conn.quit()
    return result
