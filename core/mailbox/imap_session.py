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
import errno
import imaplib
import io
import re
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from core import tasks
from core.errors import (
    MailAuthError,
    MailboxError,
    MailNetworkError,
    MailServerMisbehaves,
    MailServerTooSlow,
    MailServiceDisabled,
)
from core.mailbox.account import Endpoint, check_transport

if TYPE_CHECKING:
    from core.config import Settings

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


def _at(endpoint: Endpoint | None) -> dict[str, str]:
    """Which server an error names: its protocol and host:port (nothing when unknown)."""
    if endpoint is None:
        return {}
    return {"server": endpoint.protocol, "where": f"{endpoint.host}:{endpoint.port}"}


def classify_refusal(text: str, endpoint: Endpoint | None = None) -> MailboxError:
    """The app's error for a server's NO/BAD text at login (disabled before auth: 'please
    enable IMAP' messages often also mention the password)."""
    if _DISABLED.search(text):
        return MailServiceDisabled(text, **_at(endpoint))
    if _AUTH.search(text):
        return MailAuthError(text, **_at(endpoint))
    return MailboxError(text, **_at(endpoint))


def error_text(exc: BaseException) -> str:
    """imaplib puts the server's bytes in the exception: decode them (UTF-8 from QQ/163)."""
    arg = exc.args[0] if exc.args else ""
    return arg.decode("utf-8", "replace") if isinstance(arg, bytes) else str(arg)


def network_cause(exc: BaseException) -> str:
    """What happened, as a key of ``core.errors.CAUSES`` (the owner's sentence is built there)."""
    if isinstance(exc, socket.gaierror):
        return "dns"
    if isinstance(exc, TimeoutError | socket.timeout):
        return "timeout"
    if isinstance(exc, ssl.SSLError | ssl.CertificateError):
        return "tls"
    if isinstance(exc, ConnectionRefusedError):
        return "refused"
    if isinstance(exc, OSError) and exc.errno in (errno.ENETUNREACH, errno.EHOSTUNREACH):
        return "unreachable"
    return "dropped"


def network_error(exc: BaseException, endpoint: Endpoint | None = None) -> MailNetworkError:
    """A failed connection as the app's error: which server (``endpoint``), what happened; the
    exception's own text stays in the detail (the log)."""
    return MailNetworkError(
        f"{type(exc).__name__}: {exc}", cause=network_cause(exc), **_at(endpoint)
    )


def dropped(text: str, endpoint: Endpoint | None = None) -> MailNetworkError:
    """The server closed the connection under us (imaplib's abort, SMTP's disconnect)."""
    return MailNetworkError(text, cause="dropped", **_at(endpoint))


KB = 1024
MB = 1024 * 1024
_UID_IN = re.compile(rb"UID (\d+)")
SLOW_RATE = 16 * 1024  # bytes/s: an answer arriving at least this fast is never cut
SLOW_RATE = 16 * 1024  # bytes/s: an answer arriving at least this fast is never cut


@dataclass(frozen=True)
class ImapLimits:
    """What the app accepts from an IMAP server, whatever the server claims.

    imaplib reads a literal of the size the server announces (``{1200000000}``) into one bytes
    object and keeps every untagged response until the command ends, and a socket timeout
    never fires on a server that sends one byte every few seconds. So every read is bounded
    here: a line, a literal, the bytes and untagged responses of one command, the bytes of
    one round, and a deadline per command and per round (a watchdog closes the socket)."""

    line_bytes: int = MB
    literal_bytes: int = 32 * MB
    command_bytes: int = 128 * MB
    untagged: int = 100_000
    command_seconds: float = 60.0
    round_bytes: int = 4096 * MB
    round_seconds: float = 1800.0
    message_bytes: int = 200 * MB  # the largest mail fetched (``imap_big.download``)

    @classmethod
    def from_settings(cls, settings: Settings) -> ImapLimits:
        def n(key: str) -> int:
            return max(1, settings.number(key))

        return cls(
            line_bytes=n("imap.max_line_kb") * KB,
            literal_bytes=n("imap.max_literal_kb") * KB,
            command_bytes=n("imap.max_command_kb") * KB,
            untagged=n("imap.max_untagged"),
            command_seconds=float(n("imap.command_timeout_seconds")),
            round_bytes=n("imap.max_round_mb") * MB,
            round_seconds=float(n("imap.round_timeout_seconds")),
            message_bytes=n("imap.max_message_mb") * MB,
        )


