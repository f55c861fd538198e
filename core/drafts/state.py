"""The draft state machine: which status may follow which, and the audit row for every move.

    draft ─▶ pending_approval ─▶ approved ─▶ sending ─▶ sent
               │   ▲                │  ▲        │
               │   └── (edit) ◀─────┘  └────────┤ (reconcile: still in Outlook Drafts)
               ▼                                ▼
     rejected / superseded                    failed ─▶ approved (owner retries)

Principle 2 of docs/contracts.md lives here: ``transition`` refuses to produce ``approved``. The only
function that can is ``approve_transition``, and it demands an owner actor ("owner" from the
window, "cli" from the local command line, "telegram" from the paired owner's button). The
assistant's tool layer never gets a reference to it, and a property-based test drives every other
core entry point to show none of them reaches ``approved``.

A move to ``sent`` also settles a quote the draft carries (``core.quotes.book.quote_sent``: the
quote is ``sent``, the inquiry moves to ``follow_up``) and puts a reply to the customer on the
board at once (``core.inquiry.replied``: he no longer owes the next email) in the same
transaction, whichever path
sent it (a send, a reconciliation, the send journal); the stage change rides on the
``Transition`` (``follows``) and is published with it.

Every move writes a ``DraftEvent`` row (who, when, from, to, note) in the same transaction as the
status change, so the trail can never disagree with the draft.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from core.clock import Clock, naive_utc
from core.db.claims import move
from core.db.models import DRAFT_STATUSES, Draft, DraftEvent, Inquiry
from core.errors import DraftStateError
from core.events import DraftChanged, Event
from core.inquiry.replied import reply_sent
from core.quotes.book import quote_sent

# Actors allowed to approve: the owner's own hands, never the pipeline or the assistant.
APPROVERS = frozenset({"owner", "cli", "telegram"})

# Statuses a draft never leaves.
TERMINAL = frozenset({"sent", "rejected", "superseded"})

# Ordinary transitions (anything into ``approved`` is deliberately absent).
TRANSITIONS: dict[str, frozenset[str]] = {
    "draft": frozenset({"pending_approval", "rejected", "superseded", "failed"}),
    "pending_approval": frozenset({"rejected", "superseded"}),
    # an edit after approval demotes the draft: the owner approved other words
    "approved": frozenset({"pending_approval", "sending", "rejected", "superseded"}),
    # sending → approved only through reconciliation (the Outlook draft is still unsent)
    "sending": frozenset({"sent", "failed", "approved"}),
    "failed": frozenset({"pending_approval", "rejected", "superseded"}),
    "sent": frozenset(),
    "rejected": frozenset(),
    "superseded": frozenset(),
}
# Statuses from which the owner may approve.
APPROVABLE = frozenset({"pending_approval", "failed"})

# Chinese names for the owner (CLI, Telegram, tool summaries).
STATUS_ZH: dict[str, str] = {
    "draft": "草稿",
    "pending_approval": "待审批",
    "approved": "已批准（待发送）",
    "sending": "发送中",
    "sent": "已发送",
    "rejected": "已放弃",
    "failed": "发送失败",
    "superseded": "已被修改稿取代",
}

assert set(TRANSITIONS) == set(DRAFT_STATUSES)
assert not any("approved" in targets for src, targets in TRANSITIONS.items() if src != "sending")


@dataclass(frozen=True)
class Transition:
    """A committed-to-be status change; publish ``event()`` after the commit."""

    draft_id: int
    inquiry_id: int | None
    from_status: str | None
    to_status: str
    follows: tuple[Event, ...] = field(default=(), compare=False)  # what the move caused

    def event(self) -> DraftChanged:
        return DraftChanged(self.draft_id, self.inquiry_id, self.to_status)

    def events(self) -> list[Event]:
        """The draft's event, then what the move caused (a quote's stage change)."""
        return [self.event(), *self.follows]


def _record(
    session: Session, draft: Draft, to_status: str, *, actor: str, note: str, clock: Clock
) -> Transition:
    now = naive_utc(clock.now())
    from_status = draft.status
    # a conditional UPDATE, not a read-then-set: of two desks (or processes) moving the same
    # draft at once, exactly one wins (send once); the other is refused and changes nothing
    move(
        session,
        draft,
        "status",
        {"status": to_status, "updated_at": now},
        DraftEvent(
            draft_id=draft.id,
            from_status=from_status,
            to_status=to_status,
            actor=actor,
            at=now,
            note=note,
        ),
        refused=lambda current: DraftStateError(
            f"草稿 {draft.id} 刚被另一处改为「{STATUS_ZH.get(current, current)}」，本次未改变（未发送）"
        ),
    )
    follows: list[Event] = []
    if to_status == "sent":
        follows += _replied(session, draft, now)
        change = quote_sent(session, draft.id, clock)  # a quote: sent, the job follows up
        follows += [change.event()] if change is not None else []
    return Transition(draft.id, draft.inquiry_id, from_status, to_status, tuple(follows))


def _replied(session: Session, draft: Draft, now: datetime) -> list[Event]:
    """A reply to an inquiry's customer went out: the board shows it at once (who owes the
    next email, last contact), not at the next read of the Sent folder."""
    if draft.inquiry_id is None or draft.batch_id is not None:
        return []
    inquiry = session.get(Inquiry, draft.inquiry_id)
    if inquiry is None or not inquiry.customer_email:
        return []
    if inquiry.customer_email.lower() not in {a.lower() for a in draft.to_addrs or []}:
        return []  # a forward to the factory is not a reply to the customer
    return [reply_sent(inquiry, draft.sent_at or now)]


def record_created(session: Session, draft: Draft, *, actor: str, clock: Clock) -> None:
    """The first audit row of a new draft (from nothing to ``draft``). ``draft.id`` must exist."""
    session.add(
        DraftEvent(
            draft_id=draft.id,
            from_status=None,
            to_status=draft.status,
            actor=actor,
            at=naive_utc(clock.now()),
            note="created",
        )
    )


def transition(
    session: Session,
    draft: Draft,
    to_status: str,
    *,
    actor: str,
    clock: Clock,
    note: str = "",
    _reconcile: bool = False,
) -> Transition:
    """Move ``draft`` to ``to_status`` (never to ``approved`` except sending→approved when
    reconciliation proved the Outlook draft unsent). Raises DraftStateError otherwise."""
    if to_status not in DRAFT_STATUSES:
        raise DraftStateError(f"未知状态 {to_status!r} / unknown status {to_status!r}")
    if to_status == "approved" and not (_reconcile and draft.status == "sending"):
        raise DraftStateError(
            f"草稿 {draft.id} 只能由老板本人批准 / only the owner can approve draft {draft.id}"
        )
    allowed = TRANSITIONS.get(draft.status, frozenset())
    if to_status not in allowed:
        raise DraftStateError(
            f"草稿 {draft.id} 处于「{STATUS_ZH.get(draft.status, draft.status)}」，"
            f"不能变为「{STATUS_ZH.get(to_status, to_status)}」 / draft {draft.id} is "
            f"{draft.status} and cannot become {to_status}"
        )
    return _record(session, draft, to_status, actor=actor, note=note, clock=clock)


def approve_transition(
    session: Session, draft: Draft, *, actor: str, clock: Clock, note: str = ""
) -> Transition:
    """The single path into ``approved``: an owner actor on an approvable draft."""
    if actor not in APPROVERS:
        raise DraftStateError(
            f"只有老板本人可以批准草稿（调用者：{actor}） / only the owner can approve a draft "
            f"(caller: {actor})"
        )
    if draft.status not in APPROVABLE:
        raise DraftStateError(
            f"草稿 {draft.id} 处于「{STATUS_ZH.get(draft.status, draft.status)}」，不能批准 / "
            f"draft {draft.id} is {draft.status} and cannot be approved"
        )
    now = naive_utc(clock.now())
    draft.approved_by = actor
    draft.approved_at = now
    return _record(session, draft, "approved", actor=actor, note=note, clock=clock)
