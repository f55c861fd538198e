"""The day at a glance: today's numbers, what is waiting on the owner, the pipeline's counts.

"Today" is the Sydney day of the injected clock (``services.clock``), never the machine's. The
numbers reuse the definitions the rest of the app shows: overdue is ``core.rhythm.reminders``'
working-day rule (what the reminders and the briefing say), waiting drafts are
``pending_approval`` ones, owing a reply is the board's ``owes_reply``.
"""

from __future__ import annotations

import json
from datetime import datetime, time, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.agent.tools.args import as_json, iso_local, obj
from core.agent.tools.base import Tool, ToolContext
from core.clock import SYDNEY, to_sydney, utc
from core.db.models import CLOSED_STAGES, AppState, Draft, Inquiry, Memory, Message
from core.inquiry.board import BoardQuery, stage_counts
from core.rhythm.reminders import due_reminders

LIST_MOST = 20  # items per list in pending_items (totals are always given)


def _day_bounds(now: datetime) -> tuple[datetime, datetime, str]:
    """Today's Sydney day as naive UTC bounds (how the store keeps times), and its date."""
    local = to_sydney(now).date()
    start = utc(datetime.combine(local, time.min, SYDNEY)).replace(tzinfo=None)
    return start, start + timedelta(days=1), local.isoformat()


def _today(session: Session, now: datetime) -> dict[str, Any]:
    start, end, day = _day_bounds(now)
    new = session.scalar(
        select(func.count(Inquiry.id)).where(
            Inquiry.created_at >= start, Inquiry.created_at < end, Inquiry.classification != "C"
        )
    )
    replied_mail = set(
        session.scalars(
            select(Message.inquiry_id).where(
                Message.direction == "out",
                Message.received_at >= start,
                Message.received_at < end,
                Message.inquiry_id.is_not(None),
            )
        )
    )
    replied_drafts = set(
        session.scalars(
            select(Draft.inquiry_id).where(
                Draft.status == "sent", Draft.sent_at >= start, Draft.sent_at < end
            )
        )
    )
    waiting = session.scalar(select(func.count(Draft.id)).where(Draft.status == "pending_approval"))
    owing = session.scalar(
        select(func.count(Inquiry.id)).where(
            Inquiry.owes_reply == "us",
            Inquiry.stage.not_in(CLOSED_STAGES),
            Inquiry.classification != "C",
        )
    )
    return {
        "date": day,
        "new_inquiries": int(new or 0),
        "replied_inquiries": len((replied_mail | replied_drafts) - {None}),
        "drafts_waiting_for_approval": int(waiting or 0),
        "overdue": len(due_reminders(session, now)),
        "waiting_for_our_reply": int(owing or 0),
    }


async def today_numbers(ctx: ToolContext, args: dict[str, Any]) -> str:
    now = ctx.services.clock.now()
    numbers = await ctx.services.store.read(lambda s: _today(s, now))
    return as_json(
        f"TODAY {numbers['date']} (Sydney): {numbers['new_inquiries']} new, "
        f"{numbers['replied_inquiries']} replied, {numbers['drafts_waiting_for_approval']} "
        f"drafts waiting for approval (NOT sent), {numbers['overdue']} overdue",
        numbers,
    )


def _proposals(session: Session) -> list[dict[str, Any]]:
    """Measuring times proposed and not yet confirmed into Outlook."""
    rows = session.scalars(select(AppState).where(AppState.key.like("appointment.proposal.%")))
    out = []
    for row in rows:
        value = row.value if isinstance(row.value, dict) else {}
        inquiry_id = value.get("inquiry_id")
        done = session.get(AppState, f"appointment.event.{inquiry_id}")
        if done is not None and (done.value or {}).get("start") == value.get("start"):
            continue
        out.append({"inquiry_id": inquiry_id, "start": value.get("start"), "status": "proposed"})
    return out


def _pending(session: Session, now: datetime) -> dict[str, Any]:
    drafts = session.scalars(
        select(Draft).where(Draft.status == "pending_approval").order_by(Draft.id)
    ).all()
    owing = session.scalars(
        select(Inquiry)
        .where(
            Inquiry.owes_reply == "us",
            Inquiry.stage.not_in(CLOSED_STAGES),
            Inquiry.classification != "C",
        )
        .order_by(Inquiry.last_inbound_at.asc().nulls_last(), Inquiry.id)
    ).all()
    overdue = due_reminders(session, now)
    memories = session.scalars(
        select(Memory).where(Memory.status == "proposed").order_by(Memory.id)
    ).all()
    appointments = _proposals(session)
    return {
        "drafts_waiting_for_approval": {
            "total": len(drafts),
            "items": [
                {
                    "draft_id": d.id,
                    "inquiry_id": d.inquiry_id,
                    "to": d.to_addrs,
                    "subject": d.subject,
                    "status": "pending_approval (NOT sent)",
                }
                for d in drafts[:LIST_MOST]
            ],
        },
        "customers_waiting_for_our_reply": {
            "total": len(owing),
            "items": [
                {
                    "inquiry_id": i.id,
                    "customer": i.customer_name,
                    "stage": i.stage,
                    "since": iso_local(i.last_inbound_at),
                }
                for i in owing[:LIST_MOST]
            ],
        },
        "overdue": {"total": len(overdue), "items": [r.as_json() for r in overdue[:LIST_MOST]]},
        "appointments_to_confirm": {"total": len(appointments), "items": appointments},
        "memories_to_confirm": {
            "total": len(memories),
            "items": [{"memory_id": m.id, "kind": m.kind, "text": m.text} for m in memories],
        },
    }


async def pending_items(ctx: ToolContext, args: dict[str, Any]) -> str:
    now = ctx.services.clock.now()
    items = await ctx.services.store.read(lambda s: _pending(s, now))
    totals = ", ".join(f"{k}={v['total']}" for k, v in items.items())
    return as_json(f"PENDING: {totals}", items)


async def pipeline_summary(ctx: ToolContext, args: dict[str, Any]) -> str:
    now = ctx.services.clock.now()
    counts = await ctx.services.store.read(lambda s: stage_counts(s, BoardQuery(), now))
    pending = await ctx.services.store.read(
        lambda s: s.query(Draft).filter(Draft.status == "pending_approval").count()
    )
    return json.dumps({"per_stage": counts, "drafts_pending_approval": pending}, ensure_ascii=False)


TOOLS = (
    Tool(
        "today_numbers",
        "Today's numbers (Sydney day): new inquiries, inquiries replied to, drafts waiting for "
        "approval, overdue jobs, customers waiting for our reply.",
        obj({}, []),
        today_numbers,
        "正在统计今天的数字…",
        "Counting today's numbers…",
    ),
    Tool(
        "pending_items",
        "Everything waiting on the owner: drafts to approve, customers waiting for a reply, "
        "overdue jobs, measuring times and memories to confirm.",
        obj({}, []),
        pending_items,
        "正在整理待办…",
        "Gathering what is waiting…",
        reads_customer_content=True,
    ),
    Tool(
        "pipeline_summary",
        "How many inquiries are in each stage and how many drafts await approval.",
        obj({}, []),
        pipeline_summary,
        "正在统计各阶段…",
        "Counting the pipeline…",
    ),
)
