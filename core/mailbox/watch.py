"""``sync`` without ``--once`` over IMAP: a round, then IDLE (or a poll), reconnecting with backoff.

After each round the mailbox is watched: where the server offers ``IDLE`` (RFC 2177) one
connection waits on INBOX until the server says something changed or ``imap.idle_seconds``
pass (servers drop an idle client after ~30 minutes; RFC 2177 asks clients to re-IDLE before
29); without IDLE it polls every ``graph.mail_poll_minutes``. A failed round — the server went
away, the network dropped — is retried after 5, 10, 20 … seconds, at most 5 minutes apart; a
refused password waits the poll interval (retrying faster only locks the account at QQ/163).
Nothing is lost meanwhile: cursors only move after a committed round.

The tray app keeps its scheduler's polls and adds ``wake_on_new_mail`` beside them (the runtime's
``watch``, which ``core.schedule.SyncScheduler`` runs): IDLE between polls, a round as soon as
the server announces a change.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import select
import socket
import ssl
import threading
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Literal, Protocol

from core import tasks
from core.errors import MailAuthError, MailboxError, MailServiceDisabled
from core.mailbox.imap_session import TIMEOUT, ImapSession
from core.mailbox.imap_sync import ImapSync, selected_mark

if TYPE_CHECKING:
    from core.services import Services

log = logging.getLogger(__name__)


class Watched(Protocol):
    """What the watch needs of ``core.mailbox.runtime.MailboxRuntime`` (which runs it, so it
    is named here by shape, not imported)."""

    mail: ImapSync

    def connect(self) -> ImapSession: ...


BACKOFF_START = 5.0
BACKOFF_MAX = 300.0
HALT_CHECK = 1.0  # seconds between looks at ``halt`` while IDLE waits
WAKE_GAP = 10.0  # at least this long between two rounds the IDLE watch starts
QUIET_GAP = 2.0  # and this long between two IDLEs that found no news


def _pending(sock: object) -> bool:
    return isinstance(sock, ssl.SSLSocket) and sock.pending() > 0


def idle_once(
    imap: ImapSession,
    timeout: float,
    since: tuple[int, int] | None = None,
    halt: threading.Event | None = None,
) -> bool:
    """IDLE on INBOX until the server reports a change (True) or ``timeout`` s pass (False).
    False at once when the server has no IDLE (the caller polls instead).

    ``since`` is INBOX's (UIDVALIDITY, UIDNEXT) when the last round listed it: mail that came
    between that listing and this SELECT raises no IDLE event (it is already in the count), so
    without the comparison it would wait out the whole ``timeout``. ``halt`` set ends the wait
    within a second (False): the app quitting must not wait out ``imap.idle_seconds``."""
    if not imap.has("IDLE"):
        return False
    conn = imap.conn
    imap.call("select", "INBOX", True)
    if since is not None:
        uidvalidity, uidnext = selected_mark(imap)
        # a missing UIDNEXT says nothing (else a server that omits it would spin the rounds)
        if uidvalidity != since[0] or (uidnext is not None and uidnext != since[1]):
            return True
    tag = conn._new_tag()  # imaplib has no IDLE of its own before Python 3.14
    conn.send(tag + b" IDLE\r\n")
    if not conn.readline().startswith(b"+"):
        return False
    changed = False
    deadline = time.monotonic() + timeout
    while _wait_readable(conn.sock, deadline - time.monotonic(), halt):
        line = conn.readline()
        if not line.upper().startswith(b"* OK"):  # not a keep-alive: the server has news
            changed = _news(line)
            break
    conn.send(b"DONE\r\n")
    conn.sock.settimeout(TIMEOUT)
    while True:  # the untagged lines that came meanwhile, then our tagged OK
        line = conn.readline()
        if not line or line.startswith(tag):
            break
        changed = changed or _news(line)
    return changed


def _news(line: bytes) -> bool:
    """Whether an untagged IDLE line is mail arriving or leaving (``* 5 EXISTS``, ``* 3
    EXPUNGE``, QRESYNC's ``* VANISHED``). Flag changes (``* 2 FETCH (FLAGS …)``: the owner read
    a mail on his phone, or our own keywords written back after a round) are not: each used to
    start a round that found nothing. They still end this IDLE: Dovecot holds back an EXISTS
    that came with a flag change until DONE, and the caller's next SELECT compares UIDNEXT."""
    words = line.upper().split()
    return line.startswith(b"*") and any(w in (b"EXISTS", b"EXPUNGE", b"VANISHED") for w in words)


def _wait_readable(sock: socket.socket, timeout: float, halt: threading.Event | None) -> bool:
    """Whether the server spoke within ``timeout`` s, looking at ``halt`` every second."""
    if _pending(sock):
        return True
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0 or (halt is not None and halt.is_set()):
            return False
        if select.select([sock], [], [], min(left, HALT_CHECK))[0]:
            return True


def next_backoff(current: float) -> float:
    return min(BACKOFF_MAX, max(BACKOFF_START, current * 2))


