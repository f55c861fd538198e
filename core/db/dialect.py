"""Which engine holds the store, and the few SQL phrases that differ between the two.

The store is SQLite in the data folder (the embedded default) or PostgreSQL
(``INQUIRY_BRIDGE_DATABASE_URL`` / settings ``[store] url``). Everything else in the core writes
portable SQLAlchemy; what each engine spells differently sits here, one construct per phrase,
compiled per dialect so a query is written once and runs on both:

- ``store_kind`` / ``check_url``: ``"sqlite"`` or ``"postgresql"`` from a URL (others refused);
- ``substring_at``: SQLite's ``instr(text, part)``, PostgreSQL's ``strpos`` (1-based, 0 = absent);
- ``contains_text``: ``part`` occurs in ``text`` (case-sensitive): ``instr(…) > 0`` on SQLite,
  ``LIKE '%part%'`` (wildcards escaped) on PostgreSQL, where a ``pg_trgm`` index can answer it;
- ``json_text``: one top-level key of a JSON column as text (``json_extract`` / ``->>``);
- ``insert_ignore``: INSERT … ON CONFLICT DO NOTHING from either dialect's ``insert``.

The board's search index (FTS5 trigram / pg_trgm) is ``core.inquiry.search``'s concern.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from sqlalchemy import Boolean, ColumnExpressionArgument, Integer, String, Table, cast, literal
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import DeclarativeBase, Session
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ColumnElement
from sqlalchemy.sql.functions import FunctionElement

from core.errors import StoreUrlBad

StoreKind = Literal["sqlite", "postgresql"]
SQLITE: StoreKind = "sqlite"
POSTGRESQL: StoreKind = "postgresql"
URL_ENV = "INQUIRY_BRIDGE_DATABASE_URL"
URL_EXAMPLE = "postgresql+psycopg://USER@HOST:5432/DB"
_PASSWORD = re.compile(r"(://[^:/@\s]*:)[^@\s]*@")  # the password between "user:" and "@"


def check_url(url: str | URL) -> URL:
    """The parsed URL of a store we can open; ``StoreUrlBad`` (one Chinese line) otherwise.

    Only the psycopg driver is installed, so ``postgresql://`` means psycopg too."""
    try:
        parsed = make_url(url) if isinstance(url, str) else url
    except (ArgumentError, ValueError) as exc:
        # SQLAlchemy's own English stays out of the owner's line, and so does a password in
        # a URL that did not parse (nothing could mask it as a URL)
        raise StoreUrlBad(_PASSWORD.sub(r"\1***@", str(url))) from exc
    backend = parsed.get_backend_name()
    if backend == SQLITE:
        return parsed
    if backend != POSTGRESQL:
        raise StoreUrlBad(parsed.render_as_string(hide_password=True))
    if parsed.drivername == POSTGRESQL:
        parsed = parsed.set(drivername="postgresql+psycopg")
    elif parsed.get_driver_name() != "psycopg":
        raise StoreUrlBad(parsed.render_as_string(hide_password=True))
    if not parsed.database or not parsed.host:
        raise StoreUrlBad(parsed.render_as_string(hide_password=True))
    return parsed


def store_kind(url: str | URL) -> StoreKind:
    """``"sqlite"`` or ``"postgresql"`` for a store URL (``StoreUrlBad`` for anything else)."""
    return POSTGRESQL if check_url(url).get_backend_name() == POSTGRESQL else SQLITE


def kind_of(bind: Session | Connection | Engine) -> StoreKind:
    """The engine behind a session, connection or engine."""
    if isinstance(bind, Session):
        found = bind.get_bind()
        name = found.dialect.name
    else:
        name = bind.dialect.name
    return POSTGRESQL if name == POSTGRESQL else SQLITE


class substring_at(FunctionElement[int]):
    """Where ``part`` starts in ``text`` (1-based), 0 when absent: a plain, case-sensitive
    substring test without LIKE's wildcards (``substring_at(col, word) > 0``)."""

    type = Integer()
    name = "substring_at"
    inherit_cache = True