def human_size(n: int) -> str:
    return f"{n / MB:.1f} MB" if n >= MB else f"{n / KB:.0f} KB" if n >= KB else f"{n} B"


class _Counting(io.RawIOBase):
    """A socket's bytes, each one counted into its connection's ``_received`` on arrival."""

    def __init__(self, sock: socket.socket, owner: _Bounded) -> None:
        self.raw = socket.SocketIO(sock, "rb")
        self.owner = owner

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int | None:
        n = self.raw.readinto(buffer)
        if n:
            self.owner._received += n
        return n

    def close(self) -> None:
        self.raw.close()
        super().close()


class _Bounded:
    """The bounds of ``ImapLimits`` over imaplib's reader (mixed into IMAP4 / IMAP4_SSL).

    Every failure leaves as the app's error (``MailServerMisbehaves``, ``MailServerTooSlow``)
    and marks the connection ``poisoned``: what the server still has to say is never read,
    the socket is simply closed."""

    limits: ImapLimits
    sock: socket.socket
    file: Any
    mo: Any

    def _bound_init(self, limits: ImapLimits) -> None:
        self.limits = limits
        self.poisoned = False
        self.expired: str | None = None  # "command" | "round" once a deadline closed the socket
        self._command_due: float | None = time.monotonic() + limits.command_seconds  # greeting
        self._round_due: float | None = None
        self._command_bytes = 0  # announced or read in this command (the caps)
        self._received = 0  # really received in this command (the deadline's credit)
        self._round_bytes: int | None = None
        self._untagged = 0
        self._stop = threading.Event()

    # -- deadlines: a watchdog thread closes the socket when one passes
    def _start_watchdog(self) -> None:
        tasks.daemon(self._watch, "imap-deadline")

    def _watch(self) -> None:
        while not self._stop.wait(0.1):
            now = time.monotonic()
            # an answer that keeps coming at SLOW_RATE or better earns its time: the deadline
            # stops a stall or a trickle, not a big message on a slow line
            due = self._command_due
            if due is not None and now > due + self._command_bytes / SLOW_RATE:
                self.expired = "command"
            elif self._round_due is not None and now > self._round_due:
                self.expired = "round"
            else:
                continue
            self.poisoned = True
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
            return

    def _counted_file(self) -> None:
        """imaplib's reader over a raw layer that credits every byte as it arrives (the
        deadline's ``_received``), so one ``read`` of a literal stays one object."""
        self.file = io.BufferedReader(_Counting(self.sock, self))

    def starttls(self, ssl_context: Any | None = None) -> tuple[Literal["OK"], list[None]]:
        result: tuple[Literal["OK"], list[None]] = super().starttls(ssl_context)  # type: ignore[misc]
        self._counted_file()  # imaplib made a new file over the TLS socket
        return result

    def start_round(self, due: float | None = None) -> None:
        """Bound the rest of this connection as one sync round (bytes and a deadline);
        ``due`` (``time.monotonic()`` based) carries a round's deadline to a new connection."""
        self._round_due = due if due is not None else time.monotonic() + self.limits.round_seconds
        self._round_bytes = 0

    @property
    def round_due(self) -> float | None:
        return self._round_due

    def _too_slow(self) -> MailServerTooSlow:
        if self.expired == "round":
            return MailServerTooSlow(
                f"一轮同步超过 {self.limits.round_seconds:.0f} 秒仍未完成"
                f" / a sync round passed {self.limits.round_seconds:.0f} s"
            )
        return MailServerTooSlow(
            f"一条命令 {self.limits.command_seconds:.0f} 秒内没有回答完"
            f" / a command got no full answer within {self.limits.command_seconds:.0f} s"
        )

    def _refuse(
        self, detail: str, uid: int | None = None, *, literal: bool = False
    ) -> MailServerMisbehaves:
        self.poisoned = True
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        return MailServerMisbehaves(detail, uid=uid, literal=literal)

    def _count(self, n: int) -> None:
        self._command_bytes += n
        if self._command_bytes > self.limits.command_bytes:
            raise self._refuse(
                f"一条命令的回答超过 {human_size(self.limits.command_bytes)}"
                f" / one command's answer passed {human_size(self.limits.command_bytes)}"
            )
        if self._round_bytes is not None:
            self._round_bytes += n
            if self._round_bytes > self.limits.round_bytes:
                raise self._refuse(
                    f"一轮同步读取超过 {human_size(self.limits.round_bytes)}"
                    f" / a round read more than {human_size(self.limits.round_bytes)}"
                )

    # -- imaplib's reader, bounded
    def readline(self) -> bytes:
        cap = self.limits.line_bytes
        line: bytes = self.file.readline(cap + 1)
        if self.expired:
            raise self._too_slow()
        if len(line) > cap:
            raise self._refuse(
                f"一行回答超过 {human_size(cap)} / a response line longer than {human_size(cap)}"
            )
        self._count(len(line))
        return line

    def read(self, size: int) -> bytes:
        cap = self.limits.literal_bytes
        if size > cap:
            match = _UID_IN.search(getattr(self.mo, "string", b"") or b"")
            uid = int(match.group(1)) if match else None
            raise self._refuse(
                f"服务器要发来 {human_size(size)} 的一段数据（邮件 UID {uid or '?'}），"
                f"超过上限 {human_size(cap)}"
                f" / the server announced {human_size(size)} of data (message UID {uid or '?'}), "
                f"over the cap of {human_size(cap)}",
                uid,
                literal=True,
            )
        self._count(size)
        data: bytes = self.file.read(size)  # one object: the raw layer credits the arrival
        if self.expired:
            raise self._too_slow()
        return data

    def _append_untagged(self, typ: str, dat: object) -> None:
        self._untagged += 1
        if self._untagged > self.limits.untagged:
            raise self._refuse(
                f"一条命令收到超过 {self.limits.untagged} 条附带回答"
                f" / more than {self.limits.untagged} untagged responses to one command"
            )
        super()._append_untagged(typ, dat)  # type: ignore[misc]

    def _simple_command(self, name: str, *args: Any) -> tuple[str, list[Any]]:
        if self.poisoned:
            raise MailNetworkError("connection dropped after a bad answer")
        # an APPEND carries its message: its upload gets time too (64 KB/s at the least)
        upload = len(getattr(self, "literal", None) or b"") if name == "APPEND" else 0
        self._command_due = time.monotonic() + self.limits.command_seconds + upload / 65536
        self._command_bytes = 0
        self._received = 0
        self._untagged = 0
        try:
            result: tuple[str, list[Any]] = super()._simple_command(name, *args)  # type: ignore[misc]
        except (imaplib.IMAP4.abort, OSError) as exc:
            if self.expired:
                raise self._too_slow() from exc
            raise
        finally:
            self._command_due = None
        return result

    def shutdown(self) -> None:
        self._stop.set()
        super().shutdown()  # type: ignore[misc]


