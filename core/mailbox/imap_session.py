"""One IMAP connection: TLS, the ``ID`` command, login, and the server's "no" in Chinese.

Blocking (``imaplib``): the sync and the wizard call it from a worker thread. The order at
connect is fixed by what providers require: TLS (``imaps``, or STARTTLS when offered), then
``ID`` when the server advertises it — 163/126 refuse to open a mailbox ("Unsafe Login") for a
client that has not said who it is — then ``LOGIN``. Errors leave as the app's own:
``MailAuthError`` (wrong password / 授权码), ``MailServiceDisabled`` (IMAP switched off),
``MailNetworkError`` (no network, refused, timed out, dropped), ``MailboxError`` otherwise.
"""

from __future__ import annotations

import contextlib
import imaplib
import re
import socket
import ssl
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from core.errors import (
    MailAuthError,
    MailboxError,
    MailNetworkError,
    MailServiceDisabled,
)
from core.mailbox.account import Endpoint, check_transport

# imaplib checks a command name against its table before sending it; teach it the extensions
imaplib.Commands.setdefault("ID", ("NONAUTH", "AUTH", "SELECTED"))
imaplib.Commands.setdefault("IDLE", ("AUTH", "SELECTED"))

CLIENT_ID = '("name" "Inquiry Bridge" "version" "1" "vendor" "inquiry-bridge")'
TIMEOUT = 30.0

# What providers say when IMAP is off for the account (Gmail, QQ, 163/126, iCloud, Outlook).
_DISABLED = re.compile(
    r"not enabled for imap|imap (access|service) (is )?(disabled|not enabled|closed)"
    r"|enable (imap|your account for imap)|open imap|please open|imap.*(disabled|关闭|未开启)"
    r"|开启.{0,6}imap|web login required",
    re.IGNORECASE,
)
_AUTH = re.compile(
    r"AUTHENTICATIONFAILED|AUTHORIZATIONFAILED|invalid credentials|password|login fail"
    r"|authentication failed|login error|auth.*fail|密码|授权码",
    re.IGNORECASE,
)


def classify_refusal(text: str) -> MailboxError:
    """The app's error for a server's NO/BAD text at login (disabled before auth: 'please
    enable IMAP' messages often also mention the password)."""
    if _DISABLED.search(text):
        return MailServiceDisabled(text)
    if _AUTH.search(text):
        return MailAuthError(text)
    return MailboxError(text)


def error_text(exc: BaseException) -> str:
    """imaplib puts the server's bytes in the exception: decode them (UTF-8 from QQ/163)."""
    arg = exc.args[0] if exc.args else ""
    return arg.decode("utf-8", "replace") if isinstance(arg, bytes) else str(arg)


def network_error(exc: BaseException) -> MailNetworkError:
    if isinstance(exc, socket.gaierror):
        return MailNetworkError(f"unknown host: {exc}")
    if isinstance(exc, TimeoutError | socket.timeout):
        return MailNetworkError(f"timed out: {exc}")
    return MailNetworkError(f"{type(exc).__name__}: {exc}")


class ImapSession:
    """A logged-in IMAP4 connection (``conn``) plus what the server said it can do."""

    def __init__(self, conn: imaplib.IMAP4, endpoint: Endpoint) -> None:
        self.conn = conn
        self.endpoint = endpoint

    @property
    def capabilities(self) -> set[str]:
        return {str(c).upper() for c in self.conn.capabilities}

    def has(self, capability: str) -> bool:
        return capability.upper() in self.capabilities

    def command(self, name: str, *args: str) -> list[bytes]:
        """Run a command, raising ``MailboxError`` on NO/BAD; the untagged data of ``name``."""
        _mapped(self.conn._simple_command, name, *args)  # imaplib's door for any command
        found = self.conn.untagged_responses.pop(name, [])
        return [d if isinstance(d, bytes) else _inline(d) for d in found if d is not None]

    def call(self, method: str, *args: object) -> list[object]:
        """``getattr(conn, method)(*args)`` with the error map (select, uid, append…)."""
        return list(_mapped(getattr(self.conn, method), *args))

    def response(self, code: str) -> list[bytes]:
        """An untagged response code left by the last command (UIDVALIDITY, PERMANENTFLAGS)."""
        _typ, data = self.conn.response(code)
        return [d for d in data if d is not None]

    def close(self) -> None:
        """Log out; on a dead connection just close the socket (never raises)."""
        try:
            self.conn.logout()
        except (imaplib.IMAP4.error, OSError):
            with contextlib.suppress(OSError):
                self.conn.shutdown()


