"""Opening the store: SQLite in WAL mode, migrated to head by Alembic, one writer thread.

SQLite allows one writer at a time; rather than fight ``database is locked``, every write from
async code goes through ``Store.run`` which executes on the store's database lane (one thread,
``core.tasks.db_lane``), and every write
transaction holds the data folder's writer lock (``core.db.writer_lock``), so writers in other
processes (the tray app beside a CLI ``ingest``) take turns and a check-then-insert cannot race.
Schema creation and migrations hold the same lock and look again once they have it. Reads may use
``Store.session()`` from any thread (WAL lets them run beside the writer) and take no lock; from
async code, ``Store.read`` runs them on the I/O lane (``core.tasks.io``).

With a PostgreSQL URL (``INQUIRY_BRIDGE_DATABASE_URL``, ``core.db.dialect``) the same ``Store``
opens that database instead: no WAL, no folder lock (the store is shared by machines that share
no folder); a write transaction takes a PostgreSQL advisory lock instead, so writers on every
machine still take turns, and migrations run under another one. Backups of the folder are
SQLite's; PostgreSQL is backed up with ``pg_dump``.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import logging
import re
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from sqlalchemy import create_engine, event, func, inspect, select, text
from sqlalchemy.engine import URL, Connection, Engine
from sqlalchemy.orm import Session, sessionmaker

from core import tasks
from core.db import (
    owner_journal,
    shared_tables,  # noqa: F401  (its tables join Base.metadata)
)
from core.db.backup_schedule import OwedBackup
from core.db.dialect import POSTGRESQL, SQLITE, StoreKind, check_url
from core.db.writer_lock import WriterLock
from core.errors import (
    DatabaseBusy,
    DatabaseDamaged,
    DataFolderUnusable,
    DiskFull,
    InquiryBridgeError,
    StoreAuthRefused,
    StoreError,
    StoreForeign,
    StoreNewer,
    StoreUnreachable,
)

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy.engine.interfaces import DBAPIConnection, DBAPICursor
    from sqlalchemy.pool import ConnectionPoolEntry

log = logging.getLogger(__name__)
T = TypeVar("T")

MIGRATIONS = Path(__file__).with_name("migrations")


WAL_SWITCH_WAIT = 30.0  # seconds a fresh database's one-time switch to WAL keeps trying


def _on_connect(
    dbapi_connection: DBAPIConnection, _record: ConnectionPoolEntry, *, folder: Path
) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA busy_timeout=10000")  # first: every statement below may wait
    _use_wal(cursor, folder)
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    # 16 MB of page cache per connection (SQLite's default is 2 MB): the board's search index
    # and its covering index then stay in memory between keystrokes at 50,000 inquiries
    cursor.execute("PRAGMA cache_size=-16000")
    cursor.close()


def _use_wal(cursor: DBAPICursor, folder: Path) -> None:
    """Put the database in WAL mode (a lasting property of the file), once, for every process.

    Why not simply ``PRAGMA journal_mode=WAL`` on every connection: on a database not yet in
    WAL the switch needs an exclusive lock, and while another connection holds the file's write
    lock (a second process switching it at the same moment) SQLite answers ``database is
    locked`` at once, without its busy handler (measured: 0.0 s under a 5 s busy timeout). Two
    ``sync --once`` started together on a fresh folder then lost one of them at start-up. Now a
    database already in WAL (every one after its first connection) skips the switch; a fresh one
    switches under the folder's writer lock, so our processes take turns, and the switch is
    tried again for up to ``WAL_SWITCH_WAIT`` s while a foreign connection writes.
    """
    import sqlite3
    import time

    if str(cursor.execute("PRAGMA journal_mode").fetchone()[0]).lower() == "wal":
        return
    with WriterLock(folder).hold():
        deadline = time.monotonic() + WAL_SWITCH_WAIT
        while True:
            try:
                cursor.execute("PRAGMA journal_mode=WAL").fetchall()
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc).lower() or time.monotonic() > deadline:
                    raise
                time.sleep(0.02)


def make_engine(path: Path) -> Engine:
    engine = create_engine(f"sqlite:///{path}", connect_args={"check_same_thread": False})
    event.listen(engine, "connect", functools.partial(_on_connect, folder=path.parent))
    return engine


# advisory lock keys (any fixed 64-bit numbers; only this application takes them)
WRITE_LOCK_KEY = 0x1B_5707E_0001
MIGRATE_LOCK_KEY = 0x1B_5707E_0002
PG_CONNECT_TIMEOUT = 10  # seconds: an unreachable server fails the start-up, it does not hang it


def make_pg_engine(url: URL) -> Engine:
    """A pooled engine on a PostgreSQL store; ``pool_pre_ping`` because a server restart (or a
    NAS waking up) leaves dead connections in the pool, which must cost a retry, not a round."""
    return create_engine(
        url, pool_pre_ping=True, connect_args={"connect_timeout": PG_CONNECT_TIMEOUT}
    )


_REVISION = re.compile(
    r"^(down_revision|revision)\s*(?::[^=]*)?=\s*(None|\([^)]*\)|['\"][\w-]+['\"])", re.M
)
_NAME = re.compile(r"['\"]([\w-]+)['\"]")


def migration_heads() -> set[str]:
    """The head revisions, read from the migration files' ``revision``/``down_revision`` lines.

    Why not Alembic's ScriptDirectory: importing Alembic costs ~0.35 s (it drags in Mako and
    Pygments), a sixth of the tray app's start-up budget, to learn that an up-to-date database
    needs nothing. A test checks this answer against Alembic's own.
    """
    revisions: set[str] = set()
    parents: set[str] = set()
    for script in (MIGRATIONS / "versions").glob("*.py"):
        for kind, value in _REVISION.findall(script.read_text(encoding="utf-8")):
            names = _NAME.findall(value)  # a merge revision names its parents in a tuple
            if kind == "revision":
                revisions.update(names)
            else:
                parents.update(names)
    return revisions - parents


def current_revisions(engine: Engine) -> set[str]:
    """What ``alembic_version`` says; empty for a new database."""
    with engine.connect() as connection:
        return _revisions(connection)


def _revisions(connection: Connection) -> set[str]:
    if not inspect(connection).has_table("alembic_version"):
        return set()
    return {row[0] for row in connection.execute(text("SELECT version_num FROM alembic_version"))}


def known_revisions() -> set[str]:
    """Every revision this program's migration files name."""
    found: set[str] = set()
    for script in (MIGRATIONS / "versions").glob("*.py"):
        for kind, value in _REVISION.findall(script.read_text(encoding="utf-8")):
            if kind == "revision":
                found.update(_NAME.findall(value))
    return found


