"""``store copy --to URL``: an existing SQLite store into an empty PostgreSQL database.

Why a copy of our own rather than ``pgloader`` or a dump: the target must come out exactly as
Alembic makes it (same migrations, same indexes, ``alembic_version`` at head), and every row
must be checked, not assumed. The steps, all in ONE PostgreSQL transaction, so a failure at any
point leaves the target as empty as it was:

1. the target URL must be PostgreSQL, reachable, the password accepted, and the database empty
   (no table in any schema we would write) — else one Chinese line and nothing is written;
2. the source is opened read-only (``mode=ro``: no WAL switch, no migration, no backup — nothing
   in the data folder changes) and must be at this program's head revision;
3. the schema is made by the migrations, then every table of the models is copied in foreign-key
   order, in batches, values as stored: JSON as its text (SQL NULL stays NULL, not JSON ``null``);
4. each table is read back from both sides in key order and compared row for row (count and
   every value); one difference aborts the copy;
5. the id sequences are moved past the copied ids, so the next inquiry gets the next number,
   and the tables are ANALYZEd for the planner.

6. the data folder's files go into the store too (``core.db.shared_files``): every raw mail and
   attachment (checked by size and sha256 read back from the store), the knowledge base and the
   send journal's lines (compared as text), since on PostgreSQL every desk reads them from there.
   The folder's files are left as they were (the source is never changed).
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Column,
    Table,
    Text,
    bindparam,
    cast,
    create_engine,
    inspect,
    select,
    text,
    type_coerce,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.sql.elements import ColumnElement

from core.db.dialect import POSTGRESQL, check_url
from core.db.models import Base
from core.db.shared_files import FolderCopy, copy_folder
from core.db.store import (
    current_revisions,
    explain,
    explain_pg,
    make_pg_engine,
    migrate_connection,
    migration_heads,
)
from core.errors import InquiryBridgeError, NotFound, StoreError, StoreNotEmpty, StoreUrlBad

BATCH = 2_000


@dataclass
class CopyReport:
    """What was copied: rows per table (each checked), the target and the time it took."""

    target: str
    rows: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    folder: FolderCopy = field(default_factory=FolderCopy)

    @property
    def total(self) -> int:
        return sum(self.rows.values())

    def text(self) -> str:
        tables = len(self.rows)
        files, mb = self.folder.files, self.folder.bytes / 1e6
        return (
            f"已复制到 {self.target}：{tables} 张表、{self.total} 行、{files} 个邮件/附件文件"
            f"（{mb:.1f} MB），逐行核对无误，用时 {self.seconds:.1f} 秒；原数据库和文件未改动 / "
            f"copied to {self.target}: {tables} tables, {self.total} rows, {files} mail and "
            f"attachment files ({mb:.1f} MB), each row checked, in {self.seconds:.1f} s; the "
            "source was not changed"
        )


def copy_store(source: Path, target_url: str) -> CopyReport:
    """Copy the SQLite store at ``source`` into the empty PostgreSQL database ``target_url``."""
    started = time.perf_counter()
    url = check_url(target_url)
    shown = url.render_as_string(hide_password=True)
    if url.get_backend_name() != POSTGRESQL:
        raise StoreUrlBad(shown)
    if not source.is_file():
        raise NotFound(f"数据文件夹里没有数据库 {source} / no database at {source}")
    reader = _read_only(source)
    target = make_pg_engine(url)
    try:
        try:
            _check_source(reader, source)
        except InquiryBridgeError:
            raise
        except Exception as exc:
            raise explain(exc, source) from exc
        try:
            report = CopyReport(shown)
            with reader.connect() as src, target.begin() as dst:
                _refuse_non_empty(dst, shown)
                migrate_connection(dst)
                # rows the migrations seed (the runner lease's one row) come from the source
                for table in reversed(_tables()):
                    dst.execute(table.delete())
                for table in _tables():
                    report.rows[table.name] = _copy_table(src, dst, table)
                    _check_table(src, dst, table, report.rows[table.name])
                _reset_sequences(dst)
                report.folder = copy_folder(source.parent, dst)
                # the planner's statistics: without them the first board queries on a fresh
                # copy guess row counts and may pass the trigram index by
                dst.execute(text("ANALYZE"))
        except InquiryBridgeError:
            raise
        except Exception as exc:
            raise explain_pg(exc, url) from exc
    finally:
        reader.dispose()
        target.dispose()
    report.seconds = time.perf_counter() - started
    return report


def _read_only(source: Path) -> Engine:
    """The source, opened so that nothing can change it (SQLite's ``mode=ro`` URI)."""
    return create_engine(
        f"sqlite:///file:{source.resolve()}?mode=ro&uri=true",
        connect_args={"check_same_thread": False},
    )


def _check_source(reader: Engine, source: Path) -> None:
    current = current_revisions(reader)
    if current != migration_heads():
        raise StoreError(
            f"{source} 的版本（{', '.join(sorted(current)) or '无'}）不是本程序的最新版本，"
            "请先用本程序打开一次再复制 / open it once with this version before copying"
        )


def _refuse_non_empty(dst: Connection, shown: str) -> None:
    tables = inspect(dst).get_table_names()
    if tables:
        listed = "、".join(sorted(tables)[:5]) + ("…" if len(tables) > 5 else "")
        raise StoreNotEmpty(f"{shown}（已有表：{listed}）")


def _tables() -> list[Table]:
    return list(Base.metadata.sorted_tables)


def _is_json(column: Column[Any]) -> bool:
    return isinstance(column.type, JSON)


def _source_columns(table: Table, *, target: bool = False) -> list[ColumnElement[Any]]:
    """Every column as stored; JSON as its raw text, so NULL and ``null`` stay apart (on
    PostgreSQL cast to text: psycopg parses a json column whatever SQLAlchemy says, and the
    json type keeps its input text as it was given)."""
    columns: list[ColumnElement[Any]] = []
    for c in table.columns:
        if not _is_json(c):
            columns.append(c)
        elif target:
            columns.append(cast(c, Text).label(c.name))
        else:
            columns.append(type_coerce(c, Text).label(c.name))
    return columns


def _key_order(table: Table, *, target: bool) -> list[ColumnElement[Any]]:
    """Primary-key order; on PostgreSQL strings in byte order (``"C"``), which is SQLite's."""
    keys: list[ColumnElement[Any]] = []
    for column in table.primary_key.columns:
        if target and column.type.python_type is str:
            keys.append(column.collate("C"))
        else:
            keys.append(column)
    return keys


def _batches(rows: Iterator[Any]) -> Iterator[list[dict[str, Any]]]:
    while True:
        chunk = list(itertools.islice(rows, BATCH))
        if not chunk:
            return
        yield [dict(row._mapping) for row in chunk]


def _copy_table(src: Connection, dst: Connection, table: Table) -> int:
    json_columns = [c.name for c in table.columns if _is_json(c)]
    insert = table.insert()
    if json_columns:
        insert = insert.values(
            {name: cast(bindparam(name, type_=Text), table.c[name].type) for name in json_columns}
        )
    result = src.execute(
        select(*_source_columns(table))
        .order_by(*_key_order(table, target=False))
        .execution_options(stream_results=True, yield_per=BATCH)
    )
    copied = 0
    for chunk in _batches(iter(result)):
        dst.execute(insert, chunk)
        copied += len(chunk)
    return copied


def _read_back(conn: Connection, table: Table, *, target: bool) -> Iterator[Sequence[Any]]:
    # options on the statement: Connection.execution_options would change the connection itself
    stmt = (
        select(*_source_columns(table, target=target))
        .order_by(*_key_order(table, target=target))
        .execution_options(stream_results=True, yield_per=BATCH)
    )
    yield from conn.execute(stmt)


def _check_table(src: Connection, dst: Connection, table: Table, copied: int) -> None:
    """Both sides, row for row in key order: the same count and the same values."""
    count = dst.execute(select(text("count(*)")).select_from(table)).scalar_one()
    if count != copied:
        raise StoreError(f"{table.name}: 复制了 {copied} 行，目标里有 {count} 行 / rows differ")
    pairs = itertools.zip_longest(
        _read_back(src, table, target=False), _read_back(dst, table, target=True)
    )
    for number, (left, right) in enumerate(pairs, start=1):
        if left is None or right is None or tuple(left) != tuple(right):
            raise StoreError(
                f"{table.name}: 第 {number} 行复制后不一致 / row {number} differs after the copy"
            )


def _reset_sequences(dst: Connection) -> None:
    """Each serial id's sequence continues after the largest copied id."""
    for table in _tables():
        keys = list(table.primary_key.columns)
        if len(keys) != 1 or keys[0].type.python_type is not int:
            continue
        name = keys[0].name
        sequence = dst.execute(
            text("SELECT pg_get_serial_sequence(:table, :column)"),
            {"table": table.name, "column": name},
        ).scalar()
        if sequence is None:
            continue
        dst.execute(
            text(
                f'SELECT setval(:sequence, coalesce(max("{name}"), 1), max("{name}") IS NOT NULL) '
                f'FROM "{table.name}"'
            ),
            {"sequence": sequence},
        )
