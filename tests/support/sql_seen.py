"""What SQL a store really sends: tests that hold a query count or a plan read it from here."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from sqlalchemy import event
from sqlalchemy.engine import Engine


class Sent(NamedTuple):
    sql: str
    params: Any


@contextmanager
def statements_sent(engine: Engine) -> Iterator[list[Sent]]:
    """Every statement ``engine`` runs inside the block (any thread), with its parameters."""
    seen: list[Sent] = []

    def record(_c: object, _cur: object, sql: str, params: Any, _ctx: object, _m: bool) -> None:
        seen.append(Sent(sql, params))

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)
