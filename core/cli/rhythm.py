"""``reminders [--json] [--announce]`` and ``snooze INQUIRY_ID --days N``: the stage reminders, headless.

``reminders`` only reads (a check can run it on any folder without changing it); ``--announce``
puts the new ones in the notification outbox, which the tray and ``telegram --once`` deliver.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from core.clock import to_sydney
from core.errors import NotFound
from core.notify.outbox import NotificationCenter
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
