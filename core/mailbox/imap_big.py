"""A big IMAP message fetched in pieces to a file, never held whole.

Why: ``imaplib`` reads a ``FETCH`` literal into one bytes object, so ``BODY.PEEK[]`` of a 300 MB
mail is 300 MB in memory before the parser even starts (and imaplib cannot stream a literal).
The listing asks every message's ``RFC822.SIZE``; one over ``OVERSIZE_BYTES`` (the size from
which the parser reads a mail from its file) is fetched with partial fetches,
``BODY.PEEK[]<offset.length>`` (RFC 3501 6.4.5, every server has them), ``PIECE`` bytes at a
time, each written to ``<spool>/imap-<random>.eml.part`` and hashed as it comes, then fsynced
and renamed to ``imap-<random>.eml``. The pipeline reads that file (``RawMessage.path``). A
failure (a dropped connection, the message expunged meanwhile) deletes the partial file, so the
round, which then stops before its cursor moves, repeats cleanly next time.

Disk: a big message is a batch of its own (``ImapSync.batches``, as Graph's ``MailSync.batches``
streams one alone), so one big file waits in the spool at a time, and a round spools big mail
within ``core.mail.spool_budget``'s budget (the same rule as Graph's); what it leaves waits for
the next round, the cursor not moved past it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
from pathlib import Path

from core.errors import MailServerMisbehaves
from core.mail.oversize import OVERSIZE_BYTES
from core.mailbox.imap_session import ImapSession, human_size

PIECE = 4 * 1024 * 1024  # bytes per partial FETCH: one literal in memory at a time
PREFIX = "imap-"
_SIZE = re.compile(rb"RFC822\.SIZE (\d+)")


def listed_size(meta: bytes) -> int | None:
    """``RFC822.SIZE`` from a FETCH answer's meta line."""
    match = _SIZE.search(meta)
    return int(match.group(1)) if match else None


def is_big(size: int | None) -> bool:
    return size is not None and size > OVERSIZE_BYTES


def _piece(data: list[object]) -> bytes | None:
    """The literal of a partial FETCH answer; None when the message is gone (no answer)."""
    for item in data:
        if isinstance(item, tuple) and len(item) >= 2 and isinstance(item[1], bytes):
            return item[1]
    return None


def download(imap: ImapSession, uid: int, spool: Path) -> tuple[Path, str] | None:
    """Message ``uid`` of the selected folder into a new file under ``spool`` (blocking).

    Returns (path, sha256 hex), or None when the message was expunged since it was listed.
    Raises ``MailServerMisbehaves`` (``literal``) past ``imap.limits.message_bytes``: a server
    that answers every piece in full would otherwise fill the disk.
    """
    limit = imap.limits.message_bytes
    spool.mkdir(parents=True, exist_ok=True)
    target = spool / f"{PREFIX}{secrets.token_hex(8)}.eml"
    tmp = target.with_name(target.name + ".part")
    digest = hashlib.sha256()
    try:
        with tmp.open("wb") as out:
            offset = 0
            while True:
                data = imap.call("uid", "FETCH", str(uid), f"(UID BODY.PEEK[]<{offset}.{PIECE}>)")
                piece = _piece(data)
                if piece is None:
                    if offset == 0:
                        break  # expunged: nothing to read
                    piece = b""  # a server that answers past the end with nothing at all
                if len(piece) > PIECE or offset + len(piece) > limit:
                    raise MailServerMisbehaves(
                        f"邮件 UID {uid} 超过 {human_size(limit)}，未下载"
                        f" / message UID {uid} is over {human_size(limit)}, not fetched",
                        uid=uid,
                        literal=True,
                    )
                out.write(piece)
                digest.update(piece)
                offset += len(piece)
                if len(piece) < PIECE:
                    break
            out.flush()
            os.fsync(out.fileno())
        if offset == 0:
            tmp.unlink()
            return None
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    return target, digest.hexdigest()