def refuse_unknown(connection: Connection, current: set[str]) -> None:
    """A database this program must not migrate: one of a newer Inquiry Bridge (a revision we
    do not have) or of another application (tables, but no ``alembic_version`` of ours)."""
    name = connection.engine.url.render_as_string(hide_password=True)
    if current - known_revisions():
        raise StoreNewer(f"{name}: {', '.join(sorted(current))}")
    if not current:
        tables = [t for t in inspect(connection).get_table_names() if t != "alembic_version"]
        if tables:
            raise StoreForeign(f"{name}: {', '.join(sorted(tables)[:5])}")


def alembic_config(engine_url: str) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", engine_url)
    return cfg


def upgrade_to_head(
    engine: Engine, backups: Path | None = None, lock: WriterLock | None = None
) -> None:
    """Migrate to head; Alembic is imported only when there is something to do. An existing
    database is backed up into ``backups`` first (``core.db.backup``). With ``lock`` the work
    happens while holding the folder's writer lock, after looking again: a second process that
    waited finds the schema made and does nothing."""
    heads = migration_heads()
    if heads and current_revisions(engine) == heads:
        return
    if lock is None:
        _upgrade(engine, heads, backups)
        return
    with lock.hold():
        _upgrade(engine, heads, backups)


def _upgrade(engine: Engine, heads: set[str], backups: Path | None) -> None:
    if engine.dialect.name == POSTGRESQL:
        _upgrade_pg(engine, heads)
        return
    current = current_revisions(engine)
    if heads and current == heads:
        return
    with engine.connect() as connection:
        refuse_unknown(connection, current)
    database = engine.url.database
    if not current and backups is not None and database and _has_good_backup(backups):
        # no schema, yet this folder has backups: the database was cut to nothing or removed.
        # Making a fresh one would hide the loss (an empty board) and its backups would thin
        # the good ones away; ``repair`` restores the newest good backup instead.
        raise DatabaseDamaged(database)
    if current and backups is not None and database:
        from core.db.backup import backup_database

        backup_database(Path(database), backups, reason="pre-migration")
    from alembic import command

    cfg = alembic_config(str(engine.url))
    with engine.begin() as connection:
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")


def _upgrade_pg(engine: Engine, heads: set[str]) -> None:
    """Migrate a PostgreSQL store in one transaction under an advisory lock: a second process
    waits, then finds the schema made (PostgreSQL's DDL is transactional: a failed migration
    leaves nothing half-made). No folder backup: ``pg_dump`` is PostgreSQL's."""
    with engine.begin() as connection:
        connection.execute(select(func.pg_advisory_xact_lock(MIGRATE_LOCK_KEY)))
        current = _revisions(connection)
        if heads and current == heads:
            return
        refuse_unknown(connection, current)
        migrate_connection(connection)


