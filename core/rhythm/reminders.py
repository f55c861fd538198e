"""Stage reminders: which open jobs sat too long in their stage, counted in Sydney working days.

A reminder belongs to one *stage entry* (the inquiry's ``stage_changed_at``): it is announced once
for that entry, and never again unless the owner snoozes it — a snooze hides it until the chosen
working day, after which it is due (and announced) once more. Bookkeeping lives in ``app_state``
(``reminder.snooze.<id>``, ``reminder.announced.<id>``), keyed by the stage entry, so moving the
job to another stage starts afresh without any clean-up.

After a first sync, fifty old jobs can be overdue at once: a round that finds more than
``DIGEST_AT`` new reminders raises one digest instead of fifty alerts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, time
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import SYDNEY, Clock, to_sydney, utc
from core.db.app_state import get_state, put_state
from core.db.models import CLOSED_STAGES, Inquiry
from core.events import EventBus, StageOverdue
from core.inquiry.stage_policy import STAGE_LIMIT_DAYS, stage_time
from core.inquiry.stages import STAGE_NAMES_ZH
from core.text.render import md_escape
from core.workdays import add_working_days

if TYPE_CHECKING:
    from core.db.store import Store

DIGEST_AT = 5
SNOOZE_CHOICES = (1, 3, 7)

# What the seed system suggested for each stage when a job went overdue.
STAGE_ACTIONS_ZH: dict[str, str] = {
    "inquiry": "尽快回复客户",
    "measure": "安排上门量尺",
    "quoting": "跟进报价进度",
    "follow_up": "建议重新联系客户",
    "ordered": "确认工厂已收到订单",
    "production": "检查生产进度",
    "install": "安排安装时间",
}


@dataclass(frozen=True)
class Reminder:
    inquiry_id: int
    stage: str
    stage_zh: str
    days_in_stage: int  # working days
    limit_days: int
    since: str  # the stage entry, ISO 8601 UTC
    customer_name: str | None
    suburb: str | None
    action_zh: str

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def _snooze_key(inquiry_id: int) -> str:
    return f"reminder.snooze.{inquiry_id}"


def _announced_key(inquiry_id: int) -> str:
    return f"reminder.announced.{inquiry_id}"


def _snoozed_until(session: Session, inquiry_id: int, since: str) -> datetime | None:
    value = get_state(session, _snooze_key(inquiry_id))
    if not isinstance(value, dict) or value.get("since") != since:
        return None  # no snooze, or one for an earlier stage entry
    try:
        return utc(datetime.fromisoformat(str(value["until"])))
    except (KeyError, ValueError):
        return None


def _reminder(inquiry: Inquiry, now: datetime) -> Reminder | None:
    if inquiry.stage in CLOSED_STAGES or inquiry.stage_changed_at is None:
        return None
    timed = stage_time(inquiry.stage, inquiry.stage_changed_at, now)
    if not timed.overdue or timed.limit_days is None:
        return None
    return Reminder(
        inquiry_id=inquiry.id,
        stage=inquiry.stage,
        stage_zh=STAGE_NAMES_ZH.get(inquiry.stage, inquiry.stage),
        days_in_stage=timed.days_in_stage,
        limit_days=timed.limit_days,
        since=utc(inquiry.stage_changed_at).isoformat(),
        customer_name=inquiry.customer_name,
        suburb=inquiry.suburb,
        action_zh=STAGE_ACTIONS_ZH.get(inquiry.stage, "请跟进"),
    )


def due_reminders(session: Session, now: datetime) -> list[Reminder]:
    """Every open inquiry over its stage's limit and not snoozed, the longest-waiting first."""
    rows = session.scalars(
        select(Inquiry)
        .where(Inquiry.stage.in_(list(STAGE_LIMIT_DAYS)))
        .order_by(Inquiry.stage_changed_at, Inquiry.id)
    )
    due = []
    for inquiry in rows:
        reminder = _reminder(inquiry, now)
        if reminder is None:
            continue
        until = _snoozed_until(session, inquiry.id, reminder.since)
        if until is not None and now < until:
            continue
        due.append(reminder)
    return due


