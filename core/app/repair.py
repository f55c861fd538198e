"""``repair``: bring a damaged database back from its newest good backup and the raw mail.

Thunderbird's habit: the mail store is the truth, the index can be rebuilt. Steps:

1. a database that passes ``PRAGMA quick_check`` is left alone (``repair`` still re-ingests raw
   mail it lacks);
2. otherwise (and when it holds no schema, or is missing beside good backups: a database cut
   to 0 bytes passes the check as an empty one) it is moved aside (``<name>.damaged-<time>``, never deleted) and the newest backup
   that passes the check is put in its place -- owner-made data (notes, stage changes, drafts)
   comes back with it; no good backup: a new, empty database;
3. every raw message kept under ``mail/`` that the database does not point at is ingested again
   through the normal pipeline (pending ones are retried first), oldest file first, so
   inquiries, their merges and dispositions come back;
4. every draft the send journal (``sends.journal``) says went out is marked ``sent``, and
   attempts without a known outcome are checked against Sent Items (when signed in) -- no
   repaired draft can be sent twice;
5. every piece of owner work in ``owner.journal`` is looked up in the repaired store; the report
   names each one it could not find (``RepairReport``), item by item, in Chinese and English.

Steps 1-2 hold the data folder's writer lock, so no other process writes into the file while it
is swapped.

Why here and not an ``App`` method: it runs before an ``App`` could be built (that would fail on
the damaged file), so it opens the folder's services itself, in the composition root. The CLI's
``repair`` and the desktop's start-up repair dialog both call ``repair_folder``.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import select

from core import tasks
from core.app.repair_report import RepairReport
from core.errors import StoreError
from core.services import Services

if TYPE_CHECKING:
    from core.intake.jobs import IngestReport

__all__ = ["RepairReport", "repair_folder"]


def repair_folder(home: Path, *, offline: bool) -> RepairReport:
    """Repair the data folder ``home`` (see the module docstring); what it did, item by item.
    ``offline``: no model while re-ingesting (rules only) and no Sent Items check."""
    from core.db.backup import database_is_good, has_good_backup, restore_newest, set_aside
    from core.db.writer_lock import WriterLock
    from core.paths import DataPaths
    from core.services import build_services

    paths = DataPaths(home).ensure()
    database = paths.database
    report = RepairReport()
    # no other process writes while the file is swapped (they wait, then use the restored one)
    with WriterLock(paths.home).hold():
        # a database removed from a folder that has backups is lost, not new
        lost = not database.exists() and has_good_backup(paths.backups)
        if lost or (database.exists() and not database_is_good(database)):
            aside = set_aside(database)
            report.aside = aside.name if aside else None
            backup = restore_newest(database, paths.backups)
            report.backup = backup.path.name if backup else None
            report.no_backup = backup is None
    services = build_services(paths.home)
    try:
        report.reingested = asyncio.run(_reingest(services, offline)).processed
        _settle_sends(services, report)
        if not offline:
            report.sends_checked = asyncio.run(_check_mailbox(services))
        _check_owner_work(services, report)
    finally:
        services.close()
    return report


def _settle_sends(services: Services, report: RepairReport) -> None:
    """Drafts the send journal says went out are ``sent``, whatever the backup said."""
    from core.db.send_journal import SendJournal
    from core.drafts.send_facts import settle_from_journal

    journal = SendJournal.for_home(services.paths.home, services.paths.shared)
    result = services.store.write(lambda s: settle_from_journal(s, journal, clock=services.clock))
    report.sends, report.sends_missing = result.settled, result.missing


async def _check_mailbox(services: Services) -> list[tuple[str, str]]:
    """Attempts without an outcome are checked against Sent Items now (not only at the next
    send): each becomes ``sent``, stays free to send, or ``failed`` -- never sent here."""
    from core.app.standalone import close_own_mailer, own_mailer
    from core.db.send_journal import ASK_MAILBOX, SendJournal
    from core.drafts.send_journal_keeper import SendJournalKeeper

    journal = SendJournal.for_home(services.paths.home, services.paths.shared)
    asks = [k[0] for k, v in journal.latest_by_draft().items() if v.state == ASK_MAILBOX]
    if not asks:
        return []
    mailer = own_mailer(services)  # None without a usable sign-in: the sender checks later
    if mailer is None:
        return []
    keeper = SendJournalKeeper(services, mailer, lambda _t: None, journal)
    lines: list[tuple[str, str]] = []
    try:
        for draft_id in asks:
            verdict = await keeper.check(draft_id)
            if verdict is not None:
                zh = f"核对发送：草稿 #{draft_id}：{verdict[1]}"
                lines.append((zh, f"checked draft #{draft_id} against Sent Items: {verdict[0]}"))
    finally:
        await close_own_mailer(mailer)
    return lines


def _check_owner_work(services: Services, report: RepairReport) -> None:
    """Every journalled piece of owner work looked up in the repaired store; counts."""
    from sqlalchemy import func

    from core.db.models import Draft, Inquiry, Memory, Message
    from core.db.owner_journal import OwnerJournal, check_restored

    journal = OwnerJournal.for_home(services.paths.home)
    with services.store.session() as session:
        report.owner_found, report.owner_missing = check_restored(session, journal)
        for name, model in (
            ("inquiries", Inquiry),
            ("messages", Message),
            ("drafts", Draft),
            ("memories", Memory),
        ):
            report.counts[name] = int(session.scalar(select(func.count(model.id))) or 0)


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


async def _reingest(services: Services, offline: bool) -> IngestReport:
    from core.app.standalone import own_pipeline
    from core.mail.source import RawMessage
    from core.sources.eml import read_eml

    files = await tasks.io(missing_raw_files, services)
    pipeline = own_pipeline(services, offline=offline)  # no App yet: a model client of its own

    async def raws() -> AsyncIterator[RawMessage]:
        for path in files:
            yield await tasks.io(read_eml, path, f"repair:{path.name}")

    try:
        report = await pipeline.retry_pending()
        report.extend(await pipeline.ingest_source(raws()))
        return report
    finally:
        await pipeline.aclose()


def repair_home(home: str | Path | None, *, offline: bool) -> RepairReport:
    """Repair the data folder ``home`` (None: ``INQUIRY_BRIDGE_HOME`` or the default), logging
    to its log file; what it did, item by item (also the desktop's start-up repair)."""
    from core.logging_setup import setup_logging_or_none
    from core.paths import DataPaths, resolve_home

    paths = DataPaths(resolve_home(home)).ensure()
    _refuse_postgresql(paths.settings_file)
    setup_logging_or_none(paths.logs)
    return repair_folder(paths.home, offline=offline)


def _refuse_postgresql(settings_file: Path) -> None:
    """``repair`` restores the folder's SQLite backups; a PostgreSQL store is not in the folder
    (and restoring the folder's old file would not touch it): say so, change nothing."""
    from core.config import Settings
    from core.db.dialect import POSTGRESQL, store_kind

    url = Settings(settings_file).text("store.url").strip()
    if url and store_kind(url) == POSTGRESQL:
        raise StoreError(
            "数据库在 PostgreSQL 上，repair 只修复数据文件夹里的 SQLite 数据库；"
            "请用 pg_dump / pg_restore 备份和恢复，未作任何改动 / the store is PostgreSQL: "
            "repair restores the folder's SQLite store only; use pg_dump / pg_restore"
        )
