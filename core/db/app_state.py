"""The ``app_state`` key/value table: small JSON facts the app keeps between runs.

Pairing, Telegram pacing and button bookkeeping, sync-outage flags, the demo marker and the
desktop's mode all live here; these two helpers are the one way to read and write them.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from core.clock import naive_utc
from core.db.models import AppState, JSONValue


def get_state(session: Session, key: str) -> JSONValue:
    """The value stored under ``key``, or None."""
    row = session.get(AppState, key)
    return row.value if row is not None else None


def put_state(session: Session, key: str, value: object, now: datetime) -> None:
    """Store ``value`` under ``key`` (insert or replace), stamped ``now``."""
    row = session.get(AppState, key)
    if row is None:
        session.add(AppState(key=key, value=value, updated_at=naive_utc(now)))
    else:
        row.value = value
        row.updated_at = naive_utc(now)
