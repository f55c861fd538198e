"""The Monday-morning report: last week beside the week before, in the owner's words.

Inquiries that came, how fast he first answered them, stages moved (measures booked, quotes
sent, orders won), what is overdue now, what the AI cost and how often he had to correct it —
every figure counted from the store. The daily rhythm raises it once a week (tray + Telegram);
its dedup key is the week it reports on, so a restart or a second process cannot raise it twice.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, time, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import to_sydney
from core.db.models import StageEvent
from core.stats.periods import Period, week_of

REPORT_AT = time(8, 0)  # Monday, Sydney


@dataclass
class WeekFigures:
    period: str
    inquiries: int = 0
    replied: int = 0
    first_reply_hours_median: float | None = None
    measures_booked: int = 0
    quotes_sent: int = 0
    orders_won: int = 0
    lost: int = 0
    ai_calls: int = 0
    ai_cost_usd: float = 0.0
    classes_changed: int = 0
    drafts_rewritten: int = 0
    drafts_approved: int = 0

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def _came_in(session: Session, period: Period) -> list[int]:
    """Inquiries whose first email arrived in ``period`` (their first stage entry starts at it,
    so a first sync of old mail counts each in its own week, not in the week of the import)."""
    return list(
        session.scalars(
            select(StageEvent.inquiry_id).where(
                StageEvent.from_stage.is_(None),
                StageEvent.at >= period.start,
                StageEvent.at < period.end,
            )
        )
    )


def week_figures(session: Session, period: Period) -> WeekFigures:
    # the figures' modules load when a report is due (Mondays), not when the daily rhythm starts
    import statistics

    from core.stats.corrections import accuracy
    from core.stats.costs import cost_report
    from core.stats.trade import first_reply_hours

    figures = WeekFigures(period.label)
    came = _came_in(session, period)
    figures.inquiries = len(came)
    replies = first_reply_hours(session)
    hours = [replies[i] for i in came if i in replies]
    figures.replied = len(hours)
    figures.first_reply_hours_median = round(statistics.median(hours), 1) if hours else None
    moves = session.scalars(
        select(StageEvent.to_stage).where(
            StageEvent.from_stage.is_not(None),
            StageEvent.at >= period.start,
            StageEvent.at < period.end,
        )
    )
    for stage in moves:
        figures.measures_booked += stage == "measure"
        figures.quotes_sent += stage == "follow_up"
        figures.orders_won += stage == "ordered"
        figures.lost += stage == "lost"
    costs = cost_report(session, [period])
    figures.ai_calls, figures.ai_cost_usd = costs.total.calls, round(costs.total.cost_usd, 4)
    [week] = accuracy(session, [period])
    figures.classes_changed = week.classes_changed
    figures.drafts_rewritten, figures.drafts_approved = week.drafts_rewritten, week.drafts_approved
    return figures


def report_weeks(now: datetime) -> tuple[Period, Period] | None:
    """(the week a report at ``now`` covers — the one that ended last Sunday — and the week
    before it), once this week's Monday 08:00 has passed; None before it."""
    local = to_sydney(now)
    monday = local.date() - timedelta(days=local.weekday())
    if local.weekday() == 0 and local.time() < REPORT_AT:
        return None
    return week_of(monday - timedelta(days=7)), week_of(monday - timedelta(days=14))


def _pair(label: str, this: object, before: object, unit: str = "") -> str:
    return f"- {label}：**{this}{unit}**（前一周 {before}{unit}）"


def render_weekly(last: WeekFigures, before: WeekFigures, overdue_now: int) -> tuple[str, str]:
    """Title and Markdown body (Chinese) of the weekly report."""
    title = f"每周报告 · {last.period}"

    def hours(value: float | None) -> str:
        return "—" if value is None else f"{value:g} 小时"

    lines = [
        f"**{title}**（上周与前一周对比）",
        "",
        _pair("新询盘", last.inquiries, before.inquiries, " 个"),
        f"- 首次回复（中位数）：**{hours(last.first_reply_hours_median)}**"
        f"（前一周 {hours(before.first_reply_hours_median)}），已回复 {last.replied} 个",
        _pair("预约上门量尺", last.measures_booked, before.measures_booked, " 个"),
        _pair("已报价", last.quotes_sent, before.quotes_sent, " 个"),
        _pair("已下单", last.orders_won, before.orders_won, " 个"),
        _pair("流失", last.lost, before.lost, " 个"),
        f"- 现在超过阶段期限：**{overdue_now} 个**",
        f"- AI 费用：**US${last.ai_cost_usd:.2f}**（{last.ai_calls} 次调用；前一周 "
        f"US${before.ai_cost_usd:.2f}）",
        f"- 您修改的分类：**{last.classes_changed}**（前一周 {before.classes_changed}）；"
        f"批准前改写的草稿：**{last.drafts_rewritten}/{last.drafts_approved}**"
        f"（前一周 {before.drafts_rewritten}/{before.drafts_approved}）",
    ]
    return title, "\n".join(lines)


def weekly_report(session: Session, now: datetime, overdue_now: int) -> tuple[str, str, str] | None:
    """(dedup key, title, body) of the report due at ``now``; None before this week's Monday
    08:00, or when there is nothing to report (a data folder younger than the week)."""
    weeks = report_weeks(now)
    if weeks is None:
        return None
    week, before = weeks
    last, earlier = week_figures(session, week), week_figures(session, before)
    if not (last.inquiries or last.ai_calls or earlier.inquiries or overdue_now):
        return None
    title, body = render_weekly(last, earlier, overdue_now)
    return f"weekly:{week.label}", title, body
