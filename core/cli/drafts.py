"""Drafting commands: ``draft``, ``draft-files`` (``--draft ID --add PATH``: a file from this
computer), ``drafts --json``, ``approve``, ``send``, ``reject``, ``batch-draft`` and ``send-due``.

``approve`` and ``send`` here are the local owner's own hands (actor ``cli``): whoever can run
this command on the office PC is the owner. ``send`` refuses anything not approved — exit code 1,
one clear line on stderr, nothing sent.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from core.app import App
from core.db.models import DRAFT_STATUSES
from core.errors import NotFound

# the statuses of the ``drafts --json`` contract (docs/contracts.md): the store's own list
STATUSES = DRAFT_STATUSES

if TYPE_CHECKING:
    from core.drafts.batch import BatchReport
    from core.drafts.drafting import Drafting
    from core.drafts.view import DraftView

T = TypeVar("T")


def _run(app: App, work: Callable[[Drafting], Awaitable[T]]) -> T:
    """Run one coroutine over the App's drafting (the model and Outlook are reached only if
    the command uses them), then close the clients it opened."""

    async def main() -> T:
        try:
            return await work(app.drafts.service())
        finally:
            await app.aclose()

    return asyncio.run(main())


def _print_draft(view: DraftView) -> None:
    from core.drafts.state import STATUS_ZH

    print(f"草稿 {view.id}（询盘 {view.inquiry_id}）：{STATUS_ZH.get(view.status, view.status)}")
    print(f"收件人：{', '.join(view.to)}")
    print(f"主题：{view.subject}")
    if view.unconfirmed_facts:
        print(f"未经确认：{'、'.join(view.unconfirmed_facts)}")
    if view.zh_missing:
        print(f"中文未体现：{'、'.join(view.zh_missing)}")
    if view.zh_stale:
        print(f"中文译文不是最终英文的翻译（重新翻译：inquiry-bridge translate {view.id}）")
    if view.attachments:
        print(f"附件：{'、'.join(f.filename for f in view.attachments)}")


def cmd_draft(args: argparse.Namespace, app: App) -> int:
    from core.drafts.reader import describe

    async def work(d: Drafting) -> DraftView:
        draft_id = await d.composer.compose(
            args.inquiry_id, args.instruction, actor="cli", attachment_ids=args.attach or None
        )
        return await d.reader.get(draft_id)

    view = _run(app, work)
    _print_draft(view)
    print()
    print(view.body_en)
    print()
    print(describe(view))
    return 0


def cmd_draft_files(args: argparse.Namespace, app: App) -> int:
    """The files of an inquiry a reply may carry (``draft --attach ID``); with ``--draft ID
    --add PATH``, a file from this computer added to (and ticked on) a draft."""
    from core.drafts.attachments import human_size

    if args.add is not None or args.draft is not None:
        return _add_owner_file(args, app)
    if args.inquiry_id is None:
        print(
            "inquiry-bridge: 参数错误 / bad arguments: 需要 INQUIRY_ID，或 --draft ID --add PATH",
            file=sys.stderr,
        )
        return 2
    try:
        files = _run(app, lambda d: d.reader.inquiry_files(args.inquiry_id))
    except LookupError:
        raise NotFound(f"询盘 #{args.inquiry_id} / inquiry #{args.inquiry_id}") from None
    if args.json:
        print(json.dumps([f.as_json() for f in files], ensure_ascii=False, indent=1))
        return 0
    if not files:
        print(
            f"询盘 {args.inquiry_id} 没有可附加的文件 / inquiry {args.inquiry_id} has no files "
            "to attach"
        )
    for f in files:
        note = "" if f.available else f"  （无法附加：{f.reason}）"
        print(f"{f.id:>6}  {f.filename}  {human_size(f.size)}{note}")
    return 0


def _add_owner_file(args: argparse.Namespace, app: App) -> int:
    from core.drafts.attachments import human_size

    if args.add is None or args.draft is None or args.inquiry_id is not None:
        print(
            "inquiry-bridge: 参数错误 / bad arguments: 添加本机文件用 --draft ID --add PATH",
            file=sys.stderr,
        )
        return 2
    view = _run(
        app,
        lambda d: d.edits.add_owner_file(args.draft, args.add, actor="cli"),
    )
    if args.json:
        print(json.dumps(view.as_json(), ensure_ascii=False, indent=1))
        return 0
    name = Path(args.add).name
    added = next((f for f in reversed(view.attachments) if f.filename == name), None)
    if added is not None:
        print(f"已添加 {added.id:>6}  {added.filename}  {human_size(added.size)}")
    _print_draft(view)
    return 0


def cmd_drafts(args: argparse.Namespace, app: App) -> int:
    statuses = tuple(args.status) if args.status else None
    views = _run(app, lambda d: d.reader.list(statuses))
    if args.json:
        json.dump([v.as_json() for v in views], sys.stdout, ensure_ascii=False, indent=1)
        print()
        return 0
    if not views:
        print("没有草稿 / no drafts")
    for v in views:
        flag = f"  未经确认 {len(v.unconfirmed_facts)}" if v.unconfirmed_facts else ""
        print(f"{v.id:>5}  {v.status:<16} {', '.join(v.to):<32} {v.subject}{flag}")
    return 0


def cmd_approve(args: argparse.Namespace, app: App) -> int:
    view = _run(
        app,
        lambda d: d.decisions.approve(
            args.id, actor="cli", accept_unconfirmed=args.accept_unconfirmed
        ),
    )
    print(f"草稿 {view.id} 已批准，尚未发送（发送：inquiry-bridge send {view.id}）")
    return 0


def cmd_translate(args: argparse.Namespace, app: App) -> int:
    """The Chinese made again from the draft's final English (a call that sees only it)."""

    async def work(d: Drafting) -> DraftView:
        await d.edits.rerender_zh(args.id)
        return await d.reader.get(args.id)

    view = _run(app, work)
    print(view.body_zh)
    _print_draft(view)
    return 0


