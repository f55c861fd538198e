"""``quote new|pdf|accept`` and ``quotes``: quote versions from the command line.

``quote new INQUIRY_ID --items-json FILE`` makes a version from his line items (a JSON list of
``description``, ``product``, ``width_mm``, ``height_mm``, ``qty``, ``unit_price_ex_gst``), or
``--instruction TEXT`` from his words through the model; either way a reply draft carrying the
PDF waits for his approval. ``quotes --json`` lists every version (docs/contracts.md, "Quotes");
``quote pdf`` writes the customer's PDF; ``quote accept`` records the customer's acceptance
(the inquiry moves to ``ordered``). Bad input: one Chinese line, non-zero exit, nothing stored.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

from core.app import App
from core.errors import BadFile, BadInput


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    quote = sub.add_parser(
        "quote",
        parents=[common],
        help="报价单：新建版本、导出 PDF、记录客户接受 / quotes: new version, PDF, acceptance",
        description="报价单 / quote documents",
    )
    quote.set_defaults(handler=cmd_no_verb)
    verbs = quote.add_subparsers(dest="quote_command", parser_class=type(quote))
    new = verbs.add_parser(
        "new",
        parents=[common],
        help="新建报价版本并起草带 PDF 的回复 / a new quote version and a reply carrying its PDF",
    )
    new.add_argument("inquiry_id", type=int, metavar="INQUIRY_ID")
    source = new.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--items-json", metavar="FILE", help="明细 JSON 文件 / the line items as a JSON list"
    )
    source.add_argument(
        "--instruction", metavar="TEXT", help="用话描述报价（经 AI） / the quote in words"
    )
    new.add_argument("--json", action="store_true", help="JSON 输出 / print JSON")
    new.set_defaults(handler=cmd_new)

    pdf = verbs.add_parser("pdf", parents=[common], help="导出报价 PDF / write the quote PDF")
    pdf.add_argument("quote_id", type=int, metavar="QUOTE_ID")
    pdf.add_argument("--out", required=True, metavar="FILE", help="PDF 路径 / where to write")
    pdf.set_defaults(handler=cmd_pdf)

    accept = verbs.add_parser(
        "accept", parents=[common], help="记录客户接受报价（改为已下单）/ the customer accepted"
    )
    accept.add_argument("quote_id", type=int, metavar="QUOTE_ID")
    accept.set_defaults(handler=cmd_accept)

    listing = sub.add_parser(
        "quotes",
        parents=[common],
        help="所有报价版本 / every quote version",
        description="所有报价版本 / every quote version",
    )
    listing.add_argument("--json", action="store_true", help="JSON 数组 / as a JSON array")
    listing.add_argument("--inquiry", type=int, metavar="ID", help="只看一个询盘 / one inquiry")
    listing.set_defaults(handler=cmd_list)


def _read_items(path: str) -> object:
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise BadFile(f"找不到文件：{file} / file not found: {file}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadFile(
            f"无法读取文件「{file.name}」：{exc} / cannot read {file.name}: {exc}"
        ) from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(
            f"「{file.name}」不是有效的 JSON（第 {exc.lineno} 行） / "
            f"{file.name} is not valid JSON (line {exc.lineno})"
        ) from None


def cmd_no_verb(args: argparse.Namespace, app: App) -> int:
    raise BadInput("请写 quote new、quote pdf 或 quote accept / say quote new, pdf or accept")


def cmd_new(args: argparse.Namespace, app: App) -> int:
    if args.items_json is not None:
        raw = _read_items(args.items_json)
        made = asyncio.run(app.quotes.new_from_items(args.inquiry_id, raw, actor="cli"))
    else:
        made = asyncio.run(
            app.quotes.new_from_instruction(args.inquiry_id, args.instruction, actor="cli")
        )
    q = made.quote
    if args.json:
        print(json.dumps(q, ensure_ascii=False, indent=2))
        return 0
    print(
        f"报价 #{q['id']}（{q['number']} 第 {q['version']} 版）合计 ${q['total_inc_gst']:,.2f}"
        f" 含 GST；回复草稿 #{made.draft_id} 待审批 / quote {q['id']} made; reply draft"
        f" {made.draft_id} awaits approval"
    )
    if q["unconfirmed_facts"]:
        print(f"未经确认：{'、'.join(q['unconfirmed_facts'])}")
    return 0


def cmd_pdf(args: argparse.Namespace, app: App) -> int:
    data = asyncio.run(app.quotes.pdf(args.quote_id))
    out = Path(args.out)
    try:
        out.write_bytes(data)
    except OSError as exc:
        raise BadFile(
            f"无法写入「{out}」：{exc.strerror or exc} / cannot write {out}: {exc.strerror or exc}"
        ) from None
    print(f"已保存 {out} / saved")
    return 0


def cmd_accept(args: argparse.Namespace, app: App) -> int:
    asyncio.run(app.quotes.accept(args.quote_id))
    print(f"报价 #{args.quote_id} 已记录为客户接受，询盘改为「已下单」 / accepted; stage ordered")
    return 0


def cmd_list(args: argparse.Namespace, app: App) -> int:
    rows = asyncio.run(app.quotes.rows(args.inquiry))
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return 0
    if not rows:
        print("还没有报价 / no quotes yet")
        return 0
    for q in rows:
        print(
            f"#{q['id']} {q['number']} v{q['version']} 询盘 #{q['inquiry_id']} {q['status']}"
            f" ${q['total_inc_gst']:,.2f}"
        )
    return 0