def _mapped(fn: Callable[..., tuple[str, list[object]]], *args: object) -> list[object]:
    """``fn(*args)`` → its data; imaplib's failures as the app's errors, NO/BAD as MailboxError."""
    try:
        typ, data = fn(*args)
    except imaplib.IMAP4.abort as exc:
        raise MailNetworkError(error_text(exc)) from exc
    except imaplib.IMAP4.error as exc:
        raise MailboxError(error_text(exc)) from exc
    except OSError as exc:
        raise network_error(exc) from exc
    if typ != "OK":
        raise MailboxError(_text(data))
    return data


def _inline(item: tuple[bytes, bytes]) -> bytes:
    """``(b'... {9}', b'literal')`` → ``b'... "literal"'`` (a LIST name sent as a literal)."""
    head, literal = item[0], item[1]
    head = re.sub(rb"\{\d+\}$", b"", head)
    return head + b'"' + literal.replace(b"\\", b"\\\\").replace(b'"', b'\\"') + b'"'


def _text(data: object) -> str:
    if isinstance(data, list | tuple):
        return " ".join(_text(d) for d in data if d is not None)
    if isinstance(data, bytes):
        return data.decode("utf-8", "replace")
    return str(data)


def _connect(endpoint: Endpoint, timeout: float) -> tuple[imaplib.IMAP4, bool]:
    context = ssl.create_default_context()
    if endpoint.security == "ssl":
        return imaplib.IMAP4_SSL(
            endpoint.host, endpoint.port, ssl_context=context, timeout=timeout
        ), True
    conn = imaplib.IMAP4(endpoint.host, endpoint.port, timeout=timeout)
    if "STARTTLS" in conn.capabilities:
        conn.starttls(ssl_context=context)
        return conn, True
    return conn, False


def open_session(endpoint: Endpoint, password: str, *, timeout: float = TIMEOUT) -> ImapSession:
    """Connect, say who we are (``ID``), log in. Raises the mapped errors above."""
    try:
        conn, tls = _connect(endpoint, timeout)
    except (OSError, imaplib.IMAP4.abort) as exc:
        raise network_error(exc) from exc
    except imaplib.IMAP4.error as exc:
        raise MailboxError(error_text(exc)) from exc
    try:
        check_transport(endpoint, tls=tls)
        session = ImapSession(conn, endpoint)
        if session.has("ID"):
            session.command("ID", CLIENT_ID)
        try:
            conn.login(endpoint.user, password)
        except imaplib.IMAP4.abort as exc:
            raise MailNetworkError(error_text(exc)) from exc
        except imaplib.IMAP4.error as exc:
            raise classify_refusal(error_text(exc)) from exc
        # servers may announce more after login (SPECIAL-USE, IDLE, MOVE)
        try:
            typ, data = conn.capability()
            if typ == "OK" and data and data[0]:
                conn.capabilities = tuple(data[0].decode().upper().split())
        except imaplib.IMAP4.error:
            pass
        return session
    except BaseException:
        with contextlib.suppress(OSError):
            conn.shutdown()
        raise


@contextmanager
def session(endpoint: Endpoint, password: str) -> Iterator[ImapSession]:
    s = open_session(endpoint, password)
    try:
        yield s
    finally:
        s.close()
