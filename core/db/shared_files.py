"""The data folder's files, kept in the store when it is PostgreSQL: one place every desk sees.

On SQLite the store and its files share one folder on one machine: raw mail (``mail/…``),
attachments (``attachments/…``), the knowledge base (``knowledge.md``) and the send journal
(``sends.journal``) are files there, and stay so (the embedded default; ``TableFiles`` is not
used). On PostgreSQL two desks share a database but no folder: a mail one desk ingested, a file
the owner attached on the other, the knowledge base he edited on his laptop must all be there for
both. ``TableFiles`` keeps them in the store's tables (migration 0014):

- a *stored file* by its path relative to the data folder (the very string the rows keep in
  ``raw_path``/``stored_path``), in 1 MB chunks so a 300 MB mail is never one value in memory;
  written in its own transaction, committed *before* the row that points at it (as the file is
  written before the row on SQLite), content-addressed so a second desk writing the same bytes
  changes nothing (``ON CONFLICT DO NOTHING`` on the path). A desk reads one through a copy in its
  own cache (``cache/store/<path>``), fetched once and renamed into place whole.
- a *document* (the knowledge base) by name, changed under ``SELECT … FOR UPDATE`` so a save and an
  addition from two desks take turns as they do under the file lock;
- a *journal* (the send journal) as lines in append order, each committed before its caller goes
  on (the journal's rule: the line is durable before the email is submitted).

Why not PostgreSQL large objects: they sit outside the tables ``pg_dump`` users expect, need their
own clean-up, and ``store copy`` checks tables row for row; plain rows need neither.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import os
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.engine import Connection, Engine

from core.db.dialect import POSTGRESQL, insert_ignore_conn
from core.db.send_journal import SHARED_NAME, SendJournal, as_line
from core.db.shared_tables import documents, journal_lines, stored_file_chunks, stored_files
from core.errors import StoreError
from core.tempfiles import partial_file

CHUNK = 1 << 20  # bytes per stored chunk (and per read of a local file)
CACHE_FOLDER = ("cache", "store")  # under the data folder: this desk's copies of stored files


class TableFiles:
    """Stored files, documents and journals in the store's tables (used on PostgreSQL)."""

    def __init__(self, engine: Engine, home: Path) -> None:
        self.engine = engine
        # reads run without BEGIN/ROLLBACK: two of a small fetch's four round trips. Safe, as
        # a stored file never changes once its transaction committed (content-addressed).
        self._reads = engine.execution_options(isolation_level="AUTOCOMMIT")
        self.cache = home.joinpath(*CACHE_FOLDER)
        self._batch = threading.local()

    # ------------------------------------------------------------------ stored files
    def file_for(self, relative: str) -> Path:
        """Where this desk writes (and reads) its copy of the stored file ``relative``."""
        return self.cache / relative

    def keep(self, relative: str) -> None:
        """Put this desk's copy of ``relative`` (just written at ``file_for``) into the store.
        Returns once committed (inside ``batch``: once the batch is); the same path already
        stored (same bytes: the names are content-addressed) costs one query."""
        pending: list[str] | None = getattr(self._batch, "pending", None)
        if pending is not None:
            pending.append(relative)
            return
        self._keep_many([relative])

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """``keep`` calls of this thread inside the block are stored together at its end, in
        one transaction (an intake chunk's raw mail and attachments: one commit, not one per
        file). Nothing is stored when the block fails (its rows are not committed either)."""
        if getattr(self._batch, "pending", None) is not None:
            yield  # nested: the outer batch stores them
            return
        self._batch.pending = []
        try:
            yield
            pending = self._batch.pending
        finally:
            self._batch.pending = None
        self._keep_many(pending)

    def _keep_many(self, relatives: list[str]) -> None:
        wanted = list(dict.fromkeys(relatives))
        if not wanted:
            return
        with self.engine.begin() as conn:
            stored = set(
                conn.scalars(select(stored_files.c.path).where(stored_files.c.path.in_(wanted)))
            )
            for relative in wanted:
                if relative not in stored:
                    keep_file(conn, relative, self.file_for(relative), checked=True)

    def local(self, relative: str) -> Path:
        """This desk's copy of the stored file, fetched from the store when it has none yet.
        A path that does not exist when the store has no such file either (the callers then
        say the file is gone, as they do for a file missing from the folder)."""
        target = self.file_for(relative)
        if target.is_file():
            return target
        with self._reads.connect() as conn:
            blocks = read_chunks(conn, relative)
            first = next(blocks, None)  # one round trip for a stored file; an empty one has
            if first is None and not self._has(conn, relative):  # no chunk, a missing one no row
                return target
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            with partial_file(target, f".{os.getpid()}.fetch") as tmp, tmp.open("wb") as out:
                for block in itertools.chain([first] if first else [], blocks):
                    out.write(block)
        return target

    @staticmethod
    def _has(conn: Connection, relative: str) -> bool:
        found = conn.scalar(select(stored_files.c.size).where(stored_files.c.path == relative))
        return found is not None

    def has(self, relative: str) -> bool:
        with self.engine.connect() as conn:
            found = conn.scalar(select(stored_files.c.path).where(stored_files.c.path == relative))
        return found is not None

    # ------------------------------------------------------------------ documents
    def read_text(self, name: str) -> str | None:
        with self._reads.connect() as conn:
            return conn.scalar(select(documents.c.text).where(documents.c.name == name))

    def update_text(self, name: str, change: Callable[[str | None], str | None]) -> None:
        """``change(current)`` under the row's lock; its answer (None: leave it) is saved."""
        with self.engine.begin() as conn:
            exists, current = _locked_text(conn, name)
            new = change(current)
            if new is None:
                return
            now = func.current_timestamp()  # the server's clock: a stamp for people, not logic
            if not exists:
                conn.execute(documents.insert().values(name=name, text=new, updated_at=now))
                return
            conn.execute(
                documents.update().where(documents.c.name == name).values(text=new, updated_at=now)
            )

    # ------------------------------------------------------------------ journals
    def append_line(self, journal: str, line: bytes) -> None:
        """Append one line, committed before returning (errors propagate: the caller must not
        go on as if it were written)."""
        with self.engine.begin() as conn:
            conn.execute(journal_lines.insert().values(journal=journal, line=line.decode("utf-8")))

    def lines(self, journal: str) -> list[bytes]:
        with self._reads.connect() as conn:
            rows = conn.scalars(
                select(journal_lines.c.line)
                .where(journal_lines.c.journal == journal)
                .order_by(journal_lines.c.id)
            )
            return [line.encode("utf-8") for line in rows]


