"""``eval [--eml-dir DIR] [--offline] [--json] [--drafts [N]] [--judge [N]]``: intake accuracy
on a labelled folder; optionally N replies drafted from an instruction with points (how many
missed one), and a tier-3 judge's scores of N drafted replies."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from core.app import App


def cmd_eval(args: argparse.Namespace, app: App) -> int:
    from core.cli.main import CliError
    from core.evals.intake_eval import default_corpus, format_report, run_eval

    folder = Path(args.eml_dir) if args.eml_dir else default_corpus()
    if folder is None:
        raise CliError(
            "找不到标注语料 ../shared/corpus/dev，请用 --eml-dir 指定 / "
            "labelled corpus ../shared/corpus/dev is missing; pass --eml-dir DIR"
        )
    if not (folder / "labels.json").is_file():
        raise CliError(f"{folder} 中没有 labels.json / no labels.json in {folder}")
    report = run_eval(
        folder,
        settings_from=app,
        offline=bool(args.offline),
        judge=int(args.judge or 0),
        drafts=int(args.drafts or 0),
    )
    if args.json:
        print(json.dumps(report.as_dict(), ensure_ascii=False, indent=1))
    else:
        print(format_report(report))
    return 0


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "eval", parents=[common], help="intake accuracy, grounding drops, calls and cost"
    )
    p.add_argument(
        "--eml-dir", metavar="DIR", help="labelled folder (default ../shared/corpus/dev)"
    )
    p.add_argument("--offline", action="store_true", help="rules only, no LLM calls")
    p.add_argument("--json", action="store_true", help="the figures as JSON")
    p.add_argument(
        "--drafts",
        type=int,
        nargs="?",
        const=5,
        default=0,
        metavar="N",
        help="draft N replies from an instruction with points; count the points they missed",
    )
    p.add_argument(
        "--judge",
        type=int,
        nargs="?",
        const=10,
        default=0,
        metavar="N",
        help="draft N replies and let the tier-3 model score them (reported, never blocking)",
    )
    p.set_defaults(handler=cmd_eval)