def snooze_until(now: datetime, working_days: int) -> datetime:
    """07:00 Sydney on the ``working_days``-th working day after today."""
    day = add_working_days(to_sydney(now).date(), working_days)
    return datetime.combine(day, time(7, 0), tzinfo=SYDNEY)


class ReminderService:
    """Lists, announces and snoozes reminders for one data folder.

    ``announce`` publishes ``StageOverdue`` for each new reminder (the outbox turns it into one
    alert, dedup per stage entry and snooze round), or hands a digest to ``raise_digest``.
    """

    def __init__(
        self,
        store: Store,
        bus: EventBus,
        clock: Clock,
        raise_digest: Callable[[list[Reminder]], object] | None = None,
    ) -> None:
        self.store = store
        self.bus = bus
        self.clock = clock
        self.raise_digest = raise_digest

    async def due(self) -> list[Reminder]:
        now = self.clock.now()
        return await self.store.read(lambda s: due_reminders(s, now))

    async def snooze(self, inquiry_id: int, working_days: int) -> datetime:
        """Hide the inquiry's current reminder until ``working_days`` working days from now."""
        if working_days < 1:
            raise ValueError("snooze needs at least one working day")
        now = self.clock.now()
        until = snooze_until(now, working_days)

        def do(session: Session) -> None:
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is None or inquiry.stage_changed_at is None:
                raise LookupError(inquiry_id)
            since = utc(inquiry.stage_changed_at).isoformat()
            value = {"since": since, "until": utc(until).isoformat()}
            put_state(session, _snooze_key(inquiry_id), value, now)

        await self.store.run(do)
        return until

    async def announce(self) -> list[Reminder]:
        """Announce every due reminder not yet announced for its stage entry and snooze round."""
        now = self.clock.now()

        def pick(session: Session) -> list[tuple[Reminder, str]]:
            fresh = []
            for reminder in due_reminders(session, now):
                until = _snoozed_until(session, reminder.inquiry_id, reminder.since)
                round_key = reminder.since + (f"|{until.isoformat()}" if until else "")
                if get_state(session, _announced_key(reminder.inquiry_id)) != round_key:
                    put_state(session, _announced_key(reminder.inquiry_id), round_key, now)
                    fresh.append((reminder, round_key))
            return fresh

        fresh = await self.store.run(pick)
        reminders = [reminder for reminder, _ in fresh]
        if len(fresh) > DIGEST_AT and self.raise_digest is not None:
            self.raise_digest(reminders)
            return reminders
        for reminder, round_key in fresh:
            self.bus.publish(
                StageOverdue(
                    reminder.inquiry_id,
                    reminder.stage,
                    reminder.days_in_stage,
                    round=round_key.partition("|")[2],
                )
            )
        return reminders


def digest_markdown(reminders: list[Reminder]) -> tuple[str, str]:
    """Title and Markdown body of the one alert that stands for many overdue jobs."""
    title = f"跟进提醒：{len(reminders)} 个询盘超过阶段期限"
    lines = [f"有 **{len(reminders)}** 个询盘在当前阶段停留超过期限（按悉尼工作日计）："]
    for reminder in reminders[:30]:
        who = md_escape(reminder.customer_name or f"询盘 #{reminder.inquiry_id}")  # inert
        lines.append(
            f"- {who}（#{reminder.inquiry_id}）「{reminder.stage_zh}」"
            f"{reminder.days_in_stage}/{reminder.limit_days} 个工作日 — {reminder.action_zh}"
        )
    if len(reminders) > 30:
        lines.append(f"- ……另有 {len(reminders) - 30} 个，请在电脑上查看看板")
    return title, "\n".join(lines)
