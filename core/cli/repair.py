"""``repair``: bring a damaged database back from its newest good backup and the raw mail.

The steps (set the damaged file aside, restore the newest good backup, re-ingest the raw mail it
lacks, settle sends from the journal, look up the owner's journalled work) are
``core.app.repair.repair_folder``'s; this prints its report. It runs without the usual ``App``
start-up (that would fail on the damaged file): it registers ``needs_app=False``.
"""

from __future__ import annotations

import argparse

from core.app import repair_home


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    repair = sub.add_parser(
        "repair",
        parents=[common],
        help="restore the newest good backup and re-ingest the raw mail it lacks",
        description="修复数据库：恢复最近的完好备份，并从保存的原始邮件重新导入缺少的邮件 / "
        "restore the newest good backup and re-ingest the raw mail it lacks",
    )
    repair.add_argument(
        "--offline", action="store_true", help="no LLM while re-ingesting: rules only"
    )
    repair.set_defaults(handler=cmd_repair, needs_app=False)


def cmd_repair(args: argparse.Namespace, _app: None) -> int:
    """``needs_app=False``: the damaged store is not opened before it is repaired."""
    print(repair_home(getattr(args, "home", None), offline=bool(args.offline)).text())
    return 0
