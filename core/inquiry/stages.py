"""Stage transitions of an inquiry, each one audited.

Every stage change anywhere (pipeline, owner, agent, OneDrive) goes through ``change_stage`` so
the audit trail ``{from, to, at, reason, triggered_by}`` and the ``StageChanged`` event can never
be skipped. Reminder timeouts per stage come from docs/contracts.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import Clock, naive_utc
from core.db.claims import move
from core.db.models import ALL_STAGES, CLOSED_STAGES, STAGES, TRIGGERS, Inquiry, StageEvent
from core.db.owed import CATEGORIES, DRIVE_MOVE, owe
from core.db.store import Store
from core.errors import InquiryBridgeError, NotFound
from core.events import EventBus, StageChanged
from core.inquiry.stage_policy import STAGE_LIMIT_DAYS, clock_start, stage_time

# The limits and the counting live in the one stage policy; this name stays for its readers.
STAGE_TIMEOUT_DAYS = STAGE_LIMIT_DAYS

STAGE_NAMES_ZH: dict[str, str] = {
    "inquiry": "询盘",
    "measure": "上门量尺",
    "quoting": "报价中",
    "follow_up": "跟进",
    "ordered": "已下单",
    "production": "生产中",
    "install": "安装",
    "done": "完成",
    "lost": "流失",
}


class StageError(InquiryBridgeError):
    code = "bad_input"


@dataclass(frozen=True)
class StageChange:
    inquiry_id: int
    from_stage: str | None
    to_stage: str
    triggered_by: str
    reason: str

    def event(self) -> StageChanged:
        return StageChanged(
            self.inquiry_id, self.from_stage, self.to_stage, self.triggered_by, self.reason
        )


def next_stage(stage: str) -> str | None:
    if stage not in STAGES or stage == STAGES[-1]:
        return None
    return STAGES[STAGES.index(stage) + 1]


def change_stage(
    session: Session,
    inquiry: Inquiry,
    to_stage: str,
    *,
    reason: str,
    triggered_by: str,
    clock: Clock,
) -> StageChange | None:
    """Move ``inquiry`` to ``to_stage`` and write the audit entry. Returns None if unchanged.

    The caller commits and then publishes ``change.event()`` (events follow committed data).
    A change not made in OneDrive also queues the folder move it owes (``core.db.owed``) in
    the same transaction: the next process that talks to OneDrive moves the folder.
    """
    if to_stage not in ALL_STAGES:
        raise StageError(f"unknown stage {to_stage!r}")
    if triggered_by not in TRIGGERS:
        raise StageError(f"unknown trigger {triggered_by!r}")
    if to_stage == "lost" and inquiry.stage in CLOSED_STAGES:
        raise StageError(f"inquiry {inquiry.id} is already {inquiry.stage}")
    if inquiry.stage == to_stage:
        return None
    now = naive_utc(clock.now())  # an aware clock in any zone (a test's +11:00) stores UTC
    from_stage = inquiry.stage
    moved = {"stage": to_stage, "stage_changed_at": now, "updated_at": now}
    # conditional: a desk that read the old stage cannot overwrite a move made meanwhile
    move(
        session,
        inquiry,
        "stage",
        moved,
        StageEvent(
            inquiry_id=inquiry.id,
            from_stage=from_stage,
            to_stage=to_stage,
            at=now,
            reason=reason,
            triggered_by=triggered_by,
        ),
        refused=lambda current: StageError(
            f"询盘 {inquiry.id} 的阶段刚被另一处改为 {current}，本次未改变"
        ),
    )
    why = f"{from_stage} → {to_stage}: {reason}"
    if triggered_by != "onedrive":  # the folder follows, even if no watcher runs right now
        owe(session, DRIVE_MOVE, inquiry.id, why, now)
    owe(session, CATEGORIES, inquiry.id, why, now)  # Outlook shows the new stage too
    return StageChange(inquiry.id, from_stage, to_stage, triggered_by, reason)


def record_initial_stage(
    session: Session,
    inquiry: Inquiry,
    *,
    reason: str,
    triggered_by: str,
    clock: Clock,
    first_received_at: datetime | None = None,
) -> StageChange:
    """The first audit entry of a new inquiry (from None to its starting stage).

    Its stage clock starts at ``first_received_at`` — the first email's received time — by the
    stage policy, so a first sync of old mail does not restart every job's clock at import.
    """
    now = clock_start(first_received_at, clock.now())
    inquiry.stage_changed_at = now
    session.add(
        StageEvent(
            inquiry_id=inquiry.id,
            from_stage=None,
            to_stage=inquiry.stage,
            at=now,
            reason=reason,
            triggered_by=triggered_by,
        )
    )
    return StageChange(inquiry.id, None, inquiry.stage, triggered_by, reason)


def stage_history(session: Session, inquiry_id: int) -> list[dict[str, Any]]:
    """The audit trail of an inquiry's stages, oldest first, read from its ``StageEvent`` rows.

    The rows are the one record of stage history (an inquiry's ``context_data`` once kept a
    copy; two copies could disagree). Entries: ``from``, ``to``, ``at`` (UTC, ``Z``), ``reason``,
    ``triggered_by``.
    """
    events = session.scalars(
        select(StageEvent)
        .where(StageEvent.inquiry_id == inquiry_id)
        .order_by(StageEvent.at, StageEvent.id)
    )
    return [
        {
            "from": e.from_stage,
            "to": e.to_stage,
            "at": e.at.isoformat() + "Z",
            "reason": e.reason,
            "triggered_by": e.triggered_by,
        }
        for e in events
    ]


def is_overdue(inquiry: Inquiry, now: datetime) -> bool:
    return stage_time(inquiry.stage, inquiry.stage_changed_at, now).overdue


class StageService:
    """The one entry point the desktop, agent and OneDrive watcher use to move a stage."""

    def __init__(self, store: Store, bus: EventBus, clock: Clock) -> None:
        self.store = store
        self.bus = bus
        self.clock = clock

    def advance(
        self, inquiry_id: int, to_stage: str, *, reason: str, triggered_by: str
    ) -> StageChange | None:
        change = self.store.write(self._mover(inquiry_id, to_stage, reason, triggered_by))
        if change is not None:
            self.bus.publish(change.event())
        return change

    async def advance_async(
        self, inquiry_id: int, to_stage: str, *, reason: str, triggered_by: str
    ) -> StageChange | None:
        """``advance`` on the store's writer thread, awaited from the event loop."""
        change = await self.store.run(self._mover(inquiry_id, to_stage, reason, triggered_by))
        if change is not None:
            self.bus.publish(change.event())
        return change

    def _mover(
        self, inquiry_id: int, to_stage: str, reason: str, triggered_by: str
    ) -> Callable[[Session], StageChange | None]:
        def _do(session: Session) -> StageChange | None:
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is None:
                raise NotFound(f"询盘 #{inquiry_id} / inquiry #{inquiry_id}")
            return change_stage(
                session,
                inquiry,
                to_stage,
                reason=reason,
                triggered_by=triggered_by,
                clock=self.clock,
            )

        return _do

    def mark_lost(self, inquiry_id: int, *, reason: str, triggered_by: str) -> StageChange | None:
        return self.advance(inquiry_id, "lost", reason=reason, triggered_by=triggered_by)
