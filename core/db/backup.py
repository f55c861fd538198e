"""Backups of the database, and restoring the newest good one (Anki's habits).

Why: a damaged database used to mean "file is not a database" and no way back. Copies are made
with SQLite's online backup API (a consistent snapshot while the app keeps running, WAL
included) into ``<data folder>/backups/``:

* before each migration (``core.db.store.upgrade_to_head``);
* whenever the store changed: ``core.db.backup_schedule.OwedBackup`` takes one a few seconds
  after the last write (at most a minute after the first) and when the store closes, so the
  owner's work is never only in the live file (``core.db.owner_journal`` checks it at repair);
* on a schedule: ``maybe_backup`` makes one when the database changed since the newest copy and
  ``MIN_INTERVAL`` has passed (the store calls it when it closes; a long-running app calls it
  from its scheduler);
* thinned like Anki's: the newest few, then one a day, one a week and one a month.

``restore_newest`` moves a damaged database aside (never deletes it) and puts the newest copy that
passes ``PRAGMA quick_check`` in its place. Messages the copy lacks come back from the raw mail
kept on disk (``core.cli.repair``).
"""

from __future__ import annotations

import contextlib
import logging
import re
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from core.tempfiles import partial_file

log = logging.getLogger(__name__)

MIN_INTERVAL = timedelta(hours=1)
KEEP_NEWEST = 3
KEEP_DAILY = 7
KEEP_WEEKLY = 4
KEEP_MONTHLY = 6
_NAME = re.compile(r"^inquiry-bridge-(\d{8}-\d{6})(?:-[\w]+)?\.sqlite3$")
_STAMP = "%Y%m%d-%H%M%S"


@dataclass(frozen=True)
class Backup:
    path: Path
    taken_at: datetime  # naive UTC, from the file name


def _now() -> datetime:
    """Naive UTC now from the process's clock (``INQUIRY_BRIDGE_NOW`` in checks and tests)."""
    from core.clock import SystemClock, clock_from_env, naive_utc

    try:
        clock = clock_from_env()
    except ValueError:
        clock = SystemClock()
    return naive_utc(clock.now())


def list_backups(folder: Path) -> list[Backup]:
    """Every backup in ``folder``, newest first."""
    found: list[Backup] = []
    if not folder.is_dir():
        return found
    for path in folder.iterdir():
        match = _NAME.match(path.name)
        if match:
            with contextlib.suppress(ValueError):
                found.append(Backup(path, datetime.strptime(match.group(1), _STAMP)))
    # same second (a fixed clock, or two in a row): the file written last is the newest
    return sorted(found, key=lambda b: (b.taken_at, _mtime_ns(b.path), b.path.name), reverse=True)