class BoundedIMAP4(_Bounded, imaplib.IMAP4):
    def __init__(self, host: str, port: int, *, timeout: float, limits: ImapLimits) -> None:
        self._bound_init(limits)
        super().__init__(host, port, timeout=timeout)

    def open(self, host: str = "", port: int = 143, timeout: float | None = None) -> None:
        super().open(host, port, timeout)
        self._counted_file()
        self._start_watchdog()


class BoundedIMAP4_SSL(_Bounded, imaplib.IMAP4_SSL):
    def __init__(
        self,
        host: str,
        port: int,
        *,
        ssl_context: ssl.SSLContext,
        timeout: float,
        limits: ImapLimits,
    ) -> None:
        self._bound_init(limits)
        super().__init__(host, port, ssl_context=ssl_context, timeout=timeout)

    def open(self, host: str = "", port: int | None = 993, timeout: float | None = None) -> None:
        super().open(host, port, timeout)
        self._counted_file()
        self._start_watchdog()


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
        _mapped(self.endpoint, self.conn._simple_command, name, *args)  # any command's door
        found = self.conn.untagged_responses.pop(name, [])
        return [d if isinstance(d, bytes) else _inline(d) for d in found if d is not None]

    def call(self, method: str, *args: object) -> list[object]:
        """``getattr(conn, method)(*args)`` with the error map (select, uid, append…)."""
        return list(_mapped(self.endpoint, getattr(self.conn, method), *args))

    def response(self, code: str) -> list[bytes]:
        """An untagged response code left by the last command (UIDVALIDITY, PERMANENTFLAGS)."""
        _typ, data = self.conn.response(code)
        return [d for d in data if d is not None]

    def start_round(self, due: float | None = None) -> float | None:
        """Bound this connection as one sync round (``ImapLimits``); returns the deadline."""
        if isinstance(self.conn, _Bounded):
            self.conn.start_round(due)
            return self.conn.round_due
        return None

    @property
    def poisoned(self) -> bool:
        """Whether a bound was hit: the connection is unusable and is only closed."""
        return bool(getattr(self.conn, "poisoned", False))

    @property
    def limits(self) -> ImapLimits:
        limits = getattr(self.conn, "limits", None)
        return limits if isinstance(limits, ImapLimits) else ImapLimits()

    def close(self) -> None:
        """Log out; on a dead or refused connection just close the socket (never raises)."""
        if self.poisoned:
            with contextlib.suppress(OSError):
                self.conn.shutdown()
            return
        try:
            self.conn.logout()
        except (imaplib.IMAP4.error, OSError, MailboxError):
            with contextlib.suppress(OSError):
                self.conn.shutdown()


