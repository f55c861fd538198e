"""SMTP as a ``Mailer``: submit once, find the sent copy in the IMAP Sent folder, append it.

SMTP has no drafts on the server and no "did it go?" query, so once-only rests on three facts
the sender journals (``core.drafts.submit_once``): the Message-ID is fixed and committed before
any connection; the moment the message's last byte (``CRLF.CRLF``) has been written is committed
too (``on_transmitted``) — after it the server may have taken the message even if its reply never
arrives; and the Sent folder is searched by Message-ID. A message whose bytes never left can be
submitted again; one whose bytes left is never resubmitted.

The sent copy is appended to Sent (flagged ``\\Seen``) unless the provider files it itself
(Gmail: ``smtp.append_sent`` off). Plain-text SMTP is refused except to loopback.
"""

from __future__ import annotations

import contextlib
import imaplib
import logging
import re
import smtplib
import ssl
from collections.abc import Callable
from typing import TypeVar

from core import tasks
from core.clock import Clock
from core.errors import (
    MailboxError,
    MailerAmbiguous,
    MailerError,
    MailerRefused,
    MailerUnavailable,
)
from core.mailbox.account import Endpoint, check_transport
from core.mailbox.folders import find_sent, list_folders
from core.mailbox.imap_session import (
    ImapSession,
    classify_refusal,
    network_error,
    open_session,
)
from core.mailbox.outgoing import Outgoing, build_mime, new_message_id, recipients

log = logging.getLogger(__name__)
T = TypeVar("T")

TIMEOUT = 60.0


def connect_smtp(endpoint: Endpoint) -> smtplib.SMTP:
    context = ssl.create_default_context()
    if endpoint.security == "ssl":
        smtp: smtplib.SMTP = smtplib.SMTP_SSL(
            endpoint.host, endpoint.port, timeout=TIMEOUT, context=context
        )
        tls = True
    else:
        smtp = smtplib.SMTP(endpoint.host, endpoint.port, timeout=TIMEOUT)
        smtp.ehlo()
        tls = smtp.has_extn("starttls")
        if tls:
            smtp.starttls(context=context)
            smtp.ehlo()
    check_transport(endpoint, tls=tls)
    return smtp


def login_smtp(smtp: smtplib.SMTP, endpoint: Endpoint, password: str) -> None:
    if not smtp.has_extn("auth"):
        return  # a loopback relay without AUTH
    try:
        smtp.login(endpoint.user, password)
    except smtplib.SMTPAuthenticationError as exc:
        raise classify_refusal(_smtp_text(exc), endpoint) from exc


def _smtp_text(exc: smtplib.SMTPResponseException) -> str:
    raw = exc.smtp_error
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    return f"{exc.smtp_code} {text}"


def _said(code: int, resp: bytes | str) -> str:
    text = resp.decode("utf-8", "replace") if isinstance(resp, bytes) else str(resp)
    return f"{code} {text}".strip()


# what the owner can do about a refusal, by the command the server refused (zh / en)
_ADVICE = {
    "MAIL": (
        "请确认发件账户可以用这个服务器发信（发信地址、授权码、发信额度），改好后重新批准并发送",
        "check that the account may send through this server (address, app password, daily "
        "limit), then approve and send again",
    ),
    "RCPT": (
        "请检查收件人地址是否写对，改正后重新批准并发送",
        "check the recipient's address, correct it, then approve and send again",
    ),
    "AUTH": (
        "请检查发信账户的用户名和授权码（应用密码），并确认邮箱已开启 SMTP 服务，改好后会自动重发",
        "check the sending account's user name and app password, and that SMTP is enabled for "
        "the mailbox; it is sent again once fixed",
    ),
    "连接": (
        "服务器不接受连接：请检查发信服务器地址和端口，或问邮箱服务商是否允许这个账户用 SMTP 发信",
        "the server does not accept the connection: check the SMTP server name and port, or ask "
        "the provider whether this account may send by SMTP",
    ),
    "DATA": (
        "服务器不收这封邮件的内容（常见原因：被判为垃圾邮件、附件太大）；请修改后重新批准并发送，"
        "或联系邮箱服务商",
        "the server will not take this email's content (often: judged as spam, attachments too "
        "large); change it and approve again, or ask the mail provider",
    ),
}


def _reply_error(
    command: str, code: int, resp: bytes | str, host: str, what: str = ""
) -> MailerError:
    """A non-success reply: 4xx (try later) → ``MailerUnavailable``; 5xx → ``MailerRefused``
    with what the server said and what the owner can do. Either way the server did not take
    the message (RFC 5321 §4.2.1: only a 2xx after the final dot hands it over)."""
    said = _said(code, resp)
    about = f"（{what}）" if what else ""
    about_en = f" ({what})" if what else ""
    if 400 <= code < 500:
        return MailerUnavailable(
            f"服务器对 {command} 回答「{said}」{about}，表示稍后再试"
            f' / the server answered {command} with "{said}"{about_en}: try later',
            via="smtp",
            host=host,
        )
    zh, en = _ADVICE.get(command, _ADVICE["DATA"])
    return MailerRefused(
        f"服务器对 {command} 回答「{said}」{about}。{zh}"
        f' / the server answered {command} with "{said}"{about_en}; {en}',
        via="smtp",
        host=host,
    )