def cmd_reject(args: argparse.Namespace, app: App) -> int:
    # also deletes an Outlook copy an earlier send attempt left in Drafts
    view = _run(
        app,
        lambda d: d.decisions.reject(args.id, actor="cli"),
    )
    print(f"草稿 {view.id} 已放弃，不会发送")
    return 0


def cmd_send(args: argparse.Namespace, app: App) -> int:
    result = _run(app, lambda d: d.decisions.send(args.id, actor="cli"))
    if result.ok:
        print(f"草稿 {result.draft_id}：{result.message}")
        return 0
    print(f"inquiry-bridge: 草稿 {result.draft_id} 未发送：{result.message}", file=sys.stderr)
    return 1


def cmd_send_due(args: argparse.Namespace, app: App) -> int:
    results = _run(app, lambda d: d.decisions.send_due())
    for r in results:
        print(f"草稿 {r.draft_id}：{r.status} {r.message}")
    return 0 if all(r.status in {"sent", "waiting"} for r in results) else 1


def cmd_batch(args: argparse.Namespace, app: App) -> int:
    from core.drafts.batch import BatchDrafter

    def work(d: Drafting) -> Awaitable[BatchReport]:
        drafter = BatchDrafter(d.composer, d.reader)
        return drafter.run_file(Path(args.csv), args.instruction, actor="cli")

    report = _run(app, work)
    if args.json:
        json.dump(
            {
                "batch_id": report.batch_id,
                "rows": [
                    {
                        "row": r.row,
                        "email": r.email,
                        "outcome": r.outcome,
                        "reason": r.reason,
                        "draft_id": r.draft_id,
                    }
                    for r in report.rows
                ],
            },
            sys.stdout,
            ensure_ascii=False,
            indent=1,
        )
        print()
    else:
        for r in report.rows:
            extra = f"草稿 {r.draft_id}" if r.draft_id else r.reason
            print(f"第 {r.row} 行  {r.email:<32} {r.outcome:<8} {extra}")
        print(report.summary_zh())
    return 0 if not report.errors else 1


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser("draft", parents=[common], help="compose a reply from a Chinese instruction")
    p.add_argument("inquiry_id", type=int, metavar="INQUIRY_ID")
    p.add_argument("--instruction", required=True, metavar="TEXT", help="what to say (Chinese)")
    p.add_argument(
        "--attach",
        action="append",
        type=int,
        metavar="ATTACHMENT_ID",
        help="attach one of the inquiry's files (repeatable; ids from `draft-files INQUIRY_ID`)",
    )
    p.set_defaults(handler=cmd_draft)

    p = sub.add_parser(
        "draft-files",
        parents=[common],
        help="an inquiry's files to attach, or add a file from this computer to a draft",
    )
    p.add_argument("inquiry_id", type=int, nargs="?", metavar="INQUIRY_ID")
    p.add_argument("--draft", type=int, metavar="ID", help="the draft to add a file to")
    p.add_argument(
        "--add", metavar="PATH", help="a file on this computer to attach to --draft (≤ 150 MB)"
    )
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_draft_files)

    p = sub.add_parser("drafts", parents=[common], help="the approval queue")
    p.add_argument("--json", action="store_true", help="every draft as a JSON array")
    p.add_argument(
        "--status",
        action="append",
        metavar="STATUS",
        choices=STATUSES,  # a typo is told, not answered with an empty list
        help="only drafts in STATUS",
    )
    p.set_defaults(handler=cmd_drafts)

    p = sub.add_parser("approve", parents=[common], help="approve a draft (the owner's decision)")
    p.add_argument("id", type=int, metavar="ID")
    p.add_argument(
        "--accept-unconfirmed",
        action="store_true",
        help="approve even though the fact guard flagged values (they become confirmed)",
    )
    p.set_defaults(handler=cmd_approve)

    p = sub.add_parser(
        "translate", parents=[common], help="make a draft's Chinese again from its final English"
    )
    p.add_argument("id", type=int, metavar="ID")
    p.set_defaults(handler=cmd_translate)

    p = sub.add_parser("send", parents=[common], help="send an approved draft (at most once)")
    p.add_argument("id", type=int, metavar="ID")
    p.set_defaults(handler=cmd_send)

    p = sub.add_parser("reject", parents=[common], help="discard a draft (never sent)")
    p.add_argument("id", type=int, metavar="ID")
    p.set_defaults(handler=cmd_reject)

    p = sub.add_parser("send-due", parents=[common], help="reconcile and send approved drafts")
    p.set_defaults(handler=cmd_send_due)

    p = sub.add_parser("batch-draft", parents=[common], help="one draft per CSV contact")
    p.add_argument("--csv", required=True, metavar="FILE")
    p.add_argument("--instruction", required=True, metavar="TEXT")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=cmd_batch)
