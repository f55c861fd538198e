"""The words of a stage reminder (outbox kind ``overdue``: one inquiry, or a digest of many).

Why its own module: the reminder is worded twice, when it is raised (``NotificationCenter``) and
again when the Telegram mirror sends it (``core.notify.mirror``): one raised at 23:59 waits out
the quiet hours, and at 07:00 the board counts one working day more, so the phone must say what
the board says then. A reminder for a stage entry the job has since left is not sent at all; a
digest lists, of the jobs it was raised for, those still overdue when it goes out.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from core.db.app_state import get_state, put_state
from core.db.models import Inquiry, Notification
from core.inquiry.stage_policy import days_in_stage, limit_days
from core.inquiry.stages import STAGE_NAMES_ZH
from core.notify.inquiry_alert import customer_label
from core.rhythm.reminders import STAGE_ACTIONS_ZH, Reminder, digest_markdown, due_reminders
from core.text.render import md_escape

DIGEST_IDS = "notify.overdue_digest."  # + the digest's notification id: its inquiry ids


def overdue_key(inquiry: Inquiry) -> str:
    """The dedup key of a reminder for the inquiry's current stage entry (a round may follow)."""
    since = inquiry.stage_changed_at
    since_key = since.strftime("%Y%m%d%H%M%S") if since else "?"
    return f"overdue:{inquiry.id}:{inquiry.stage}:{since_key}"


def overdue_message(inquiry: Inquiry, days: int) -> tuple[str, str]:
    """Title and Markdown body of the reminder that the inquiry sat ``days`` working days in its
    stage (with the stage's limit, the suggested action, suburb and phone)."""
    stage_zh = STAGE_NAMES_ZH.get(inquiry.stage, inquiry.stage)
    who = customer_label(inquiry)
    limit = limit_days(inquiry.stage)
    action = STAGE_ACTIONS_ZH.get(inquiry.stage, "请跟进")
    title = f"跟进提醒：{who} 在「{stage_zh}」已 {days} 个工作日"
    lines = [
        f"**{md_escape(who)}**（询盘 #{inquiry.id}）在「{stage_zh}」阶段已停留 "
        f"**{days} 个工作日**" + (f"（期限 {limit} 个工作日）" if limit else "") + "。",
        f"建议：{action}",
    ]
    if inquiry.suburb:
        lines.append(f"地区：{md_escape(inquiry.suburb)}")
    if inquiry.customer_phone:
        lines.append(f"电话：{inquiry.customer_phone}")
    return title, "\n".join(lines)


def is_stage_reminder(row: Notification) -> bool:
    """One inquiry's reminder (not the digest of several, which has no inquiry)."""
    return row.kind == "overdue" and row.ref_type == "inquiry" and row.ref_id is not None


def overdue_message_now(
    session: Session, row: Notification, now: datetime
) -> tuple[str, str] | None:
    """A stage reminder's title and body with the working days counted at ``now``; None when
    the job is gone or has left the stage entry the reminder is about (moved on, or lost)."""
    inquiry = session.get(Inquiry, row.ref_id) if is_stage_reminder(row) else None
    if inquiry is None or not row.dedup_key.startswith(overdue_key(inquiry)):
        return None
    return overdue_message(inquiry, days_in_stage(inquiry.stage_changed_at, now))


def is_digest(row: Notification) -> bool:
    """The one alert that stands for many overdue jobs (no single inquiry)."""
    return row.kind == "overdue" and row.ref_type is None


def remember_digest(
    session: Session, notification_id: int, reminders: list[Reminder], now: datetime
) -> None:
    """Keep which jobs a digest was raised for, so it can be counted again when it goes out."""
    ids = [reminder.inquiry_id for reminder in reminders]
    put_state(session, f"{DIGEST_IDS}{notification_id}", ids, now)


def digest_message_now(
    session: Session, row: Notification, now: datetime
) -> tuple[str, str] | None:
    """A digest's title and body counted at ``now`` over the jobs it was raised for that are
    still overdue (not moved on, not snoozed); None when none is. A digest raised before its
    jobs were kept is sent as it was worded."""
    ids = get_state(session, f"{DIGEST_IDS}{row.id}")
    if not isinstance(ids, list):
        return row.title, row.body_md
    wanted = {i for i in ids if isinstance(i, int)}
    still = [r for r in due_reminders(session, now) if r.inquiry_id in wanted]
    return digest_markdown(still) if still else None
