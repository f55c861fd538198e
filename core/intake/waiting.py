"""Mail waiting for the model: how many, and why, for the board's status line and the tray.

Why: with a slow or unreachable model, mails stay ``pending`` and are retried on the next round;
the board looked empty and said 就绪 (#45). The reason is read from the newest waiting mail's
``last_error`` (``core.intake.applying``: ``"<reason>: <detail>"``) and given as a key the front
ends put in the owner's words: ``slow`` (the model did not finish in time), ``unreachable``,
``format`` (its answers broke the schema), ``other``. Never the raw text.
"""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.db.models import Message

PENDING = "pending"


def reason_key(last_error: str | None) -> str:
    """The owner's kind of reason for one ``last_error``."""
    reason, _sep, detail = (last_error or "").partition(":")
    detail = detail.strip()
    if reason == "unavailable":
        return "slow" if detail == "timeout" else "unreachable"
    if reason == "schema":
        return "format"
    return "other"


def waiting_for_model(session: Session) -> tuple[int, str]:
    """(mails waiting for the model, the reason key of the newest one); (0, "") for none."""
    count = session.scalar(
        select(func.count(Message.id)).where(
            Message.disposition == PENDING, Message.attempts > 0, Message.direction == "in"
        )
    )
    if not count:
        return 0, ""
    newest = session.scalar(
        select(Message.last_error)
        .where(Message.disposition == PENDING, Message.attempts > 0)
        .order_by(Message.updated_at.desc(), Message.id.desc())
        .limit(1)
    )
    return int(count), reason_key(newest)