def migrate_connection(connection: Connection) -> None:
    """Alembic's upgrade to head on a connection inside the caller's transaction."""
    from alembic import command

    cfg = alembic_config(connection.engine.url.render_as_string(hide_password=False))
    cfg.attributes["connection"] = connection
    command.upgrade(cfg, "head")


def _has_good_backup(backups: Path) -> bool:
    from core.db.backup import has_good_backup

    return has_good_backup(backups)


class Store:
    """The database of one data folder (SQLite), or the shared PostgreSQL one at ``url``.

    ``kind`` says which (``"sqlite"`` / ``"postgresql"``); ``path`` stays the data folder's
    database file either way, since the folder's journals and backups are placed beside it."""

    def __init__(self, path: Path, migrate: bool = True, url: str | None = None) -> None:
        self.path = path
        self.backups = path.parent / "backups"
        self.writer_lock = WriterLock(path.parent)
        parsed = check_url(url) if url and url.strip() else None
        self.kind: StoreKind = (
            POSTGRESQL if parsed is not None and parsed.get_backend_name() == POSTGRESQL else SQLITE
        )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if parsed is not None and self.kind == POSTGRESQL:
                self.engine = make_pg_engine(parsed)
                if migrate:
                    upgrade_to_head(self.engine)
            else:
                if parsed is not None and parsed.database:
                    self.path = path = Path(parsed.database)
                    self.backups = path.parent / "backups"
                    self.writer_lock = WriterLock(path.parent)
                self.engine = make_engine(path)
                if migrate:
                    upgrade_to_head(self.engine, self.backups, self.writer_lock)
        except Exception as exc:  # sqlite3/psycopg/alembic errors all mean "cannot open"
            if hasattr(self, "engine"):
                self.engine.dispose()  # no connection left open behind a refusal
            if self.kind == POSTGRESQL and parsed is not None:
                raise explain_pg(exc, parsed) from exc
            raise explain(exc, path) from exc
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        owner_journal.install(self._sessions, owner_journal.OwnerJournal.for_home(path.parent))
        self.owed_backup = OwedBackup(path, self.backups)
        self.lane = tasks.db_lane()  # the one writer thread of this database
        self._write_lock = threading.RLock()

    @contextlib.contextmanager
    def session(self) -> Iterator[Session]:
        """A session that commits on success and rolls back on error."""
        session = self._sessions()
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()

    def write(self, fn: Callable[[Session], T]) -> T:
        """Run ``fn`` in one transaction, serialised with every other writer (threads of this
        process by ``_write_lock``, other processes by the folder's writer lock)."""
        if self.kind == POSTGRESQL:
            with self._write_lock, self.session() as session:
                # writers on every machine take turns, as the folder lock makes them on SQLite;
                # released by the commit (or rollback)
                session.execute(select(func.pg_advisory_xact_lock(WRITE_LOCK_KEY)))
                return fn(session)
        with self._write_lock, self.writer_lock.hold():
            with self.session() as session:
                result = fn(session)
            self.owed_backup.owe()  # committed: a copy is owed (core.db.backup_schedule)
            return result

    async def run(self, fn: Callable[[Session], T], *, queued: bool = True) -> T:
        """``write`` on the writer thread, awaited from asyncio without blocking the loop.

        ``queued=False`` runs it on the I/O lane instead: still serialised with every writer by
        ``write``'s locks, but waiting for at most the one transaction in progress rather than
        behind every batch queued on the writer thread (the LLM ledger's rows, which intake
        messages await between their classify and extract calls).

        A coroutine stepped while no loop runs (qasync finishing the tasks a closing window
        spawned, after its loop stopped) writes in place instead of failing: the owner's last
        click is still saved.
        """
        loop = _running_loop()
        if loop is None:
            return self.write(fn)
        if not queued:
            return await tasks.io(self.write, fn)
        return await self.lane.run(self.write, fn)

    async def read(self, fn: Callable[[Session], T]) -> T:
        """A read off the event loop thread (long queries never block the UI)."""
        if _running_loop() is None:
            return self._read(fn)
        return await tasks.io(self._read, fn)

    def read_started(self, fn: Callable[[Session], T]) -> asyncio.Future[T]:
        """``read``, already under way on a worker when this returns (``tasks.io_started``).
        Needs the running loop."""
        return tasks.io_started(self._read, fn)

    def _read(self, fn: Callable[[Session], T]) -> T:
        with self.session() as session:
            return fn(session)

    def close(self) -> None:
        """Finish writes, then take the owed backup (or the scheduled one, ``maybe_backup``,
        for changes made outside ``write``)."""
        self.lane.close(wait=True)
        self.engine.dispose()
        if self.kind == POSTGRESQL:
            return  # backed up with pg_dump, not into the folder
        try:
            from core.db.backup import maybe_backup

            if self.owed_backup.close() is None:
                maybe_backup(self.path, self.backups)
        except Exception:  # a failed backup must not turn a finished command into an error
            log.warning("scheduled backup of %s failed", self.path, exc_info=True)


