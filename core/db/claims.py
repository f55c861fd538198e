"""Claims that must hold across processes and machines: a compare-and-set by conditional UPDATE.

Reading a status and then setting it is correct only while one writer at a time exists (SQLite's
folder lock). Two desks on one PostgreSQL database read ``approved`` at the same moment, and
both would send. ``compare_and_set`` instead issues ``UPDATE … SET … WHERE id = :id AND
<field> = :expected`` and reports whether this transaction's row count is 1: the database
decides the winner on both engines (PostgreSQL re-checks the WHERE after waiting for the
other writer's row lock; SQLite refuses a write from a stale snapshot). The loser learns it
lost and changes nothing. Used by the draft state machine (send once), stage moves and the
assistant's proposals; ``move`` is a claim with the event row that records it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from sqlalchemy import Table, inspect, update
from sqlalchemy.orm import DeclarativeBase, Session
from sqlalchemy.orm.attributes import set_committed_value


def compare_and_set(
    session: Session, row: DeclarativeBase, field: str, expected: object, values: dict[str, Any]
) -> bool:
    """Set ``values`` on ``row`` iff its ``field`` is still ``expected`` in the database.

    Pending changes of the session are flushed first (they belong before the claim); on success
    the row object carries the new values as committed ones (no second UPDATE at commit)."""
    session.flush()
    mapper = inspect(type(row))
    table = cast(Table, mapper.local_table)
    keys = mapper.primary_key_from_instance(row)
    stmt = update(table).values(**values)
    for column, key in zip(mapper.primary_key, keys, strict=True):
        stmt = stmt.where(column == key)
    stmt = stmt.where(table.c[field] == expected)
    if session.connection().execute(stmt).rowcount != 1:
        return False
    for name, value in values.items():
        set_committed_value(row, name, value)
    return True


def current_value(session: Session, row: DeclarativeBase, field: str) -> Any:
    """What the database holds now for ``row``'s ``field`` (after a lost claim)."""
    session.expire(row, [field])
    return getattr(row, field)


def move(
    session: Session,
    row: DeclarativeBase,
    field: str,
    values: dict[str, Any],
    event: DeclarativeBase,
    refused: Callable[[str], Exception],
) -> None:
    """A status moves, and the row that says so is written: the one way (a draft's status with
    its ``DraftEvent``, an inquiry's stage with its ``StageEvent``).

    ``field`` is compared with the value ``row`` holds now (what the caller read and decided
    on); of two writers only one wins. The loser gets ``refused(what the database holds now)``
    raised and writes nothing, not even the ``event``."""
    if not compare_and_set(session, row, field, getattr(row, field), values):
        raise refused(str(current_value(session, row, field)))
    session.add(event)
