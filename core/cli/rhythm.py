"""The daily rhythm, headless: ``reminders``, ``snooze`` and ``briefing``.

``reminders`` and ``briefing`` only read (a check can run them on any folder without changing
it); ``--announce`` puts what is due in the notification outbox, which the tray and
``telegram --once`` deliver: each reminder once per stage entry, the briefing once an evening at
``schedule.briefing_time``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from core.app import App
from core.clock import SYDNEY, clock_from_env, to_sydney
from core.errors import BadInput, NotFound
from core.rhythm.reminders import SNOOZE_CHOICES

if TYPE_CHECKING:
    from core.rhythm.reminders import Reminder

if TYPE_CHECKING:
    from core.rhythm.appointments import Confirmed


def _line(reminder: Reminder) -> str:
    who = reminder.customer_name or "?"
    return (
        f"#{reminder.inquiry_id}  {who}  「{reminder.stage_zh}」 "
        f"{reminder.days_in_stage}/{reminder.limit_days} 个工作日 — {reminder.action_zh}"
    )


def cmd_reminders(args: argparse.Namespace, app: App) -> int:
    reminders = asyncio.run(app.rhythm.due_reminders(announce=bool(args.announce)))
    if args.json:
        json.dump([r.as_json() for r in reminders], sys.stdout, ensure_ascii=False, indent=2)
        print()
    elif not reminders:
        print("没有超期的询盘 / nothing overdue")
    else:
        for reminder in reminders:
            print(_line(reminder))
    return 0


def cmd_snooze(args: argparse.Namespace, app: App) -> int:
    try:
        until = asyncio.run(app.rhythm.snooze_reminder(args.inquiry_id, args.days))
    except LookupError:
        raise NotFound(f"询盘 #{args.inquiry_id} / inquiry #{args.inquiry_id}") from None
    stamp = to_sydney(until).strftime("%Y-%m-%d %H:%M")
    print(f"已推迟提醒到 {stamp}（悉尼时间）/ snoozed until {stamp} Sydney time")
    return 0


def cmd_briefing(args: argparse.Namespace, app: App) -> int:
    if args.announce:
        raised = asyncio.run(app.rhythm.announce_briefing())
        at = app.settings.text("schedule.briefing_time")
        print(
            "已生成今晚的简报 / briefing raised"
            if raised
            else f"暂不发送（每晚 {at} 一次）/ not due or already sent (once an evening at {at})"
        )
        return 0
    briefing = asyncio.run(app.rhythm.briefing_now())
    if args.json:
        json.dump(briefing.as_json(), sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        from core.rhythm.briefing_text import render_markdown  # phone numbers: only here

        print(render_markdown(briefing)[1])
    return 0


def example_time(now: datetime) -> str:
    """An example for ``--at``: tomorrow 10:00 in Sydney by the injected clock, so the example
    is never a day that is already over (a fixed "2026-12-03" aged into the past)."""
    return (to_sydney(now) + timedelta(days=1)).strftime("%Y-%m-%d 10:00")


def _when(text: str, now: datetime) -> datetime:
    try:
        moment = datetime.fromisoformat(text.strip().replace(" ", "T", 1))
    except ValueError:
        example = example_time(now)
        raise BadInput(
            f"时间格式应为「年-月-日 时:分」，例如 {example} / expected 'YYYY-MM-DD HH:MM', "
            f"for example {example}: {text!r}"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=SYDNEY)


def cmd_appointment(args: argparse.Namespace, app: App) -> int:
    async def run() -> str:
        async with app.rhythm.appointments_once() as appointments:
            if args.at or args.free:
                proposal = await (
                    appointments.propose(
                        args.inquiry_id, _when(args.at, app.clock.now()), args.minutes
                    )
                    if args.at
                    else appointments.propose_free(args.inquiry_id, args.minutes)
                )
                times = "、".join(t.replace("T", " ")[:16] for t in proposal.times)
                return (
                    f"建议上门时间：{times}（{proposal.minutes} 分钟）"
                    f" · {proposal.location or '地址未知'}\n"
                    f"确认后才会预约并写入日历：inquiry-bridge appointment "
                    f"{args.inquiry_id} --confirm [--at 时间] / proposed; --confirm to book"
                )
            done = await appointments.confirm(args.inquiry_id, args.choose)
        return _confirmed_text(done)

    print(asyncio.run(run()))
    return 0


def _confirmed_text(done: Confirmed) -> str:
    stamp = done.proposal.start.replace("T", " ")[:16]
    if done.already:
        return f"已约好（{stamp}），未重复预约 / already booked"
    where = "已在 Outlook 日历创建上门量尺" if done.event_id else "已在询盘桥的日历约好上门量尺"
    moved = "，阶段已改为「上门量尺」" if done.stage_moved else ""
    lines = [f"{where}：{stamp}{moved} / visit booked"]
    if done.draft_id is not None:
        lines.append(f"给客户的确认邮件草稿 #{done.draft_id} 等您批准后才会发送")
    elif done.draft_note:
        lines.append(f"未起草确认邮件：{done.draft_note}")
    return "\n".join(lines)


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    reminders = sub.add_parser(
        "reminders", parents=[common], help="jobs over their stage's limit (working days)"
    )
    reminders.add_argument("--json", action="store_true", help="as a JSON array")
    reminders.add_argument(
        "--announce", action="store_true", help="raise the new ones as tray/Telegram alerts"
    )
    reminders.set_defaults(handler=cmd_reminders)
    snooze = sub.add_parser("snooze", parents=[common], help="hide a reminder for a few days")
    snooze.add_argument("inquiry_id", type=int)
    snooze.add_argument("--days", type=int, choices=SNOOZE_CHOICES, default=1)
    snooze.set_defaults(handler=cmd_snooze)
    briefing = sub.add_parser("briefing", parents=[common], help="the evening briefing for now")
    briefing.add_argument("--json", action="store_true", help="as JSON")
    briefing.add_argument(
        "--announce", action="store_true", help="raise it as an alert if it is due tonight"
    )
    briefing.set_defaults(handler=cmd_briefing)
    appointment = sub.add_parser(
        "appointment", parents=[common], help="propose, then confirm, a measuring visit"
    )
    appointment.add_argument("inquiry_id", type=int)
    what = appointment.add_mutually_exclusive_group(required=True)
    what.add_argument("--at", metavar="'YYYY-MM-DD HH:MM'", help="propose a time (Sydney)")
    # the example in --help is tomorrow by the process's clock (INQUIRY_BRIDGE_NOW in checks)
    with contextlib.suppress(ValueError):  # a bad clock variable is told by the command itself
        appointment.epilog = (
            f"例如 / for example: inquiry-bridge appointment 12 --at "
            f"'{example_time(clock_from_env().now())}'"
        )
    what.add_argument("--free", action="store_true", help="propose three free times")
    what.add_argument("--confirm", action="store_true", help="book it (and the Outlook event)")
    appointment.add_argument(
        "--choose", metavar="'YYYY-MM-DD HH:MM'", help="with --confirm: which proposed time"
    )
    appointment.add_argument("--minutes", type=int, default=60)
    appointment.set_defaults(handler=cmd_appointment)
