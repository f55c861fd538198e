"""The change feed: what another connection commits comes back as one ``StoreChanged`` naming
the rows (new inquiries, changed inquiries), and nothing is published while nothing changes."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from sqlalchemy import text, update

from core.app.changes import ChangeFeed
from core.clock import FakeClock
from core.db.models import Inquiry
from core.events import StoreChanged
from core.services import Services, build_services
from tests.desktop.seed import seed_inquiries
from tests.support.qt import wait_until


def _elsewhere_on_the_server(services: Services) -> None:
    """Transactions that write no row of ours: on PostgreSQL each takes a transaction id, as a
    write in any database of the server does (autovacuum, another app), which moves the feed's
    signal. SQLite's signal moves only for writes to this file, so there is nothing to do."""
    if services.store.engine.dialect.name != "postgresql":
        return
    with services.store.engine.connect() as conn:
        for _ in range(3):
            conn.execute(text("SELECT pg_current_xact_id()"))
            conn.commit()


async def test_another_writer_s_rows_come_back_as_one_change(
    services: Services, clock: FakeClock
) -> None:
    seed_inquiries(services, 3)
    feed = ChangeFeed(services)
    seen: list[StoreChanged] = []
    services.bus.subscribe(StoreChanged, seen.append)
    stop = asyncio.Event()
    task = asyncio.ensure_future(feed.run_forever(stop, poll_s=0.05))
    other = build_services(services.home, clock=FakeClock(clock.now() + timedelta(minutes=5)))
    try:
        await asyncio.sleep(0.3)
        assert seen == []  # nothing changed: nothing said
        _elsewhere_on_the_server(other)  # PostgreSQL's signal moves; the rows did not
        await asyncio.sleep(0.3)
        assert seen == []

        seed_inquiries(other, 1, seed=9)  # a fourth inquiry, written by "another process"
        await wait_until(lambda: any(4 in c.created for c in seen), timeout=10)

        later = clock.now().replace(tzinfo=None) + timedelta(hours=1)
        other.store.write(
            lambda s: s.execute(update(Inquiry).where(Inquiry.id == 2).values(updated_at=later))
        )
        await wait_until(lambda: any(2 in c.updated for c in seen), timeout=10)
        assert all(1 not in c.updated for c in seen[-1:])  # only the changed row is named
    finally:
        stop.set()
        await task
        other.close()
