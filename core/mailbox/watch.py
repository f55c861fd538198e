"""``sync`` without ``--once`` over IMAP: a round, then IDLE (or a poll), reconnecting with backoff.

After each round the mailbox is watched: where the server offers ``IDLE`` (RFC 2177) one
connection waits on INBOX until the server says something changed or ``imap.idle_seconds``
pass (servers drop an idle client after ~30 minutes; RFC 2177 asks clients to re-IDLE before
29); without IDLE it polls every ``graph.mail_poll_minutes``. A failed round — the server went
away, the network dropped — is retried after 5, 10, 20 … seconds, at most 5 minutes apart; a
refused password waits the poll interval (retrying faster only locks the account at QQ/163).
Nothing is lost meanwhile: cursors only move after a committed round.
"""

from __future__ import annotations

import contextlib
import logging
import select
import ssl
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from core import tasks
from core.errors import MailAuthError, MailboxError, MailServiceDisabled
from core.mailbox.imap_session import TIMEOUT, ImapSession
from core.mailbox.imap_sync import selected_mark

if TYPE_CHECKING:
    from core.mailbox.runtime import MailboxRuntime
    from core.services import Services

log = logging.getLogger(__name__)

BACKOFF_START = 5.0
BACKOFF_MAX = 300.0


def _pending(sock: object) -> bool:
    return isinstance(sock, ssl.SSLSocket) and sock.pending() > 0


def idle_once(imap: ImapSession, timeout: float, since: tuple[int, int] | None = None) -> bool:
    """IDLE on INBOX until the server reports a change (True) or ``timeout`` s pass (False).
    False at once when the server has no IDLE (the caller polls instead).

    ``since`` is INBOX's (UIDVALIDITY, UIDNEXT) when the last round listed it: mail that came
    between that listing and this SELECT raises no IDLE event (it is already in the count), so
    without the comparison it would wait out the whole ``timeout``."""
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
    ready = _pending(conn.sock) or bool(select.select([conn.sock], [], [], timeout)[0])
    if ready:
        line = conn.readline()
        changed = line.startswith(b"*") and not line.upper().startswith(b"* OK")
    conn.send(b"DONE\r\n")
    conn.sock.settimeout(TIMEOUT)
    while True:  # the untagged lines that came meanwhile, then our tagged OK
        line = conn.readline()
        if not line or line.startswith(tag):
            break
        changed = changed or b"EXISTS" in line.upper()
    return changed


def next_backoff(current: float) -> float:
    return min(BACKOFF_MAX, max(BACKOFF_START, current * 2))


async def watch_forever(
    services: Services, runtime: MailboxRuntime, *, on_round: Callable[[], Awaitable[None]]
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
