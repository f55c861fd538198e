"""``ingest``, ``inquiries`` and ``mail``: the intake pipeline and its results, headless.

``ingest --eml-dir DIR`` replays ``*.eml`` in name order as if they arrived in that order;
messages a killed or failed earlier run left ``pending`` are retried first. Re-running on the same
folder changes nothing. ``inquiries --json`` / ``mail --json`` print the docs/contracts.md contracts
(``core.intake.queries``); without ``--json`` a short table for people.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.app import App
from core.errors import InquiryBridgeError

if TYPE_CHECKING:
    from core.app.intake import IngestReport


class IntakeInputError(InquiryBridgeError):
    """The folder given to ``ingest`` cannot be used (missing, not a folder, no .eml).

    Carries its own Chinese and English sentence (the CLI prints ``zh / en`` on one line).
    """

    code = "error"

    def __init__(self, zh: str, en: str) -> None:
        super().__init__(en)
        self.zh, self.en = zh, en

    def user_message(self, lang: str = "zh_CN") -> str:
        return self.zh if lang.startswith("zh") else self.en


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    ingest = sub.add_parser(
        "ingest",
        parents=[common],
        help="run the intake pipeline on a folder of .eml files",
        description="运行邮件导入流程 / run the intake pipeline on *.eml in name order",
    )
    ingest.add_argument("--eml-dir", required=True, metavar="DIR", help="folder of *.eml files")
    ingest.add_argument(
        "--offline", action="store_true", help="no LLM: rules classifier and extractor only"
    )
    ingest.set_defaults(handler=cmd_ingest)

    inquiries = sub.add_parser(
        "inquiries", parents=[common], help="list inquiries", description="列出询盘 / inquiries"
    )
    inquiries.add_argument("--json", action="store_true", help="every inquiry as a JSON array")
    inquiries.set_defaults(handler=cmd_inquiries)

    mail = sub.add_parser(
        "mail",
        parents=[common],
        help="list every ingested message with its disposition",
        description="列出所有邮件及其处理结果 / every message with its disposition",
    )
    mail.add_argument("--json", action="store_true", help="every message as a JSON array")
    mail.set_defaults(handler=cmd_mail)


def eml_folder(value: str) -> Path:
    """Validate ``--eml-dir`` before anything is touched: one clear error per mistake."""
    folder = Path(value).expanduser()
    if not folder.exists():
        raise IntakeInputError(f"邮件文件夹不存在：{folder}", f"folder not found: {folder}")
    if not folder.is_dir():
        raise IntakeInputError(f"不是文件夹：{folder}", f"not a folder: {folder}")
    try:
        has_eml = any(p.is_file() and p.suffix.lower() == ".eml" for p in folder.iterdir())
    except OSError as exc:
        raise IntakeInputError(
            f"无法读取文件夹：{folder}（{exc}）", f"cannot read folder {folder}: {exc}"
        ) from exc
    if not has_eml:
        raise IntakeInputError(f"文件夹里没有 .eml 文件：{folder}", f"no .eml files in {folder}")
    return folder


def cmd_ingest(args: argparse.Namespace, app: App) -> int:
    folder = eml_folder(args.eml_dir)

    async def ingest() -> IngestReport:
        try:
            return await app.intake.ingest_folder(folder, offline=bool(args.offline))
        finally:
            await app.aclose()  # the model client the pipeline shared

    report = asyncio.run(ingest())
    print(report.summary())
    if report.nothing_was_mail:  # a folder of notes or CSVs: say so, and fail the command
        print(
            f"inquiry-bridge: 文件夹里的 {report.processed} 个文件都不是邮件（没有发件人或无法解析），"
            f"没有收到任何邮件：{folder} / none of the {report.processed} files in {folder} is an "
            "email (no sender, or not MIME); nothing was received",
            file=sys.stderr,
        )
        return 1
    return 0


def _dump(items: list[dict[str, Any]]) -> None:
    """The JSON array, always valid UTF-8 (undecodable bytes in stored text become U+FFFD)."""
    from core.mail.charsets import scrub

    sys.stdout.write(scrub(json.dumps(items, ensure_ascii=False, indent=2)) + "\n")


def cmd_inquiries(args: argparse.Namespace, app: App) -> int:
    items = asyncio.run(app.intake.inquiries_json())
    if args.json:
        _dump(items)
        return 0
    for item in items:
        products = ",".join(item["product_types"])
        print(
            f"#{item['id']:<4} {item['classification']} {item['stage']:<10} "
            f"{item['customer_name'] or '-':<24} {item['customer_email'] or '-':<34} "
            f"{item['customer_phone'] or '-':<14} {item['suburb'] or '-':<16} {products}"
        )
    print(f"共 {len(items)} 个询盘 / {len(items)} inquiries")
    return 0


def cmd_mail(args: argparse.Namespace, app: App) -> int:
    items = asyncio.run(app.intake.mail_json())
    if args.json:
        _dump(items)
        return 0
    for item in items:
        inquiry = f"#{item['inquiry_id']}" if item["inquiry_id"] else "-"
        print(
            f"{item['received_at'] or '-':<21} {item['disposition']:<22} {inquiry:<6} "
            f"{(item['from'] or '-')[:34]:<34} {(item['subject'] or '')[:60]}"
        )
    print(f"共 {len(items)} 封邮件 / {len(items)} messages")
    return 0
