"""``repair``: bring a damaged database back from its newest good backup and the raw mail.

Thunderbird's habit: the mail store is the truth, the index can be rebuilt. Steps:

1. a database that passes ``PRAGMA quick_check`` is left alone (``repair`` still re-ingests raw
   mail it lacks);
2. otherwise it is moved aside (``<name>.damaged-<time>``, never deleted) and the newest backup
   that passes the check is put in its place -- owner-made data (notes, stage changes, drafts)
   comes back with it; no good backup: a new, empty database;
3. every raw message kept under ``mail/`` that the database does not point at is ingested again
   through the normal pipeline (pending ones are retried first), oldest file first, so
   inquiries, their merges and dispositions come back.

Runs without the usual service start-up (that would fail on the damaged file).
"""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from sqlalchemy import select

from core.services import Services


def register(sub: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
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
    repair.set_defaults(handler=cmd_repair, needs_services=False)


def cmd_repair(args: argparse.Namespace, _services: Services | None) -> int:
    print(repair_home(getattr(args, "home", None), offline=bool(args.offline)))
    return 0


def repair_home(home: str | Path | None, *, offline: bool) -> str:
    """Repair the data folder ``home`` (see the module docstring); the one-line summary."""
    from core.db.backup import database_is_good, restore_newest, set_aside
    from core.logging_setup import setup_logging
    from core.paths import DataPaths, resolve_home
    from core.services import build_services

    paths = DataPaths(resolve_home(home)).ensure()
    setup_logging(paths.logs)
    database = paths.database
    restored = "-"
    aside: Path | None = None
    if database.exists() and not database_is_good(database):
        aside = set_aside(database)
        backup = restore_newest(database, paths.backups)
        restored = backup.path.name if backup else "无备份 / none"
    services = build_services(paths.home)
    try:
        report = asyncio.run(_reingest(services, offline))
    finally:
        services.close()
    moved = f"，损坏的文件已保存为 {aside.name}" if aside else ""
    moved_en = f"; the damaged file was kept as {aside.name}" if aside else ""
    return (
        f"修复完成：恢复备份 {restored}{moved}，重新导入邮件 {report.processed} 封 / "
        f"repaired: backup {restored} restored{moved_en}, {report.processed} messages "
        f"re-ingested"
    )


def missing_raw_files(services: Services) -> list[Path]:
    """Raw messages on disk that no row points at, oldest file first (arrival order)."""
    from core.db.models import Message

    home = services.paths.home
    with services.store.session() as session:
        known = {p for p in session.scalars(select(Message.raw_path)) if p}
    files = [
        path
        for path in services.paths.raw_mail.rglob("*.eml")
        if path.relative_to(home).as_posix() not in known
    ]
    return sorted(files, key=lambda p: (_mtime(p), p.name))


def _mtime(path: Path) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


async def _reingest(services: Services, offline: bool) -> Any:
    from core.intake.pipeline import build_pipeline
    from core.mail.source import RawMessage

    files = missing_raw_files(services)
    pipeline = build_pipeline(services, offline=offline)

    async def raws() -> AsyncIterator[RawMessage]:
        for path in files:
            data = await asyncio.to_thread(path.read_bytes)
            yield RawMessage(raw=data, source="eml", source_ref=f"repair:{path.name}")

    try:
        report = await pipeline.retry_pending()
        report.extend(await pipeline.ingest_source(raws()))
        return report
    finally:
        await pipeline.aclose()
