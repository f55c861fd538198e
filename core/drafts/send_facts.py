"""The store made to agree with the send journal: a draft the journal says went out is ``sent``.

``core.db.send_journal`` keeps the facts; this module applies them to the database, which may
have been set back by ``repair`` (a backup from before the approval or the send). Two writers:

* ``settle_from_journal`` (``repair``, and each ``send_due`` round): every draft with a
  ``submitted`` line that the store does not show as ``sent`` becomes ``sent``, audited; a
  journalled send whose draft is not in the store at all is reported, never invented;
* ``force_status``: the one way a fact moves a draft past the ordinary state machine — only to
  ``sent`` (the journal or Sent Items proves it went out) or ``failed`` (it left Drafts without
  reaching Sent Items: never resent blindly). It can never produce ``approved``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from core.clock import Clock, naive_utc
from core.db.models import Draft
from core.db.send_journal import SENT, SendEntry, SendJournal, stamp
from core.drafts.state import Transition
from core.drafts.state import _record as record_move  # the audited move, past the rules

FACT_ACTOR = "system"
FACT_STATUSES = frozenset({"sent", "failed"})


@dataclass(frozen=True)
class SettledSend:
    """One journalled send and what the store now says about it."""

    draft_id: int
    recipients: tuple[str, ...]
    at: str
    was: str | None  # the status the store had (None: the draft is not in the store)

    def line_zh(self) -> str:
        to = "、".join(self.recipients) or "（收件人未记录）"
        when = self.at[:16].replace("T", " ")
        if self.was is None:
            return f"草稿 #{self.draft_id}（发给 {to}，{when} 已发出）不在恢复的数据库中，无法恢复"
        return f"草稿 #{self.draft_id}（发给 {to}）：发送记录显示 {when} 已发出，标为「已发送」"

    def line_en(self) -> str:
        to = ", ".join(self.recipients) or "(recipients not recorded)"
        when = self.at[:16].replace("T", " ")
        if self.was is None:
            return f"draft #{self.draft_id} (to {to}, sent {when}) is not in the restored database"
        return f"draft #{self.draft_id} (to {to}): sent at {when} per the send journal, marked sent"


@dataclass
class Settlement:
    """What ``settle_from_journal`` did: drafts marked sent, and sends with no draft to mark."""

    settled: list[SettledSend] = field(default_factory=list)
    missing: list[SettledSend] = field(default_factory=list)
    transitions: list[Transition] = field(default_factory=list)


def _entry_time(entry: SendEntry) -> datetime | None:
    try:
        return naive_utc(datetime.fromisoformat(entry.at))
    except ValueError:
        return None


def force_status(
    session: Session, draft: Draft, to_status: str, *, clock: Clock, note: str, **fields: object
) -> Transition:
    """Move ``draft`` to ``sent`` or ``failed`` because the world says so (audited)."""
    if to_status not in FACT_STATUSES:
        raise ValueError(f"a send fact cannot make a draft {to_status!r}")
    for key, value in fields.items():
        setattr(draft, key, value)
    return record_move(session, draft, to_status, actor=FACT_ACTOR, note=note, clock=clock)


def mark_sent(session: Session, draft: Draft, entry: SendEntry, *, clock: Clock) -> Transition:
    """``draft`` is ``sent``: its journal line (or Sent Items) says it went out."""
    return force_status(
        session,
        draft,
        "sent",
        clock=clock,
        note="发送记录显示此前已发出，未重复发送",
        sent_at=_entry_time(entry) or naive_utc(clock.now()),
        internet_message_id=entry.message_id or draft.internet_message_id,
        outlook_draft_id=entry.remote_id or draft.outlook_draft_id,
        error=None,
    )


def settle_from_journal(session: Session, journal: SendJournal, *, clock: Clock) -> Settlement:
    """Every journalled send shows as ``sent`` in the store (see the module docstring)."""
    result = Settlement()
    for (draft_id, created), verdict in journal.latest_by_draft().items():
        if verdict.state != SENT or verdict.entry is None:
            continue
        entry = verdict.entry
        draft = session.get(Draft, draft_id)
        if draft is not None and created is not None and stamp(draft.created_at) != created:
            draft = None  # the id was reused by another draft after a restore
        if draft is None:
            result.missing.append(SettledSend(draft_id, entry.recipients, entry.at, None))
            continue
        if draft.status == "sent":
            continue
        was = draft.status
        result.transitions.append(mark_sent(session, draft, entry, clock=clock))
        result.settled.append(SettledSend(draft_id, entry.recipients, entry.at, was))
    return result


__all__ = ["SettledSend", "Settlement", "force_status", "mark_sent", "settle_from_journal"]
