"""``stage`` and ``owed``: move an inquiry's stage from the command line; what OneDrive is owed.

``stage ID STAGE [--reason TEXT]`` is the board's stage menu, headless (audited as the owner). The
folder move it owes OneDrive is queued in the store with the change, so it happens at the next
``sync --once`` (or the tray app's OneDrive round, or the ``telegram`` runner) even though this
command never talks to Graph. ``owed [--json] [--pending]`` lists that queue: each move, what
caused it, and what became of it.
"""

from __future__ import annotations

import argparse
import asyncio
import json

from core.app import App
from core.db.models import ALL_STAGES
from core.inquiry.stages import STAGE_NAMES_ZH


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    stage = sub.add_parser(
        "stage",
        parents=[common],
        help="更改询盘阶段（OneDrive 文件夹在下次同步时跟着移动）/ move an inquiry to another sales stage (its OneDrive folder follows at the next sync)",
        description="更改询盘阶段 / move an inquiry's stage",
    )
    stage.add_argument("inquiry_id", type=int, metavar="INQUIRY_ID")
    stage.add_argument(
        "to_stage",
        choices=ALL_STAGES,
        metavar="STAGE",
        help="新阶段 / the new stage: " + " | ".join(ALL_STAGES),
    )
    stage.add_argument(
        "--reason", default="命令行更改", help="原因（记入审计）/ why (kept in the audit)"
    )
    stage.set_defaults(handler=cmd_stage)

    owed = sub.add_parser(
        "owed",
        parents=[common],
        help="欠 OneDrive 的操作（文件夹移动）：排队中和已完成 / writes owed to OneDrive (folder moves): queued and done",
        description="待同步到 OneDrive 的操作 / writes owed to OneDrive",
    )
    owed.add_argument("--json", action="store_true", help="JSON 数组 / as a JSON array")
    owed.add_argument(
        "--pending", action="store_true", help="只看还在等待的 / only those still waiting"
    )
    owed.set_defaults(handler=cmd_owed)


def cmd_stage(args: argparse.Namespace, app: App) -> int:
    async def _move() -> int:
        change = await app.inquiries.advance_stage(
            args.inquiry_id, args.to_stage, reason=args.reason, triggered_by="owner"
        )
        zh = STAGE_NAMES_ZH.get(args.to_stage, args.to_stage)
        if change is None:
            print(f"询盘 #{args.inquiry_id} 已在「{zh}」，未更改 / already {args.to_stage}")
            return 0
        print(
            f"询盘 #{args.inquiry_id} 阶段已改为「{zh}」；OneDrive 文件夹将在下次同步时移动"
            f" / stage is now {args.to_stage}; its OneDrive folder moves at the next sync"
        )
        return 0

    return asyncio.run(_move())


def cmd_owed(args: argparse.Namespace, app: App) -> int:
    rows = asyncio.run(app.inquiries.owed_writes(status="pending" if args.pending else None))
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    if not rows:
        print("没有待同步的操作 / nothing owed")
        return 0
    for r in rows:
        what = r["outcome"] or r["last_error"] or ""
        print(f"#{r['id']:<4} {r['kind']} 询盘 #{r['inquiry_id']} {r['status']:<8} {what}")
    return 0
