"""The board as the desktop shows it at a pinned time, for the stage-policy agreement tests.

Why here: the board has no CLI, so those tests read its rows and its "needs me" filter straight
from the query the desktop's model runs; one helper keeps both tests reading it the same way.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from core.clock import FakeClock
from core.inquiry.board import BoardQuery, BoardRow, fetch_rows
from core.services import build_services


def board_at(home: Path, now: datetime) -> tuple[dict[int, BoardRow], set[int]]:
    """Every board row by inquiry id, and the ids the "needs me" filter keeps, at ``now``."""
    services = build_services(home, clock=FakeClock(now))
    try:
        with services.store.session() as session:
            board = {row.id: row for row in fetch_rows(session, BoardQuery(), now)}
            needs_me = {row.id for row in fetch_rows(session, BoardQuery(needs_me=True), now)}
    finally:
        services.close()
    return board, needs_me