def _locked_text(conn: Connection, name: str) -> tuple[bool, str | None]:
    """(row exists, its text) with the row locked for this transaction. On PostgreSQL a
    document not made yet is made empty first (an insert two desks may race: one wins, both
    then lock the row); an empty one reads as none, as a missing file does."""
    if conn.dialect.name == POSTGRESQL:
        insert_ignore_conn(
            conn, documents, [{"name": name, "text": "", "updated_at": func.current_timestamp()}]
        )
        text = conn.scalar(
            select(documents.c.text).where(documents.c.name == name).with_for_update()
        )
        return True, text or None
    text = conn.scalar(select(documents.c.text).where(documents.c.name == name))
    return text is not None, text or None


def keep_file(conn: Connection, relative: str, source: Path, *, checked: bool = False) -> int:
    """Store ``source`` as ``relative`` inside ``conn``'s transaction (nothing when that path is
    stored already; ``checked``: the caller looked); returns the bytes read. Another desk
    storing the same path at the same moment (the same bytes: the names are content-addressed)
    is no conflict: inserts that find the key taken do nothing."""
    if not checked:
        found = conn.scalar(select(stored_files.c.path).where(stored_files.c.path == relative))
        if found is not None:
            return 0
    digest = hashlib.sha256()
    size = 0
    with source.open("rb") as stream:
        for seq, block in enumerate(iter(functools.partial(stream.read, CHUNK), b"")):
            digest.update(block)
            size += len(block)
            insert_ignore_conn(
                conn, stored_file_chunks, [{"path": relative, "seq": seq, "data": block}]
            )
    # the file's row last: a desk that sees it sees every chunk (one transaction anyway)
    insert_ignore_conn(
        conn, stored_files, [{"path": relative, "size": size, "sha256": digest.hexdigest()}]
    )
    return size


PAGE = 8  # chunks fetched per query: a small file in one round trip, a big one 8 MB at a time


def read_chunks(conn: Connection, relative: str) -> Iterator[bytes]:
    """The stored file's bytes, a chunk at a time, in order; fetched ``PAGE`` chunks per query
    (a 300 MB mail is never in memory whole; a server-side cursor would cost four round trips
    even for a 2 KB mail)."""
    start = 0
    while True:
        page = conn.scalars(
            select(stored_file_chunks.c.data)
            .where(
                stored_file_chunks.c.path == relative,
                stored_file_chunks.c.seq >= start,
                stored_file_chunks.c.seq < start + PAGE,
            )
            .order_by(stored_file_chunks.c.seq)
        ).all()
        for data in page:
            yield bytes(data)
        if len(page) < PAGE:
            return
        start += PAGE


FOLDERS = ("mail", "attachments")  # the data folder's stored files (DataPaths.raw_mail/attachments)
KNOWLEDGE_FILE, KNOWLEDGE_DOCUMENT = "knowledge.md", "knowledge"  # as core.knowledge names them


@dataclass
class FolderCopy:
    """What ``copy_folder`` put into the store, each item read back and checked."""

    files: int = 0
    bytes: int = 0
    documents: int = 0
    journal_lines: int = 0


BATCH_BYTES = 8 << 20  # chunk rows sent to the server at once by ``copy_folder``