def _transmit(
    smtp: smtplib.SMTP,
    sender: str,
    rcpts: list[str],
    raw: bytes,
    on_transmitted: Callable[[], None],
    host: str,
) -> None:
    """MAIL, RCPT, DATA by hand: ``on_transmitted`` runs between the last byte and the reply.

    Every failure leaves as the port's tree: before the last byte nothing was taken
    (``MailerUnavailable`` / ``MailerRefused``); after it, a reply is still a clear answer,
    but a dropped connection or a timeout is ``MailerAmbiguous``."""
    try:
        code, resp = smtp.mail(sender)
        if code != 250:
            raise _reply_error("MAIL", code, resp, host, sender)
        for rcpt in rcpts:
            code, resp = smtp.rcpt(rcpt)
            if code not in (250, 251):
                raise _reply_error("RCPT", code, resp, host, rcpt)
        code, resp = smtp.docmd("DATA")
        if code != 354:
            raise _reply_error("DATA", code, resp, host)
        data = re.sub(rb"(?m)^\.", b"..", raw)  # dot-stuffing (RFC 5321 4.5.2)
        if not data.endswith(b"\r\n"):
            data += b"\r\n"
        smtp.send(data + b".\r\n")
    except (smtplib.SMTPServerDisconnected, OSError) as exc:  # the final dot never left
        raise MailerUnavailable(via="smtp", host=host, cause=network_error(exc)) from exc
    on_transmitted()
    try:
        code, resp = smtp.getreply()
    except (smtplib.SMTPServerDisconnected, OSError) as exc:
        raise MailerAmbiguous(
            "邮件已全部交给服务器，但没有收到确认"
            f" / the whole email was handed over but no confirmation came ({exc})",
            via="smtp",
            host=host,
            cause=exc,
        ) from exc
    if code != 250:
        raise _reply_error("DATA", code, resp, host)


class SmtpMailer:
    """``prepare`` → ``submit`` (once) → ``find_sent``; ``imap`` is the account's IMAP side."""

    kind = "smtp"
    has_drafts = False

    def __init__(
        self,
        endpoint: Endpoint,
        password: Callable[[], str],
        *,
        imap: Endpoint | None,
        append_sent: bool,
        clock: Clock,
    ) -> None:
        self.endpoint = endpoint
        self.password = password
        self.imap = imap
        self.append_sent = append_sent and imap is not None
        self.clock = clock

    @property
    def sender(self) -> str:
        return self.endpoint.user

    def new_message_id(self) -> str:
        return new_message_id(self.sender)

    def build(self, out: Outgoing, message_id: str) -> bytes:
        return build_mime(out, message_id, self.clock.now())

    # ------------------------------------------------------------------ submit (blocking)
    def _submit(self, out: Outgoing, raw: bytes, on_transmitted: Callable[[], None]) -> None:
        host = f"{self.endpoint.host}:{self.endpoint.port}"
        try:
            smtp = connect_smtp(self.endpoint)
        except smtplib.SMTPResponseException as exc:  # a 421/554 greeting: nothing sent
            raise _reply_error("连接", exc.smtp_code, exc.smtp_error, host) from exc
        except (OSError, smtplib.SMTPException) as exc:
            raise MailerUnavailable(
                via="smtp", host=host, cause=network_error(exc, self.endpoint)
            ) from exc
        except MailboxError as exc:  # plain text to a remote host: fix the settings, then retry
            raise MailerUnavailable(via="smtp", host=host, cause=exc) from exc
        try:
            try:
                login_smtp(smtp, self.endpoint, self.password())
            except MailboxError as exc:  # wrong 授权码: fixed by the owner, then retried
                raise MailerUnavailable(via="smtp", host=host, cause=exc) from exc
            except smtplib.SMTPResponseException as exc:
                raise _reply_error("AUTH", exc.smtp_code, exc.smtp_error, host) from exc
            except (smtplib.SMTPException, OSError) as exc:
                raise MailerUnavailable(
                    via="smtp", host=host, cause=network_error(exc, self.endpoint)
                ) from exc
            _transmit(smtp, self.sender, recipients(out), raw, on_transmitted, host)
        finally:
            with contextlib.suppress(smtplib.SMTPException, OSError):
                smtp.quit()

    async def submit(self, out: Outgoing, raw: bytes, on_transmitted: Callable[[], None]) -> None:
        """Submit once. ``on_transmitted`` is called (in the worker thread) right after the
        message's last byte is written, before the server's answer is read."""
        await tasks.io(self._submit, out, raw, on_transmitted)

    # ------------------------------------------------------------------ the Sent folder
    def _with_sent(self, fn: Callable[[ImapSession, str], T]) -> T | None:
        if self.imap is None:
            return None
        imap = open_session(self.imap, self.password())
        try:
            sent = find_sent(list_folders(imap))
            if sent is None:
                return None
            return fn(imap, sent.quoted)
        finally:
            imap.close()

    def _find(self, message_id: str) -> bool:
        def search(imap: ImapSession, box: str) -> bool:
            imap.call("select", box, True)
            found = imap.call("uid", "SEARCH", "HEADER", "Message-ID", f'"{message_id}"')
            return any(isinstance(x, bytes) and x.strip() for x in found)

        return bool(self._with_sent(search))

    async def find_sent(self, message_id: str) -> bool:
        """Whether a message with this Message-ID is in the Sent folder (False without IMAP)."""
        return await tasks.io(self._find, message_id)

    def _append(self, raw: bytes) -> bool:
        def append(imap: ImapSession, box: str) -> bool:
            date = imaplib.Time2Internaldate(self.clock.now().timestamp())
            imap.call("append", box, "(\\Seen)", date, raw)
            return True

        return bool(self._with_sent(append))

    async def file_sent_copy(self, message_id: str, raw: bytes) -> bool:
        """Append the sent copy to Sent, once (not when it is there already, nor where the
        provider files it itself). Returns whether a copy is in Sent now."""
        if not self.append_sent:
            return await self.find_sent(message_id)
        if await self.find_sent(message_id):
            return True
        return await tasks.io(self._append, raw)