_DAMAGED = ("file is not a database", "malformed", "file is encrypted", "not a database")
_FULL = ("database or disk is full", "no space left")
_BUSY = ("database is locked", "database table is locked", "unique constraint failed")
_FOLDER = ("unable to open database file", "readonly database", "read-only file system")


def explain(exc: BaseException, path: Path) -> InquiryBridgeError:
    """The owner's one-line reason for a failure around the database or the data folder.

    SQLAlchemy wraps sqlite3's message with a link to its docs; the owner needs what happened
    and what to do: damaged → ``repair``; folder missing/unwritable → check it or ``--home``;
    disk full → free space; locked or a lost race with another writer → busy, try again.
    Anything else stays a ``StoreError`` with sqlite3's own words.
    """
    if isinstance(exc, InquiryBridgeError):
        return exc
    original = getattr(exc, "orig", None) or exc
    if type(original).__module__.startswith("psycopg"):  # the store is PostgreSQL
        return explain_pg(exc, "PostgreSQL")
    text = str(original).lower()
    if (isinstance(original, OSError) and original.errno in (errno.ENOSPC, errno.EFBIG)) or any(
        t in text for t in _FULL
    ):
        return DiskFull(str(path.parent))
    if any(t in text for t in _DAMAGED):
        return DatabaseDamaged(str(path))
    if any(t in text for t in _BUSY):  # another writer, not damage: nothing was lost
        return DatabaseBusy(str(path))
    if isinstance(original, PermissionError | NotADirectoryError | FileNotFoundError) or any(
        t in text for t in _FOLDER
    ):
        return DataFolderUnusable(str(path.parent))
    if isinstance(original, OSError) and original.errno in (errno.EROFS, errno.EACCES):
        return DataFolderUnusable(str(path.parent))
    return StoreError(
        f"{path}: {str(original).splitlines()[0] if str(original) else type(original).__name__}"
    )


_PG_UNREACHABLE = (
    "connection refused",
    "could not connect",
    "timeout expired",
    "could not translate host name",
    "name or service not known",
    "no route to host",
    "server closed the connection",
    "network is unreachable",
    "connection timed out",
)
_PG_AUTH = ("password authentication failed", "no password supplied", "role ", "no pg_hba.conf")


def explain_pg(exc: BaseException, url: URL | str) -> InquiryBridgeError:
    """``explain`` for a PostgreSQL store: no server, refused login, or the server's words."""
    if isinstance(exc, InquiryBridgeError):
        return exc
    original = getattr(exc, "orig", None) or exc
    said = str(original).strip()
    lowered = said.lower()
    where = url.render_as_string(hide_password=True) if isinstance(url, URL) else url
    if any(t in lowered for t in _PG_AUTH):
        return StoreAuthRefused(f"{where}: {_last_line(said)}")
    if any(t in lowered for t in _PG_UNREACHABLE):
        return StoreUnreachable(where)
    return StoreError(f"{where}: {_last_line(said) or type(original).__name__}")


def _last_line(said: str) -> str:
    """The server's own sentence: libpq's first line (its later ones quote SQL and a caret)."""
    lines = [line.strip() for line in said.splitlines() if line.strip()]
    return lines[0] if lines else ""


def explain_any(exc: BaseException) -> BaseException:
    """``explain`` for an exception from anywhere in a command: database (sqlite3/SQLAlchemy)
    and file-system failures get the owner's sentence; anything else is returned as is."""
    import sqlite3

    from sqlalchemy.exc import DBAPIError

    if isinstance(exc, DBAPIError | sqlite3.Error):
        return explain(exc, Path(str(getattr(exc, "filename", "") or "inquiry-bridge.sqlite3")))
    if isinstance(exc, OSError) and (
        exc.errno
        in (errno.ENOSPC, errno.EFBIG, errno.EACCES, errno.EROFS, errno.ENOTDIR, errno.ENOENT)
        or isinstance(exc, PermissionError)
    ):
        target = Path(str(exc.filename or "."))
        full = exc.errno in (errno.ENOSPC, errno.EFBIG)
        return explain(exc, target / "x" if not full else target)
    return exc


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
