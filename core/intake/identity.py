"""Message identity that does not trust the Message-ID alone.

Why: website form mailers (and some cheap mail servers) stamp every submission with one fixed
Message-ID. Trusting the id made three different customers' enquiries one stored message and
two "already known" ones -- lost customers. A message's identity is therefore its Message-ID
*and* a fingerprint of its content (sender, Date header, body text):

* the first message with an id is stored under that id, as before (threading keeps working);
* a later message with the same id but a different fingerprint is a different message, stored
  under ``<id>#<fingerprint>`` (an alias: ``original_message_id`` gives the id back for the
  ``mail --json`` / ``inquiries --json`` contracts);
* the same content delivered again (re-ingest, a copy in two folders) resolves to the row it
  already has: still one message.

Rows store no fingerprint column; the first row's fingerprint is recomputed from its stored
sender and body and the Date header of its raw bytes on disk, only when an id collides.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from email.parser import BytesHeaderParser
from email.policy import compat32
from typing import Protocol

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.models import Message
from core.mail.headers import parse_date
from core.mail.message_ids import original_message_id
from core.paths import DataPaths


class ParsedLike(Protocol):
    from_addr: str | None
    date: datetime | None
    text: str


def fingerprint(sender: str | None, date: datetime | None, body: str | None) -> str:
    """16 hex digits over what makes two messages different: sender, Date, body text."""
    digest = hashlib.sha256()
    digest.update((sender or "").strip().lower().encode("utf-8", "surrogatepass"))
    digest.update(b"\x00" + (date.isoformat() if date else "").encode())
    digest.update(b"\x00" + (body or "").strip().encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:16]


def fingerprint_of(parsed: ParsedLike | None) -> str | None:
    if parsed is None:
        return None
    return fingerprint(parsed.from_addr, parsed.date, parsed.text)


def same_delivery(stored: datetime | None, listed: datetime | None) -> bool:
    """Whether a stored message (naive UTC ``received_at``) and a listed one (aware) arrived at
    the same moment -- how a Graph round tells a moved message from another one reusing its id
    without downloading it. Unknown on either side: trust the id."""
    if stored is None or listed is None:
        return True
    if listed.tzinfo is not None:
        listed = listed.astimezone(UTC).replace(tzinfo=None)
    return abs((stored - listed).total_seconds()) <= 1


def alias(message_id: str, print_: str) -> str:
    """The stored identity of a different message that reuses ``message_id``."""
    return f"{message_id}#{print_}"


def _stored_print(paths: DataPaths, row: Message) -> str:
    date = None
    if row.raw_path:
        try:
            raw = paths.stored(row.raw_path)  # the folder's file, or the store's (PostgreSQL)
            assert raw is not None
            with open(raw, "rb") as handle:
                headers = BytesHeaderParser(policy=compat32).parse(handle)
            date = parse_date(str(headers.get("date", "") or ""), [])
        except Exception:  # unreadable raw file: compare on sender and body only
            date = None
    return fingerprint(row.from_addr, date, row.body_full)


def resolve_many(
    session: Session,
    paths: DataPaths,
    items: Sequence[tuple[str, str | None, str]],
) -> list[str]:
    """The stored identity for each ``(message_id, fingerprint, sha256 of the raw bytes)`` of one
    chunk, in order.

    An item whose id nobody has (in the store or earlier in the chunk) keeps it. An item whose
    content matches the holder of its id (or of its alias) resolves to that identity (known).
    Otherwise it gets its alias. Items without a fingerprint (unparsed mail: their id is the
    hash of their bytes already) keep their id.
    """
    ids = {m for m, p, _ in items if p}
    holders: dict[str, Message] = {}
    if ids:
        for held in session.scalars(select(Message).where(Message.message_id.in_(ids))):
            holders[held.message_id] = held
    claimed: dict[str, str] = {}  # id → fingerprint of its first holder in this chunk
    prints: dict[str, str] = {}
    out: list[str] = []
    for message_id, print_, digest in items:
        if not print_:
            out.append(message_id)
            continue
        row = holders.get(message_id)
        if row is not None:
            if row.raw_path and row.raw_path.endswith(f"/{digest}.eml"):
                out.append(message_id)  # the very same bytes
                continue
            if message_id not in prints:
                prints[message_id] = _stored_print(paths, row)
            holder_print = prints[message_id]
        elif message_id in claimed:
            holder_print = claimed[message_id]
        else:
            claimed[message_id] = print_
            out.append(message_id)
            continue
        out.append(message_id if holder_print == print_ else alias(message_id, print_))
    return out


__all__ = [
    "alias",
    "fingerprint",
    "fingerprint_of",
    "original_message_id",
    "resolve_many",
    "same_delivery",
]
