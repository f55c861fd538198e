"""The data folder's files, kept in the store when it is PostgreSQL: one place every desk sees.

On SQLite the store and its files share one folder on one machine: raw mail (``mail/…``),
attachments (``attachments/…``), the knowledge base (``knowledge.md``) and the send journal
(``sends.journal``) are files there, and stay so (the embedded default; ``TableFiles`` is not
used). On PostgreSQL two desks share a database but no folder: a mail one desk ingested, a file
the owner attached on the other, the knowledge base he edited on his laptop must all be there for
both. ``TableFiles`` keeps them in the store's tables (migration 0013):

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
import hashlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.engine import Connection, Engine

from core.db.dialect import POSTGRESQL, insert_ignore_conn
from core.db.models import documents, journal_lines, stored_file_chunks, stored_files
from core.db.send_journal import SHARED_NAME, SendJournal, as_line
from core.errors import StoreError
from core.tempfiles import partial_file

CHUNK = 1 << 20  # bytes per stored chunk (and per read of a local file)
CACHE_FOLDER = ("cache", "store")  # under the data folder: this desk's copies of stored files


class TableFiles:
    """Stored files, documents and journals in the store's tables (used on PostgreSQL)."""

    def __init__(self, engine: Engine, home: Path) -> None:
        self.engine = engine
        self.cache = home.joinpath(*CACHE_FOLDER)

    # ------------------------------------------------------------------ stored files
    def file_for(self, relative: str) -> Path:
        """Where this desk writes (and reads) its copy of the stored file ``relative``."""
        return self.cache / relative

    def keep(self, relative: str) -> None:
        """Put this desk's copy of ``relative`` (just written at ``file_for``) into the store.
        Returns once committed; the same path already stored (same bytes: the names are
        content-addressed) costs one query."""
        source = self.file_for(relative)
        with self.engine.begin() as conn:
            keep_file(conn, relative, source)

    def local(self, relative: str) -> Path:
        """This desk's copy of the stored file, fetched from the store when it has none yet.
        A path that does not exist when the store has no such file either (the callers then
        say the file is gone, as they do for a file missing from the folder)."""
        target = self.file_for(relative)
        if target.is_file():
            return target
        with self.engine.connect() as conn:
            size = conn.scalar(select(stored_files.c.size).where(stored_files.c.path == relative))
            if size is None:
                return target
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            with partial_file(target, f".{os.getpid()}.fetch") as tmp, tmp.open("wb") as out:
                for block in read_chunks(conn, relative):
                    out.write(block)
        return target

    def has(self, relative: str) -> bool:
        with self.engine.connect() as conn:
            found = conn.scalar(select(stored_files.c.path).where(stored_files.c.path == relative))
        return found is not None

    # ------------------------------------------------------------------ documents
    def read_text(self, name: str) -> str | None:
        with self.engine.connect() as conn:
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
        with self.engine.connect() as conn:
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


def keep_file(conn: Connection, relative: str, source: Path) -> int:
    """Store ``source`` as ``relative`` inside ``conn``'s transaction (nothing when that path is
    stored already); returns the bytes written."""
    exists = conn.scalar(select(stored_files.c.path).where(stored_files.c.path == relative))
    if exists is not None:
        return 0
    digest = hashlib.sha256()
    size = 0
    with source.open("rb") as stream:
        for seq, block in enumerate(iter(lambda: stream.read(CHUNK), b"")):
            digest.update(block)
            size += len(block)
            conn.execute(stored_file_chunks.insert().values(path=relative, seq=seq, data=block))
    # the file's row last: a desk that sees it sees every chunk (one transaction anyway)
    conn.execute(stored_files.insert().values(path=relative, size=size, sha256=digest.hexdigest()))
    return size


def read_chunks(conn: Connection, relative: str) -> Iterator[bytes]:
    """The stored file's bytes, a chunk at a time, in order."""
    seqs = conn.scalar(
        select(func.count())
        .select_from(stored_file_chunks)
        .where(stored_file_chunks.c.path == relative)
    )
    for seq in range(int(seqs or 0)):
        data = conn.scalar(
            select(stored_file_chunks.c.data).where(
                stored_file_chunks.c.path == relative, stored_file_chunks.c.seq == seq
            )
        )
        if data is not None:
            yield bytes(data)


def stored_digest(conn: Connection, relative: str) -> tuple[int, str] | None:
    """(size, sha256) the store records for ``relative``, re-read from its chunks (the check
    ``store copy`` makes), or None when not stored."""
    if conn.scalar(select(stored_files.c.path).where(stored_files.c.path == relative)) is None:
        return None
    digest = hashlib.sha256()
    size = 0
    for block in read_chunks(conn, relative):
        digest.update(block)
        size += len(block)
    return size, digest.hexdigest()


def file_digest(path: Path) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as stream:
        while block := stream.read(CHUNK):
            digest.update(block)
            size += len(block)
    return size, digest.hexdigest()


FOLDERS = ("mail", "attachments")  # the data folder's stored files (DataPaths.raw_mail/attachments)
KNOWLEDGE_FILE, KNOWLEDGE_DOCUMENT = "knowledge.md", "knowledge"  # as core.knowledge names them


@dataclass
class FolderCopy:
    """What ``copy_folder`` put into the store, each item read back and checked."""

    files: int = 0
    bytes: int = 0
    documents: int = 0
    journal_lines: int = 0


def copy_folder(home: Path, conn: Connection) -> FolderCopy:
    """The data folder's raw mail, attachments, knowledge base and send journal into the store
    (``store copy``, inside its transaction), then each read back from the store and compared:
    every file by size and sha256 of its chunks, the document and the journal line for line.
    A difference raises ``StoreError`` (the caller's transaction then leaves the target empty)."""
    done = FolderCopy()
    for relative, path in folder_files(home):
        done.bytes += keep_file(conn, relative, path)
        if stored_digest(conn, relative) != file_digest(path):
            raise StoreError(f"{relative}: 复制后不一致 / differs after the copy")
        done.files += 1
    knowledge = _read_knowledge(home / KNOWLEDGE_FILE)
    if knowledge is not None:
        now = func.current_timestamp()
        conn.execute(
            documents.insert().values(name=KNOWLEDGE_DOCUMENT, text=knowledge, updated_at=now)
        )
        stored = conn.scalar(select(documents.c.text).where(documents.c.name == KNOWLEDGE_DOCUMENT))
        if stored != knowledge:
            raise StoreError(f"{KNOWLEDGE_FILE}: 复制后不一致 / differs after the copy")
        done.documents += 1
    lines = [as_line(e) for e in SendJournal.for_home(home).entries()]
    for line in lines:
        conn.execute(journal_lines.insert().values(journal=SHARED_NAME, line=line))
    stored_lines = conn.scalars(
        select(journal_lines.c.line)
        .where(journal_lines.c.journal == SHARED_NAME)
        .order_by(journal_lines.c.id)
    ).all()
    if list(stored_lines) != lines:
        raise StoreError("sends.journal: 复制后不一致 / differs after the copy")
    done.journal_lines = len(lines)
    return done


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
    "file_digest",
    "folder_files",
    "keep_file",
    "read_chunks",
    "stored_digest",
]
