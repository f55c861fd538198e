"""Measure visits that fit his calendar, as the owner meets them.

- Two desks confirming two visits into the same hour: one is booked, the other gets one Chinese
  line, and the store's slot key refuses a booking that skipped every check (this test also
  runs on PostgreSQL: ``tests/store/test_visits_both.py``).
- Three proposed times never overlap his Outlook events (loopback Graph) or the visits booked
  here, leave room to drive, and skip weekends and NSW public holidays; a time he names that
  clashes is refused.
- Confirming writes one Outlook event, moves the job to ``measure`` and leaves a confirmation
  for the customer waiting for approval with nothing for the fact guard to flag; the day before,
  the reminder is drafted once.
- An IMAP user (no Microsoft account): the visits booked here are his calendar.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from core.app import App
from core.clock import SYDNEY, FakeClock
from core.db.models import Inquiry, Visit, VisitSlot
from core.rhythm.appointments import AppointmentError, Confirmed
from core.rhythm.visits import Busy, book, free_times
from tests.notify.conftest import add_inquiry
from tests.support.graph_server import GraphServer

NOW = datetime(2026, 12, 1, 9, 0, tzinfo=SYDNEY)  # a Tuesday


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=SYDNEY)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOW.astimezone(UTC))


@pytest.fixture
async def app(services: Any) -> AsyncIterator[App]:
    built = App(services)
    yield built
    await built.aclose()
    drafting = built.drafts._service
    if drafting is not None:
        await drafting.aclose()


@pytest.fixture
def graph(monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> Iterator[GraphServer]:
    with GraphServer(now=clock.now) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_URL", srv.base_url)
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", srv.token or "")
        yield srv


def _mary(services: Any) -> int:
    return add_inquiry(
        services,
        customer_name="Mary Lee",
        customer_email="mary@example.com",
        address="7 Rose St, Epping NSW 2121",
        suburb="Epping",
    )


def _tom(services: Any) -> int:
    return add_inquiry(
        services, customer_name="Tom Chan", customer_email="tom@example.com", suburb="Ryde"
    )


def _counts(services: Any) -> tuple[int, int]:
    with services.store.session() as session:
        booked = session.scalar(select(func.count(Visit.id)).where(Visit.status == "booked"))
        slots = session.scalar(select(func.count()).select_from(VisitSlot))
    return int(booked or 0), int(slots or 0)


async def test_two_visits_cannot_be_booked_into_one_slot(services: Any, app: App) -> None:
    mary, tom = _mary(services), _tom(services)
    visits = app.rhythm.visits
    await visits.propose(mary, at(3, 10))
    await visits.propose(tom, at(3, 10, 30))  # nothing booked yet: both may be proposed
    # two desks press 确认 at once
    outcome = await asyncio.gather(
        visits.confirm(mary), visits.confirm(tom), return_exceptions=True
    )
    booked = [o for o in outcome if isinstance(o, Confirmed)]
    refused = [o for o in outcome if isinstance(o, AppointmentError)]
    assert len(booked) == 1 and len(refused) == 1, outcome
    line = refused[0].user_message("zh_CN")
    assert "\n" not in line and ("已约了别的上门" in line or "冲突" in line)
    assert _counts(services) == (1, 4)  # one visit, its four quarter hours

    # a booking that skipped every check still meets the key
    loser = tom if booked[0].proposal.inquiry_id == mary else mary
    with pytest.raises(IntegrityError):
        services.store.write(
            lambda s: book(s, loser, at(3, 10, 45), 30, actor="owner", now=services.clock.now())
        )
    assert _counts(services) == (1, 4)
    # the slot next to it is free: a visit from 11:00 books
    await visits.propose(loser, at(3, 11, 30))
    assert (await visits.confirm(loser)).visit_id and _counts(services) == (2, 8)


def test_free_times_skip_weekends_and_nsw_holidays() -> None:
    easter = datetime(2026, 4, 1, 11, 0, tzinfo=SYDNEY)  # Wed; Good Friday 3 Apr, Easter Mon 6 Apr
    found = free_times(easter, [], 60)
    assert [t.date().isoformat() for t in found] == ["2026-04-02", "2026-04-07", "2026-04-08"]
    assert all(t.hour == 8 and t.minute == 0 for t in found)
    busy = [
        Busy(
            datetime(2026, 4, 2, 8, 0, tzinfo=SYDNEY),
            datetime(2026, 4, 2, 16, 0, tzinfo=SYDNEY),
            "x",
        )
    ]
    assert free_times(easter, busy, 60)[0].date().isoformat() == "2026-04-07"  # no room on Thu


async def test_proposals_avoid_his_calendar_and_confirming_books_everything(
    services: Any, app: App, graph: GraphServer
) -> None:
    mary, tom = _mary(services), _tom(services)
    graph.add_event("Site meeting", at(2, 8), at(2, 16), location="Parramatta")  # Wed: full
    graph.add_event("Dentist", at(3, 8), at(3, 9, 30), location="Ryde")  # Thu morning
    visits = app.rhythm.visits
    await visits.propose(tom, at(7, 8))  # Mon 8:00 at Ryde, booked here (and in Outlook)
    await visits.confirm(tom)
    assert len(graph.events) == 3  # his two and Tom's visit

    proposal = await visits.propose_free(mary)
    starts = [datetime.fromisoformat(t) for t in proposal.times]
    # Thu after the dentist and the drive from Ryde; Fri from 8; Mon after Tom's visit + drive
    assert starts == [at(3, 10), at(4, 8), at(7, 9, 30)]
    busy = [(at(2, 8), at(2, 16)), (at(3, 8), at(3, 9, 30)), (at(7, 8), at(7, 9))]
    for start in starts:
        end = start + timedelta(minutes=60)
        assert all(not (b0 < end and start < b1) for b0, b1 in busy)
        assert start.weekday() < 5 and start.hour >= 8 and end.hour <= 17

    with pytest.raises(AppointmentError) as clash:
        await visits.propose(mary, at(3, 9))
    assert "Dentist" in clash.value.user_message("zh_CN")

    await visits.propose_free(mary)
    done = await visits.confirm(mary, proposal.times[0])
    assert done.event_id and done.stage_moved and len(graph.events) == 4
    assert graph.events[-1]["requested"]["start"]["dateTime"] == "2026-12-03T10:00:00"
    assert done.draft_id is not None
    draft = await app.drafts.reader.get(done.draft_id)
    assert draft.status == "pending_approval" and draft.to == ["mary@example.com"]
    assert "Thursday 3 December 2026 at 10:00 am" in draft.body_en
    assert "7 Rose St, Epping NSW 2121" in draft.body_en
    assert "2026-12-03（周四）10:00" in draft.body_zh
    assert draft.unconfirmed_facts == []  # every date and time is his own confirmation
    with services.store.session() as session:
        row = session.get(Inquiry, mary)
        assert row is not None and row.stage == "measure"

    # confirming again books nothing more
    again = await visits.confirm(mary, proposal.times[0])
    assert again.already and len(graph.events) == 4 and _counts(services)[0] == 2


async def test_the_reminder_is_drafted_once_the_day_before(
    services: Any, app: App, clock: FakeClock
) -> None:
    """IMAP user (no Microsoft account): the visits booked here are his calendar."""
    mary = _mary(services)
    visits = app.rhythm.visits
    await visits.propose(mary, at(4, 10))
    done = await visits.confirm(mary)
    assert done.event_id == "" and done.draft_id is not None
    assert await visits.remind_due() == []  # not yet the day before
    clock.advance(timedelta(days=2).total_seconds())  # Thu 3 Dec, 09:00
    assert await visits.remind_due() == []  # the confirmation still waits: no second reply
    await app.drafts.decisions.reject(done.draft_id, actor="owner")
    (reminder_id,) = await visits.remind_due()
    reminder = await app.drafts.reader.get(reminder_id)
    assert reminder.status == "pending_approval" and reminder.unconfirmed_facts == []
    assert "tomorrow, Friday 4 December 2026 at 10:00 am" in reminder.body_en
    assert await visits.remind_due() == []  # once

    # his calendar is the store: another inquiry's proposals go round Mary's visit
    tom = _tom(services)
    times = (await visits.propose_free(tom, minutes=120)).times
    assert times[0] == at(4, 11, 30).isoformat(timespec="minutes")  # after Mary + the drive