def copy_folder(home: Path, conn: Connection) -> FolderCopy:
    """The data folder's raw mail, attachments, knowledge base and send journal into the store
    (``store copy``, inside its transaction, into a target known to be empty), then read back
    from the store and compared: every file by size and sha256 of its stored chunks against the
    file read, the document and the journal line for line. A difference raises ``StoreError``
    (the caller's transaction then leaves the target empty). Rows go in batches (one round trip
    per ~8 MB, not per file: 55,000 files are a minute of round trips otherwise)."""
    done = FolderCopy()
    expected: dict[str, tuple[int, str]] = {}
    chunks: list[dict[str, object]] = []
    files: list[dict[str, object]] = []
    pending = 0
    for relative, path in folder_files(home):
        digest, size = hashlib.sha256(), 0
        with path.open("rb") as stream:
            for seq, block in enumerate(iter(functools.partial(stream.read, CHUNK), b"")):
                digest.update(block)
                size += len(block)
                pending += len(block)
                chunks.append({"path": relative, "seq": seq, "data": block})
                if pending >= BATCH_BYTES:  # a big mail goes a few chunks at a time
                    _flush(conn, chunks, files)
                    pending = 0
        expected[relative] = (size, digest.hexdigest())
        files.append({"path": relative, "size": size, "sha256": digest.hexdigest()})
        if len(files) >= 2_000:
            _flush(conn, chunks, files)
            pending = 0
    _flush(conn, chunks, files)
    done.files, done.bytes = len(expected), sum(size for size, _ in expected.values())
    if _stored_digests(conn) != expected:
        raise StoreError("邮件/附件文件复制后不一致 / stored files differ after the copy")
    done.documents = _copy_knowledge(home, conn)
    done.journal_lines = _copy_journal(home, conn)
    return done


def _flush(
    conn: Connection, chunks: list[dict[str, object]], files: list[dict[str, object]]
) -> None:
    if chunks:
        conn.execute(stored_file_chunks.insert(), chunks)
    if files:
        conn.execute(stored_files.insert(), files)
    chunks.clear()
    files.clear()


def _stored_digests(conn: Connection) -> dict[str, tuple[int, str]]:
    """(size, sha256) of every stored file, computed from its chunks as read back."""
    found: dict[str, tuple[int, str]] = {}
    current, digest, size = None, hashlib.sha256(), 0
    rows = conn.execute(
        select(stored_file_chunks.c.path, stored_file_chunks.c.data)
        .order_by(stored_file_chunks.c.path, stored_file_chunks.c.seq)
        .execution_options(stream_results=True, yield_per=64)
    )
    for path, data in rows:
        if path != current:
            if current is not None:
                found[current] = (size, digest.hexdigest())
            current, digest, size = path, hashlib.sha256(), 0
        digest.update(data)
        size += len(data)
    if current is not None:
        found[current] = (size, digest.hexdigest())
    for path in conn.scalars(select(stored_files.c.path)):  # empty files have no chunk
        found.setdefault(path, (0, hashlib.sha256().hexdigest()))
    return found


def _copy_knowledge(home: Path, conn: Connection) -> int:
    knowledge = _read_knowledge(home / KNOWLEDGE_FILE)
    if knowledge is None:
        return 0
    now = func.current_timestamp()
    conn.execute(documents.insert().values(name=KNOWLEDGE_DOCUMENT, text=knowledge, updated_at=now))
    stored = conn.scalar(select(documents.c.text).where(documents.c.name == KNOWLEDGE_DOCUMENT))
    if stored != knowledge:
        raise StoreError(f"{KNOWLEDGE_FILE}: 复制后不一致 / differs after the copy")
    return 1


def _copy_journal(home: Path, conn: Connection) -> int:
    lines = [as_line(e) for e in SendJournal.for_home(home).entries()]
    if lines:
        conn.execute(journal_lines.insert(), [{"journal": SHARED_NAME, "line": x} for x in lines])
    stored = conn.scalars(
        select(journal_lines.c.line)
        .where(journal_lines.c.journal == SHARED_NAME)
        .order_by(journal_lines.c.id)
    ).all()
    if list(stored) != lines:
        raise StoreError("sends.journal: 复制后不一致 / differs after the copy")
    return len(lines)


def folder_files(home: Path) -> Iterator[tuple[str, Path]]:
    """(path relative to ``home``, file) of every stored file in the folder, in name order;
    a temporary file of an interrupted write (a dot name) is not one."""
    for folder in FOLDERS:
        for path in sorted((home / folder).rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                yield path.relative_to(home).as_posix(), path


def _read_knowledge(path: Path) -> str | None:
    """The knowledge file as ``core.knowledge`` reads it (UTF-8, else GB18030)."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("gb18030", errors="replace")


def drop_cached(home: Path) -> None:
    """Forget this desk's copies (they are fetched again when needed)."""
    import shutil

    with contextlib.suppress(FileNotFoundError):
        shutil.rmtree(home.joinpath(*CACHE_FOLDER))


__all__ = [
    "CHUNK",
    "FolderCopy",
    "TableFiles",
    "copy_folder",
    "drop_cached",
    "folder_files",
    "keep_file",
    "read_chunks",
]
