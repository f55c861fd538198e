"""``stats [--week] [--json]``: what the AI cost and how well it did, from the ledger and his
corrections (read-only)."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import TYPE_CHECKING

from core.app import App

if TYPE_CHECKING:
    from core.app.stats import Stats


def _money(usd: float | None) -> str:
    return "—" if usd is None else f"US${usd:.4f}"


def format_stats(stats: Stats) -> str:
    costs = stats.costs
    total = costs.total
    unit = "天 / day" if stats.by == "day" else "周 / week"
    lines = [
        f"AI 调用 {total.calls} 次（失败 {total.failed}），输入 {total.prompt_tokens} / 输出 "
        f"{total.completion_tokens} tokens，估算费用 {_money(total.cost_usd)} / "
        f"calls, tokens in/out, estimated cost",
        f"新询盘 {costs.new_inquiries} 个，每个询盘约 {_money(costs.cost_per_new_inquiry_usd)} / "
        f"new inquiries, cost per inquiry",
        "",
        f"按{unit}：",
    ]
    for label, tally in costs.by_period.items():
        lines.append(f"  {label}  {tally.calls:>5} 次  {_money(tally.cost_usd)}")
    lines.append("按层级 / by tier：")
    for tier, tally in sorted(costs.by_tier.items()):
        lines.append(f"  tier {tier}  {tally.calls:>5} 次  {_money(tally.cost_usd)}")
    lines.append("按用途 / by purpose：")
    for purpose, tally in sorted(costs.by_purpose.items()):
        lines.append(f"  {purpose:<12} {tally.calls:>5} 次  {_money(tally.cost_usd)}")
    lines += ["", "准确度（按您的修改）/ accuracy from your corrections："]
    for week in stats.accuracy:
        rate = "—" if week.class_accuracy is None else f"{week.class_accuracy:.0%}"
        edit = "—" if week.draft_edit_ratio is None else f"{week.draft_edit_ratio:.0%}"
        lines.append(
            f"  {week.period}  询盘 {week.inquiries_filed}，改类别 {week.classes_changed}"
            f"（分类准确 {rate}），改字段 {week.fields_edited}，批准草稿 {week.drafts_approved}"
            f"，改写 {week.drafts_rewritten}（改动 {edit}）"
        )
    return "\n".join(lines)


def cmd_stats(args: argparse.Namespace, app: App) -> int:
    stats = asyncio.run(app.stats.figures(this_week=bool(args.week)))
    if args.json:
        json.dump(stats.as_json(), sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        print(format_stats(stats))
    return 0


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "stats",
        parents=[common],
        help="AI 费用与准确度（按天/周、层级、用途）/ AI cost and accuracy by day, week, tier, purpose",
    )
    p.add_argument("--week", action="store_true", help="本周按天 / this week, by day")
    p.add_argument("--json", action="store_true", help="JSON 输出 / as JSON")
    p.set_defaults(handler=cmd_stats)
