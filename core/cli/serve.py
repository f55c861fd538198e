"""``serve`` and ``status``: the background work on an always-on box, and who runs it.

serve           every piece of background work (mail rounds and IDLE, OneDrive, Telegram,
                reminders, the evening briefing, the weekly report, send-due), headless, under
                the store's runner lease, until SIGTERM or SIGINT; then it stops cleanly (exit 0)
status --json   ``{"store": "sqlite"|"postgresql", "runner": {...} or null}``; the runner also
                carries ``pieces``, its health view at the last heartbeat (piece → state)

A second ``serve`` on the same store waits as a standby (one line says who runs the work) and
takes over within ``runner.takeover_seconds`` (``INQUIRY_BRIDGE_LEASE_SECONDS``) of the holder's
last heartbeat.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys

from core.app import App
from core.runtime import Supervisor


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    serve = sub.add_parser(
        "serve",
        parents=[common],
        help="后台运行全部后台工作直到 SIGTERM / run all background work headless until SIGTERM",
        description="在后台运行邮件同步、Telegram、提醒和简报，直到收到 SIGTERM / run the "
        "background work headless (mail, OneDrive, Telegram, reminders, briefing, send-due)",
    )
    serve.set_defaults(handler=cmd_serve)
    status = sub.add_parser(
        "status",
        parents=[common],
        help="数据库与后台运行位置 / the store and which process runs the background work",
        description="数据库类型与后台运行位置 / the store and who runs the background work",
    )
    status.add_argument("--json", action="store_true", help="JSON 输出 / machine-readable output")
    status.set_defaults(handler=cmd_status)


def cmd_serve(args: argparse.Namespace, app: App) -> int:
    return asyncio.run(_serve(app))


async def _serve(app: App) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    supervisor = Supervisor(app, kind="serve")

    def said(role: str) -> None:
        if role == "runner":
            print("后台工作在本进程运行 / this process runs the background work", flush=True)
        elif role == "desk":
            print("等待中：后台工作由另一进程运行 / standby: another process runs it", flush=True)

    supervisor.role_changed = said
    try:
        await supervisor.run(stop)
    finally:
        await app.aclose()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
    print("已停止 / stopped", flush=True)
    return 0


def cmd_status(args: argparse.Namespace, app: App) -> int:
    runner = asyncio.run(app.lease.runner())
    store = app.store_kind()
    if args.json:
        body = {"store": store, "runner": runner.as_json() if runner is not None else None}
        print(json.dumps(body, ensure_ascii=False))
        return 0
    print(f"数据库 / store: {store}")
    if runner is None:
        print("后台未运行 / no process runs the background work", file=sys.stdout)
    else:
        print(
            f"后台在 {runner.host} 运行（{runner.kind}，pid {runner.pid}）/ background work runs "
            f"on {runner.host} ({runner.kind}, pid {runner.pid})"
        )
        for piece, state in sorted(runner.pieces.items()):
            print(f"  {piece}: {state}")
    return 0
