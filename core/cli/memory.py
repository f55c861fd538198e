"""``memories``: the assistant's memories — list them, confirm a proposal, retire one.

memories [--json] [--status proposed|active|…]
memories confirm ID
memories retire ID
proposals [--json] [--all] / proposals confirm ID / proposals drop ID
"""

from __future__ import annotations

import argparse
import asyncio
import json

from core.app import App


def cmd_memories(args: argparse.Namespace, app: App) -> int:
    if args.action in {"confirm", "retire"}:
        if args.id is None:
            from core.cli.main import CliError

            raise CliError(f"memories {args.action} 需要记忆编号 / needs a memory id")
        change = app.memories.confirm if args.action == "confirm" else app.memories.retire
        item = asyncio.run(change(int(args.id), actor="cli"))
        print(f"记忆 #{item.id}：{item.status} — {item.text}")
        return 0
    statuses = tuple(args.status or ()) or None
    items = asyncio.run(app.memories.list(statuses=statuses))  # those past their day: expired
    if args.json:
        print(json.dumps([i.as_dict() for i in items], ensure_ascii=False, indent=1))
        return 0
    for i in items:
        flag = "（待确认）" if i.status == "proposed" else ""
        about = f" · {i.customer}" if i.customer else ""
        used = f"（最近用于 {i.last_used_in}）" if i.last_used_in else ""
        print(f"#{i.id} [{i.status}] {i.kind} · {i.source}{about}{flag}: {i.text}{used}")
    if not items:
        print("（没有记忆）")
    return 0


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "memories", parents=[common], help="the assistant's memories: list, confirm, retire"
    )
    p.add_argument("action", nargs="?", choices=["list", "confirm", "retire"], default="list")
    p.add_argument("id", nargs="?", type=int, help="memory id (confirm / retire)")
    p.add_argument("--json", action="store_true", help="JSON array")
    p.add_argument("--status", action="append", help="only these statuses (repeatable)")
    p.set_defaults(handler=cmd_memories)
    register_proposals(sub, common)


def cmd_proposals(args: argparse.Namespace, app: App) -> int:
    """``proposals``: writes the assistant proposed after reading customer mail."""
    if args.action in {"confirm", "drop"}:
        if args.id is None:
            from core.cli.main import CliError

            raise CliError(f"proposals {args.action} 需要建议编号 / needs a proposal id")
        decide = app.proposals.confirm if args.action == "confirm" else app.proposals.drop
        item = asyncio.run(decide(int(args.id), actor="cli"))
        print(f"建议 #{item.id}：{item.status} — {item.summary_zh} {item.result}".rstrip())
        return 0
    items = asyncio.run(app.proposals.every() if args.all else app.proposals.open())
    if args.json:
        print(json.dumps([i.as_json() for i in items], ensure_ascii=False, indent=1))
        return 0
    for i in items:
        print(f"#{i.id} [{i.status}] {i.summary_zh}")
    if not items:
        print("（没有待确认的建议）")
    return 0


def register_proposals(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "proposals",
        parents=[common],
        help="changes the assistant proposed after reading customer mail: list, confirm, drop",
    )
    p.add_argument("action", nargs="?", choices=["list", "confirm", "drop"], default="list")
    p.add_argument("id", nargs="?", type=int, help="proposal id (confirm / drop)")
    p.add_argument("--json", action="store_true", help="JSON array")
    p.add_argument("--all", action="store_true", help="decided ones too")
    p.set_defaults(handler=cmd_proposals)