async def watch_forever(
    services: Services, runtime: Watched, *, on_round: Callable[[], Awaitable[None]]
) -> None:
    """Rounds until cancelled (Ctrl-C): IDLE or poll between them, backoff after failures."""

    clock = services.clock
    poll = 60.0 * services.settings.number("graph.mail_poll_minutes")
    idle_for = float(services.settings.number("imap.idle_seconds"))
    backoff = 0.0
    while True:
        try:
            await on_round()
            backoff = 0.0
        except (MailAuthError, MailServiceDisabled) as exc:
            log.warning("mailbox refused us: %s", exc.user_message("zh_CN"))
            await clock.sleep(poll)
            continue
        except (MailboxError, OSError) as exc:
            backoff = next_backoff(backoff)
            log.warning("mail round failed (%s); again in %.0f s", exc, backoff)
            await clock.sleep(backoff)
            continue
        try:
            imap = await tasks.io(runtime.connect)
        except (MailboxError, OSError):
            continue  # the next round reports and backs off
        try:
            changed = await tasks.io(idle_once, imap, idle_for, runtime.mail.inbox_mark)
        except (MailboxError, OSError):
            changed = False
        finally:
            with contextlib.suppress(Exception):
                await tasks.io(imap.close)
        if not changed and not imap.has("IDLE"):
            await clock.sleep(poll)


IdleOutcome = Literal["changed", "quiet", "failed", "refused", "no-idle"]


async def wake_on_new_mail(
    services: Services,
    runtime: Watched,
    woken_round: Callable[[], Awaitable[None]],
    stop: asyncio.Event,
) -> None:
    """The desktop's IDLE: between the scheduler's polls, one connection waits on INBOX and
    ``woken_round`` runs a mail round the moment the server says something changed, so a
    customer's mail reaches the board in seconds, not at the next ``graph.mail_poll_minutes``.

    Only after a round has listed INBOX (its mark is what IDLE compares against); not while
    sync is paused; never twice within ``WAKE_GAP`` s (ten mails arriving one by one are one
    or two rounds, not ten back to back). A server without IDLE ends the watch: the
    polls alone serve it. A dropped connection is retried with the rounds' backoff; the polls go
    on meanwhile, so nothing waits on the watch. ``stop`` ends it within ``HALT_CHECK`` s.
    """
    loop = asyncio.get_running_loop()
    halt = threading.Event()  # ``stop`` for the worker thread that waits in IDLE
    relay = asyncio.ensure_future(_relay(stop, halt))
    backoff = 0.0
    last_wake = -WAKE_GAP
    try:
        while not stop.is_set():
            mark = runtime.mail.inbox_mark
            if mark is None or services.settings.flag("schedule.paused"):
                await _pause(stop, 1.0 if mark is None else 60.0)
                continue
            outcome = await _idle_round(services, runtime, mark, halt)
            if outcome == "no-idle":
                log.info("the mail server has no IDLE; new mail waits for the next poll")
                return
            if outcome == "refused":  # as the rounds do: faster retries lock QQ/163 accounts
                await _pause(stop, 60.0 * services.settings.number("graph.mail_poll_minutes"))
                continue
            if outcome == "failed":
                backoff = next_backoff(backoff)
                await _pause(stop, backoff)
                continue
            backoff = 0.0
            if outcome == "quiet":  # timed out, or flags changed: IDLE again, not in a spin
                await _pause(stop, QUIET_GAP)
                continue
            await _pause(stop, last_wake + WAKE_GAP - loop.time())
            if stop.is_set():
                break
            last_wake = loop.time()
            log.info("IDLE: the mailbox changed; a mail round now")
            await woken_round()
    finally:
        halt.set()  # a cancelled watch ends its worker thread's wait too
        relay.cancel()


async def _relay(stop: asyncio.Event, halt: threading.Event) -> None:
    await stop.wait()
    halt.set()


async def _idle_round(
    services: Services, runtime: Watched, mark: tuple[int, int], halt: threading.Event
) -> IdleOutcome:
    """One connection, one IDLE, and what it found."""
    idle_for = float(services.settings.number("imap.idle_seconds"))
    try:
        imap = await tasks.io(runtime.connect)
    except (MailAuthError, MailServiceDisabled) as exc:
        log.info("IDLE refused by the server: %s", exc)
        return "refused"
    except (MailboxError, OSError) as exc:
        log.info("IDLE could not connect: %s", exc)
        return "failed"
    try:
        if not imap.has("IDLE"):
            return "no-idle"
        changed = await tasks.io(idle_once, imap, idle_for, mark, halt)
        return "changed" if changed else "quiet"
    except (MailboxError, OSError) as exc:
        log.info("IDLE ended by the server or the network: %s", exc)
        return "failed"
    finally:
        with contextlib.suppress(Exception):
            await tasks.io(imap.close)


async def _pause(stop: asyncio.Event, seconds: float) -> None:
    """Wait ``seconds`` (none when not positive), or less when ``stop`` is set."""
    if seconds > 0 and not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), seconds)