@compiles(substring_at)
def _substring_at_sqlite(element: substring_at, compiler: SQLCompiler, **kw: Any) -> str:
    return f"instr({compiler.process(element.clauses, **kw)})"


@compiles(substring_at, "postgresql")
def _substring_at_pg(element: substring_at, compiler: SQLCompiler, **kw: Any) -> str:
    return f"strpos({compiler.process(element.clauses, **kw)})"


class _contains_text(FunctionElement[bool]):
    type = Boolean()
    name = "contains_text"
    inherit_cache = True


def contains_text(column: ColumnExpressionArgument[Any], part: str) -> ColumnElement[bool]:
    """Whether ``part`` occurs in ``column`` as is (no case folding, no wildcards)."""
    pattern = "%" + part.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    return _contains_text(column, literal(part), literal(pattern))


@compiles(_contains_text)
def _contains_text_sqlite(element: _contains_text, compiler: SQLCompiler, **kw: Any) -> str:
    column, part, _pattern = list(element.clauses)
    return f"(instr({compiler.process(column, **kw)}, {compiler.process(part, **kw)}) > 0)"


@compiles(_contains_text, "postgresql")
def _contains_text_pg(element: _contains_text, compiler: SQLCompiler, **kw: Any) -> str:
    column, _part, pattern = list(element.clauses)
    like = f"{compiler.process(column, **kw)} LIKE {compiler.process(pattern, **kw)}"
    return f"({like} ESCAPE '\\')"


class json_text(FunctionElement[str]):
    """One top-level key of a JSON column, as text (``json_text(col, "status") == "open"``)."""

    type = String()
    name = "json_text"
    inherit_cache = True


@compiles(json_text)
def _json_text_sqlite(element: json_text, compiler: SQLCompiler, **kw: Any) -> str:
    column, key = list(element.clauses)
    return f"json_extract({compiler.process(column, **kw)}, '$.' || {compiler.process(key, **kw)})"


@compiles(json_text, "postgresql")
def _json_text_pg(element: json_text, compiler: SQLCompiler, **kw: Any) -> str:
    column, key = list(element.clauses)
    return f"(({compiler.process(column, **kw)})::json ->> {compiler.process(key, **kw)})"


def json_int(column: ColumnExpressionArgument[Any], key: str) -> ColumnElement[int]:
    """``json_text`` read as an integer (NULL when absent)."""
    return cast(json_text(column, key), Integer)


def insert_ignore(
    session: Session, model: type[DeclarativeBase], rows: Sequence[Mapping[str, Any]]
) -> None:
    """INSERT the rows, skipping any that collide with an existing key (either engine)."""
    if not rows:
        return
    if kind_of(session) == POSTGRESQL:
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        session.execute(pg_insert(model).values(list(rows)).on_conflict_do_nothing())
        return
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    session.execute(sqlite_insert(model).values(list(rows)).on_conflict_do_nothing())


def insert_ignore_conn(conn: Connection, table: Table, rows: Sequence[Mapping[str, Any]]) -> int:
    """``insert_ignore`` for a Core table on a connection; returns the rows inserted."""
    if not rows:
        return 0
    if kind_of(conn) == POSTGRESQL:
        from sqlalchemy.dialects.postgresql import insert as pg_insert

        result = conn.execute(pg_insert(table).values(list(rows)).on_conflict_do_nothing())
    else:
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        result = conn.execute(sqlite_insert(table).values(list(rows)).on_conflict_do_nothing())
    return int(result.rowcount or 0)


__all__ = [
    "POSTGRESQL",
    "SQLITE",
    "URL_ENV",
    "StoreKind",
    "check_url",
    "contains_text",
    "insert_ignore",
    "insert_ignore_conn",
    "json_int",
    "json_text",
    "kind_of",
    "store_kind",
    "substring_at",
]
