"""Class and stage written back as IMAP keywords, where the server lets us, never breaking.

The IMAP twin of Outlook categories (``core.graph.categories``): each inquiry's newest messages
carry ``IB-Class-A`` / ``IB-Class-B`` and ``IB-Stage-<stage>`` (Thunderbird, Apple Mail and
Dovecot show keywords as tags; Gmail shows them as labels), so a mail client shows what the
board says. A keyword is an atom: ASCII, no spaces, so these are English names.

Written after each mail round, only where the folder's ``PERMANENTFLAGS`` allows new keywords
(``\\*``) or already lists ours; a read-only folder, a server without keywords or any error
just skips (logged) — keywords are cosmetic and the round has already been committed.
``Message.categories`` mirrors what was written, so an unchanged message is not touched again;
the owner's own keywords are kept (only ``IB-`` ones are replaced). Setting a keyword never
touches ``\\Seen``.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from core import tasks
from core.db.models import Inquiry, Message
from core.errors import MailboxError
from core.mailbox.folders import Folder, find_sent, inbox, list_folders
from core.mailbox.imap_session import ImapSession
from core.mailbox.imap_sync import selected_mark

if TYPE_CHECKING:
    from core.db.store import Store

log = logging.getLogger(__name__)

PREFIX = "IB-"
MAX_PER_INQUIRY = 20


def desired_keywords(classification: str | None, stage: str | None) -> list[str]:
    if classification not in ("A", "B"):
        return []
    out = [f"{PREFIX}Class-{classification}"]
    if stage:
        out.append(f"{PREFIX}Stage-{stage}")
    return out


def _parse(source_id: str) -> tuple[str, int, int] | None:
    """``imap:<folder>:<uidvalidity>:<uid>`` → (folder, uidvalidity, uid)."""
    parts = source_id.split(":")
    if len(parts) != 4 or parts[0] != "imap":
        return None
    try:
        return parts[1], int(parts[2]), int(parts[3])
    except ValueError:
        return None


# (message pk, folder, uidvalidity, uid, wanted, ours now)
Todo = tuple[int, str, int, int, list[str], list[str]]


def plan(session: Session) -> list[Todo]:
    """IMAP messages of classified inquiries whose keywords differ from the board."""
    todo: list[Todo] = []
    rows = session.execute(
        select(
            Message.id,
            Message.inquiry_id,
            Message.source_id,
            Message.categories,
            Inquiry.classification,
            Inquiry.stage,
        )
        .join(Inquiry, Message.inquiry_id == Inquiry.id)
        .where(Message.source == "imap", Message.source_id.is_not(None))
        .order_by(Message.inquiry_id, Message.received_at.desc())
    )
    seen: dict[int | None, int] = defaultdict(int)
    for pk, inquiry_id, sid, cats, klass, stage in rows:
        seen[inquiry_id] += 1
        parsed = _parse(str(sid))
        if parsed is None or seen[inquiry_id] > MAX_PER_INQUIRY:  # only the newest
            continue
        wanted = desired_keywords(klass, stage)
        ours = [c for c in (cats or []) if c.startswith(PREFIX)]
        if sorted(ours) != sorted(wanted):
            todo.append((pk, *parsed, wanted, ours))
    return todo


def _allows(imap: ImapSession, keywords: set[str]) -> bool:
    flags = b" ".join(imap.response("PERMANENTFLAGS")).decode("ascii", "replace")
    return "\\*" in flags or all(k in flags for k in keywords)


def _store(imap: ImapSession, box: Folder, uidvalidity: int, items: list[Todo]) -> list[int]:
    imap.call("select", box.quoted)  # read-write; keywords never touch \\Seen
    current, _next = selected_mark(imap)
    if current is None or current != uidvalidity:
        # renumbered since: the next sync relinks, the next round writes; or no UIDVALIDITY
        # at all (RFC 3501: then no UID from an earlier session names the same message)
        return []
    if not _allows(imap, {k for item in items for k in item[4]}):
        log.info("%s does not take keywords; class/stage not written back", box.name)
        return []
    done = []
    for pk, _folder, _uv, uid, wanted, ours in items:
        if ours:
            imap.call("uid", "STORE", str(uid), "-FLAGS.SILENT", f"({' '.join(ours)})")
        if wanted:
            imap.call("uid", "STORE", str(uid), "+FLAGS.SILENT", f"({' '.join(wanted)})")
        done.append(pk)
    return done


def write_keywords(imap: ImapSession, todo: list[Todo]) -> dict[int, list[str]]:
    """Apply ``todo`` (blocking); returns pk → keywords now on the server. Never raises."""
    written: dict[int, list[str]] = {}
    if not todo:
        return written
    try:
        boxes = {"inbox": inbox()}
        sent = find_sent(list_folders(imap))
        if sent is not None:
            boxes["sent"] = sent
        groups: dict[tuple[str, int], list[Todo]] = defaultdict(list)
        for item in todo:
            groups[(item[1], item[2])].append(item)
        for (folder, uidvalidity), items in groups.items():
            if folder in boxes:
                done = set(_store(imap, boxes[folder], uidvalidity, items))
                written.update({i[0]: i[4] for i in items if i[0] in done})
    except (MailboxError, OSError) as exc:
        log.warning("writing IMAP keywords failed (skipped): %s", exc)
    return written


def record(session: Session, written: dict[int, list[str]]) -> None:
    for pk, keywords in written.items():
        row = session.get(Message, pk)
        if row is not None:
            row.categories = [
                c for c in (row.categories or []) if not c.startswith(PREFIX)
            ] + keywords


async def write_back(store: Store, connect: Callable[[], ImapSession]) -> int:
    """One pass: plan, write over a fresh connection, record. Returns messages written."""

    todo = await store.read(plan)
    if not todo:
        return 0
    try:
        imap = await tasks.io(connect)
    except (MailboxError, OSError) as exc:
        log.warning("IMAP keywords postponed: %s", exc)
        return 0
    try:
        written = await tasks.io(write_keywords, imap, todo)
    finally:
        await tasks.io(imap.close)
    if written:
        await store.run(lambda s: record(s, written))
    return len(written)