def _mapped(
    endpoint: Endpoint, fn: Callable[..., tuple[str, list[object]]], *args: object
) -> list[object]:
    """``fn(*args)`` → its data; imaplib's failures as the app's errors, NO/BAD as MailboxError."""
    try:
        typ, data = fn(*args)
    except imaplib.IMAP4.abort as exc:
        raise dropped(error_text(exc), endpoint) from exc
    except imaplib.IMAP4.error as exc:
        raise MailboxError(error_text(exc)) from exc
    except OSError as exc:
        raise network_error(exc, endpoint) from exc
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


def _connect(endpoint: Endpoint, timeout: float, limits: ImapLimits) -> tuple[imaplib.IMAP4, bool]:
    context = ssl.create_default_context()
    if endpoint.security == "ssl":
        return BoundedIMAP4_SSL(
            endpoint.host, endpoint.port, ssl_context=context, timeout=timeout, limits=limits
        ), True
    conn = BoundedIMAP4(endpoint.host, endpoint.port, timeout=timeout, limits=limits)
    if "STARTTLS" in conn.capabilities:
        conn.starttls(ssl_context=context)
        return conn, True
    return conn, False


def open_session(
    endpoint: Endpoint,
    password: str,
    *,
    timeout: float = TIMEOUT,
    limits: ImapLimits | None = None,
) -> ImapSession:
    """Connect, say who we are (``ID``), log in. Raises the mapped errors above. Every read
    is bounded by ``limits`` (the defaults when None)."""
    try:
        conn, tls = _connect(endpoint, timeout, limits or ImapLimits())
    except imaplib.IMAP4.abort as exc:
        raise dropped(error_text(exc), endpoint) from exc
    except OSError as exc:
        raise network_error(exc, endpoint) from exc
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
            raise dropped(error_text(exc), endpoint) from exc
        except imaplib.IMAP4.error as exc:
            raise classify_refusal(error_text(exc), endpoint) from exc
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
