"""Two desks booking a measuring visit into the same hour at the same instant, on both engines.

Each desk has already checked the calendar and found the hour free; the store's writer lock is
bypassed on purpose (plain ``session()``), so only the key of ``visit_slots`` (one row per
quarter hour a visit holds) stands between the owner and two customers waiting for him at 10:00.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from core.clock import SYDNEY
from core.db.models import Visit, VisitSlot
from core.rhythm.visits import book
from core.services import Services
from tests.drafts.support import add_inquiry
from tests.store.test_claims import _race


def test_two_desks_booking_one_hour_at_once_book_one_visit(services: Services) -> None:
    first, _ = add_inquiry(services)
    second, _ = add_inquiry(services)
    starts = iter(
        [datetime(2026, 12, 3, 10, 0, tzinfo=SYDNEY), datetime(2026, 12, 3, 10, 30, tzinfo=SYDNEY)]
    )
    inquiries = iter([first, second])
    now = services.clock.now()

    def attempt(session: Any) -> int:
        visit = book(session, next(inquiries), next(starts), 60, actor="owner", now=now)
        return int(visit.id)

    outcomes = _race(services, attempt, "INSERT INTO VISITS")
    winners = [o for o in outcomes if isinstance(o, int)]
    losers = [o for o in outcomes if isinstance(o, Exception)]
    assert len(winners) == 1 and len(losers) == 1, outcomes
    if services.store.kind == "postgresql":  # SQLite refuses the second writer as "locked"
        assert isinstance(losers[0], IntegrityError)
    with services.store.session() as session:
        visits = session.scalar(select(func.count(Visit.id)))
        slots = session.scalars(select(VisitSlot.visit_id)).all()
    assert visits == 1 and len(slots) == 4 and set(slots) == set(winners)
