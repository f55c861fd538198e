"""Mail a Graph round left for the next one (the spool budget), kept in the store.

Why: IMAP can leave mail for later by stopping its cursor before the lowest UID it left; a
Graph delta link cannot be advanced part-way — it names "everything up to now" of a folder. And
not advancing it at all would list the same growing window again each round while the disk stays
full, and once the delta expired (410) the fresh enumeration only reaches back
``graph.first_sync_days``: mail left longer than that would be lost.

So the round advances its delta links as usual and, in the same transaction
(``MailSync._commit``), writes what it left here: the listing entries (metadata only, no MIME) as
one JSON list in ``sync_cursors`` row ``graph:mail:deferred``. The next round reads them back
before it looks at the delta and plans them with what the delta brings (``MailSync._plan``), so
they come in first, in order of arrival:

* a crash before the commit leaves the old delta links *and* the old list: the round repeats;
* an entry already stored (a round that ingested it but died before its commit) is known by its
  id and not fetched again; one the delta lists again replaces the kept copy; one the delta
  reports ``@removed``, or gone by the time it is fetched (404), is dropped;
* an entry of a folder no longer watched (Sent Items switched off) is dropped, as its delta is.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from core.db.models import SyncCursor

log = logging.getLogger(__name__)

CURSOR = "graph:mail:deferred"
# what fetching and ingesting an entry reads (``MailSync._raw_message``, ``_plan``, the size)
KEPT = (
    "id",
    "internetMessageId",
    "conversationId",
    "receivedDateTime",
    "isRead",
    "categories",
    "singleValueExtendedProperties",
    "_folder",
)


def load(session: Session, folders: list[str]) -> list[dict[str, Any]]:
    """The entries the last committed round left, of the folders still watched."""
    row = session.get(SyncCursor, CURSOR)
    if row is None or not row.value:
        return []
    try:
        entries = json.loads(row.value)
    except ValueError:
        entries = None
    if not isinstance(entries, list):
        log.warning("unreadable list of deferred Graph mail; the next delta lists what is new")
        return []
    return [
        e for e in entries if isinstance(e, dict) and e.get("id") and e.get("_folder") in folders
    ]


def save(session: Session, entries: list[dict[str, Any]], now: datetime) -> None:
    """Replace the kept list with ``entries`` (none: the row goes)."""
    row = session.get(SyncCursor, CURSOR)
    if not entries:
        if row is not None:
            session.delete(row)
        return
    value = json.dumps([{k: e[k] for k in KEPT if k in e} for e in entries], ensure_ascii=False)
    if row is None:
        session.add(SyncCursor(name=CURSOR, value=value, updated_at=now))
    else:
        row.value = value
        row.updated_at = now
