"""One outbox row (``Notification``) as every writer makes it.

Why one builder: the alert's Telegram bookkeeping (status, attempts, message ids, the not-before
time) and the quiet rows' read marks must start the same whoever files the alert -- the outbox's
own write path, the quote-acceptance proposal, the offered visit times -- or the mirror would
treat rows of one kind differently by who wrote them.
"""

from __future__ import annotations

from datetime import datetime

from core.clock import naive_utc
from core.db.models import Notification


def outbox_row(
    *,
    dedup_key: str,
    kind: str,
    title: str,
    body_md: str,
    ref: tuple[str | None, int | None],
    now: datetime,
    telegram: bool = True,
    telegram_at: datetime | None = None,
    quiet: bool = False,
) -> Notification:
    """A new alert for the tray and (``telegram``) the phone; ``quiet``: born read."""
    created = naive_utc(now)
    return Notification(
        dedup_key=dedup_key[:200],
        kind=kind,
        title=title,
        body_md=body_md,
        ref_type=ref[0],
        ref_id=ref[1],
        created_at=created,
        telegram_status="pending" if telegram else "skipped",
        telegram_attempts=0,
        telegram_next_at=naive_utc(telegram_at) if telegram_at else None,
        telegram_message_ids=[],
        read_at=created if quiet else None,
        tray_shown_at=created if quiet else None,
    )
