"""The daily rhythm, headless: ``reminders``, ``snooze`` and ``briefing``.

``reminders`` and ``briefing`` only read (a check can run them on any folder without changing
it); ``--announce`` puts what is due in the notification outbox, which the tray and
``telegram --once`` deliver: each reminder once per stage entry, the briefing once an evening at
``schedule.briefing_time``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from core.clock import to_sydney
from core.errors import NotFound
from core.notify.outbox import NotificationCenter
from core.rhythm.briefing_text import render_markdown
from core.rhythm.evening import EveningBriefing
from core.rhythm.reminders import SNOOZE_CHOICES, Reminder, ReminderService
from core.services import Services


def _service(services: Services) -> tuple[ReminderService, NotificationCenter]:
    center = NotificationCenter(services).attach(services.bus, catch_up=False)
    service = ReminderService(
        services.store, services.bus, services.clock, raise_digest=center.raise_overdue_digest
    )
    return service, center


def _line(reminder: Reminder) -> str:
    who = reminder.customer_name or "?"
    return (
        f"#{reminder.inquiry_id}  {who}  「{reminder.stage_zh}」 "
        f"{reminder.days_in_stage}/{reminder.limit_days} 个工作日 — {reminder.action_zh}"
    )


def cmd_reminders(args: argparse.Namespace, services: Services) -> int:
    service, center = _service(services)
    try:
        reminders = asyncio.run(service.announce() if args.announce else service.due())
    finally:
        center.detach()
    if args.json:
        json.dump([r.as_json() for r in reminders], sys.stdout, ensure_ascii=False, indent=2)
        print()
    elif not reminders:
        print("没有超期的询盘 / nothing overdue")
    else:
        for reminder in reminders:
            print(_line(reminder))
    return 0


def cmd_snooze(args: argparse.Namespace, services: Services) -> int:
    service, center = _service(services)
    try:
        until = asyncio.run(service.snooze(args.inquiry_id, args.days))
    except LookupError:
        raise NotFound(f"#{args.inquiry_id}") from None
    finally:
        center.detach()
    stamp = to_sydney(until).strftime("%Y-%m-%d %H:%M")
    print(f"已推迟提醒到 {stamp}（悉尼时间）/ snoozed until {stamp} Sydney time")
    return 0


def cmd_briefing(args: argparse.Namespace, services: Services) -> int:
    evening = EveningBriefing(services.store, services.settings, services.clock)
    if args.announce:
        center = NotificationCenter(services).attach(services.bus, catch_up=False)
        try:
            raised = asyncio.run(evening.announce_if_due(center.raise_notification))
        finally:
            center.detach()
        at = services.settings.get("schedule.briefing_time")
        print(
            "已生成今晚的简报 / briefing raised"
            if raised
            else f"暂不发送（每晚 {at} 一次）/ not due or already sent (once an evening at {at})"
        )
        return 0
    briefing = asyncio.run(evening.build())
    if args.json:
        json.dump(briefing.as_json(), sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        _title, body = render_markdown(briefing)
        print(body)
    return 0


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
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