def _mtime_ns(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return 0


def backup_database(
    database: Path, folder: Path, *, reason: str = "auto", now: datetime | None = None
) -> Path | None:
    """A consistent copy of ``database`` in ``folder`` (online backup API); None if there is no
    database yet. Thins old copies afterwards."""
    if not database.exists() or database.stat().st_size == 0:
        return None
    now = now or _now()
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    target = folder / f"inquiry-bridge-{now.strftime(_STAMP)}-{reason}.sqlite3"
    try:
        with partial_file(target) as partial:  # a failed copy (disk full) leaves no .part behind
            _copy_database(database, partial, single_file=True)
            if not is_good(partial):  # a copy of a damaged file must not push good ones out
                raise _DamagedCopy
    except _DamagedCopy:
        log.warning("backup of %s skipped: the database fails its check", database.name)
        return None
    thin(folder, now)
    return target


class _DamagedCopy(Exception):
    """The fresh copy fails ``quick_check``: it is dropped, never kept as a backup."""


def maybe_backup(database: Path, folder: Path, *, now: datetime | None = None) -> Path | None:
    """A scheduled backup: only when the database changed since the newest copy and
    ``MIN_INTERVAL`` has passed since it was taken."""
    if not database.exists():
        return None
    now = now or _now()
    newest = next(iter(list_backups(folder)), None)
    if newest is not None:
        if now - newest.taken_at < MIN_INTERVAL:
            return None
        changed = max(
            (p.stat().st_mtime for p in _database_files(database) if p.exists()), default=0.0
        )
        if changed <= newest.path.stat().st_mtime:
            return None
    return backup_database(database, folder, reason="auto", now=now)


def thin(folder: Path, now: datetime) -> list[Path]:
    """Keep the newest few, then one per day / week / month; returns what was removed."""
    keep: set[Path] = set()
    days: set[object] = set()
    weeks: set[object] = set()
    months: set[object] = set()
    for index, item in enumerate(list_backups(folder)):
        age = now - item.taken_at
        day = item.taken_at.date()
        week = item.taken_at.isocalendar()[:2]
        month = (item.taken_at.year, item.taken_at.month)
        if (
            index < KEEP_NEWEST
            or (age < timedelta(days=KEEP_DAILY) and day not in days)
            or (age < timedelta(weeks=KEEP_WEEKLY) and week not in weeks)
            or (age < timedelta(days=31 * KEEP_MONTHLY) and month not in months)
        ):
            keep.add(item.path)
        if item.path in keep:
            days.add(day)
            weeks.add(week)
            months.add(month)
    removed = []
    for item in list_backups(folder):
        if item.path not in keep:
            with contextlib.suppress(OSError):
                item.path.unlink()
                removed.append(item.path)
    return removed


def is_good(path: Path) -> bool:
    """Whether ``path`` is a SQLite database that passes ``PRAGMA quick_check`` and holds a
    schema. Why the schema: SQLite takes a 0-byte file for an empty database that passes the
    check, so a database cut to nothing was "fine" to ``repair``, which kept it and left the
    good backup unused (and soon thinned away by backups of the empty one)."""
    try:
        if path.stat().st_size == 0:
            return False
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = connection.execute("PRAGMA quick_check").fetchone()
            tables = connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            connection.close()
    except (sqlite3.Error, OSError):
        return False
    return bool(row) and row[0] == "ok" and bool(tables) and tables[0] > 0


def has_good_backup(folder: Path) -> bool:
    """Whether ``folder`` holds a backup ``restore_newest`` could put in place."""
    return any(is_good(item.path) for item in list_backups(folder))


def database_is_good(database: Path) -> bool:
    return database.exists() and is_good(database)


def _database_files(database: Path) -> list[Path]:
    return [
        database,
        database.with_name(database.name + "-wal"),
        database.with_name(database.name + "-shm"),
    ]


def set_aside(database: Path, *, now: datetime | None = None) -> Path | None:
    """Move the database (and its WAL/SHM) to ``<name>.damaged-<time>``; never deletes.

    A name already taken, by a copy or by its WAL/SHM, gets ``-2``, ``-3``…: two repairs in one
    second (a pinned ``INQUIRY_BRIDGE_NOW``, or a repair repeated at once) used to replace the
    copy kept by the first, the one place the owner's damaged data still was."""
    if not database.exists():
        return None
    stamp = (now or _now()).strftime(_STAMP)
    aside = database.with_name(f"{database.name}.damaged-{stamp}")
    n = 1
    while any(path.exists() for path in _database_files(aside)):
        n += 1
        aside = database.with_name(f"{database.name}.damaged-{stamp}-{n}")
    for path in _database_files(database):
        if path.exists():
            path.replace(path.with_name(path.name.replace(database.name, aside.name, 1)))
    return aside


def restore_newest(database: Path, folder: Path) -> Backup | None:
    """Put the newest good backup in place of ``database`` (which must be set aside first);
    None when no good backup exists."""
    for item in list_backups(folder):
        if not is_good(item.path):
            log.warning("backup %s fails its check; trying an older one", item.path.name)
            continue
        _copy_database(item.path, database)
        return item
    return None


def _copy_database(source_path: Path, target_path: Path, *, single_file: bool = False) -> None:
    """SQLite's online backup from ``source_path`` (opened read-only) into ``target_path``:
    consistent even while another connection writes the source. ``single_file``: the copy is
    switched out of WAL mode, so checking it read-only later leaves no ``-wal``/``-shm``
    beside it (every backup used to leave a 0-byte ``.part-wal`` and a ``.part-shm``)."""
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(target_path)
        try:
            source.backup(target)
            if single_file:
                target.execute("PRAGMA journal_mode=DELETE")
        finally:
            target.close()
    finally:
        source.close()


__all__ = [
    "Backup",
    "backup_database",
    "database_is_good",
    "has_good_backup",
    "is_good",
    "list_backups",
    "maybe_backup",
    "restore_newest",
    "set_aside",
    "thin",
]
