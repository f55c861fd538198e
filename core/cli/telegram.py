"""``inquiry-bridge telegram``: the Telegram mirror and bot without the tray app.

telegram --once     deliver the notification outbox, handle one round of updates, exit
telegram            the same, forever (long polling) until Ctrl-C
telegram pair       print a one-time pairing code (send ``/start CODE`` to the bot)
telegram status     token / paired chat / outbox figures
telegram unpair     forget the paired chat
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys

from core import tasks
from core.app import App
from core.app.telegram import OUTBOX_STATUSES, TelegramService
from core.clock import to_sydney
from core.runtime import Supervisor
from core.runtime.supervisor import settle_owed

log = logging.getLogger(__name__)


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "telegram",
        parents=[common],
        help="Telegram mirror and bot (deliver alerts, handle buttons, notes and questions)",
        description="Telegram 提醒与机器人 / Telegram mirror and bot",
    )
    p.add_argument(
        "action",
        nargs="?",
        default="run",
        choices=("run", "pair", "status", "unpair"),
        help="run (default), pair, status or unpair",
    )
    p.add_argument(
        "--once",
        action="store_true",
        help="deliver the outbox and process one round of updates, then exit",
    )
    p.set_defaults(handler=_handle)


def _handle(args: argparse.Namespace, app: App) -> int:
    if args.action == "pair":
        return _pair(app.telegram)
    if args.action == "status":
        return _status(app.telegram)
    if args.action == "unpair":
        app.telegram.unpair()
        print("已解除配对 / unpaired")
        return 0
    return asyncio.run(_run(app, once=args.once))


def _pair(telegram: TelegramService) -> int:
    code = telegram.new_pairing_code()
    until = to_sydney(code.expires_at)
    print(f"配对码 / pairing code: {code.code}")
    print(
        f"在 Telegram 中给你的机器人发送 / send to your bot:  /start {code.code}\n"
        f"有效至 / valid until {until:%Y-%m-%d %H:%M} (Sydney)，只能使用一次 / single use."
    )
    if not telegram.token():
        print(
            "提示：还没有设置 Bot 令牌 / note: no bot token set yet (INQUIRY_BRIDGE_TELEGRAM_TOKEN)"
        )
    return 0


def _status(telegram: TelegramService) -> int:
    owner = telegram.owner()
    counts = asyncio.run(telegram.outbox_counts())
    print(f"令牌 / token: {'已设置 set' if telegram.token() else '未设置 not set'}")
    print(f"启用 / enabled: {'是 yes' if telegram.enabled() else '否 no'}")
    if owner is None:
        print("配对 / paired chat: 未配对 none")
    else:
        how = "预设 preset" if owner.preset else f"{owner.name or ''}".strip()
        print(f"配对 / paired chat: {owner.chat_id} {how}".rstrip())
    print("提醒 / outbox: " + "，".join(f"{k} {counts.get(k, 0)}" for k in OUTBOX_STATUSES))
    return 0


async def _run(app: App, *, once: bool) -> int:
    if not once:
        # the supervisor's Telegram, rhythm and owed-OneDrive pieces until Ctrl-C (no lease:
        # the owner started this by hand)
        pieces = ("telegram", "rhythm", "onedrive")
        try:
            await Supervisor(app, kind="serve", pieces=pieces, lease=False).run()
        finally:
            await app.aclose()
        return 0
    app.notifications.attach(background=False)
    # the App's client, assistant (the owner's words, when AI is set) and composer
    from core.telegram.runner import TelegramRunner  # the HTTP client: only when it runs

    runner = TelegramRunner(app)
    try:
        report = await runner.run_once()
        await settle_owed(app)
        d = report.delivery
        line = (
            f"Telegram：已发送 {d.sent} 条提醒（{d.messages} 条消息），失败 {d.failed}，"
            f"跳过 {d.skipped}，等待 {d.held}；处理更新 {report.updates} 条"
            f" / sent {d.sent}, failed {d.failed}, skipped {d.skipped}, waiting {d.held}, "
            f"updates {report.updates}"
        )
        if d.edited:
            line += f"；已更新 {d.edited} 条消息的按钮 / closed buttons on {d.edited} messages"
        if d.held_until is not None:
            line += f"；免打扰至 {to_sydney(d.held_until):%H:%M}"
        if await tasks.io(app.telegram.owner) is None:
            line += "；尚未配对 / not paired yet (telegram pair)"
        print(line)
        if report.error:
            print(f"inquiry-bridge: {report.error}", file=sys.stderr)
            return 1
        return 0
    finally:
        app.notifications.detach()
        await runner.aclose()
        await app.aclose()  # the model and Graph clients the assistant may have opened
