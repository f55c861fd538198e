"""The send rate: at most so many emails in any 60 s window, counted from the store.

Why from the store and not a counter in memory: Exchange refuses more than 30 messages a minute
per mailbox, and the sends of a minute may come from several processes (the tray app, a CLI
``send``, the Telegram bot's 发送) and survive a restart; the ``sent_at`` column sees them all.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import Clock, naive_utc, utc
from core.db.models import Draft
from core.db.store import Store


def sent_since(session: Session, since: datetime) -> list[datetime]:
    """When each email sent after ``since`` (naive UTC) went, oldest first."""
    query = select(Draft.sent_at).where(Draft.sent_at > since).order_by(Draft.sent_at)
    return [at for at in session.scalars(query) if at is not None]  # NULL never compares >


async def wait_for_send_slot(store: Store, clock: Clock, per_minute: int) -> None:
    """Return once fewer than ``per_minute`` emails went out in the last 60 s."""
    while True:
        now = clock.now()
        since = naive_utc(now) - timedelta(seconds=60)
        times = await store.read(partial(sent_since, since=since))
        if len(times) < per_minute:
            return
        wait = 60.0 - (utc(now) - utc(times[0])).total_seconds() + 0.001
        await clock.sleep(max(wait, 0.001))
