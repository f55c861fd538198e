"""The tables that hold the data folder's files when the store is PostgreSQL (migration 0014).

Used by ``core.db.shared_files``: raw mail and attachments by their path relative to the data
folder, in 1 MB chunks; the knowledge base as a named document; the send journal's lines in
append order. On SQLite they are made too (one schema for both engines) and stay empty. Beside
``core.db.models`` rather than in it only for that module's size; ``core.db.store`` imports this
module, so the tables are part of ``Base.metadata`` wherever a store is opened (Alembic's
environment imports it too).
"""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, DateTime, Integer, LargeBinary, String, Table, Text

from core.db.models import Base

stored_files = Table(
    "stored_files",
    Base.metadata,
    Column("path", String(1000), primary_key=True),
    Column("size", BigInteger, nullable=False),
    Column("sha256", String(64), nullable=False),
)
stored_file_chunks = Table(
    "stored_file_chunks",
    Base.metadata,
    Column("path", String(1000), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("data", LargeBinary, nullable=False),
)
documents = Table(
    "documents",
    Base.metadata,
    Column("name", String(80), primary_key=True),
    Column("text", Text, nullable=False),
    Column("updated_at", DateTime, nullable=False),
)
journal_lines = Table(
    "journal_lines",
    Base.metadata,
    Column("id", Integer, primary_key=True),
    Column("journal", String(40), nullable=False),
    Column("line", Text, nullable=False),
)

__all__ = ["documents", "journal_lines", "stored_file_chunks", "stored_files"]
