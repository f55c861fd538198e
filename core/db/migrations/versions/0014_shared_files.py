"""files, documents and journals in the store (used on PostgreSQL)

Revision ID: 0014_shared_files
Revises: 0013_visits
Create Date: 2026-12-06 23:00:00

Why: on PostgreSQL several desks share one store but no folder. Raw mail and attachments
(``stored_files`` and their 1 MB ``stored_file_chunks``), the knowledge base (``documents``) and
the send journal (``journal_lines``) then live in the store, so every desk sees the same ones
(``core.db.shared_files``). Made on SQLite too (one schema for both engines) but unused there:
the data folder's files stay the embedded default.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014_shared_files"
down_revision = "0013_visits"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "stored_files",
        sa.Column("path", sa.String(length=1000), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("path", name=op.f("pk_stored_files")),
    )
    op.create_table(
        "stored_file_chunks",
        sa.Column("path", sa.String(length=1000), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.PrimaryKeyConstraint("path", "seq", name=op.f("pk_stored_file_chunks")),
    )
    op.create_table(
        "documents",
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_documents")),
    )
    op.create_table(
        "journal_lines",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("journal", sa.String(length=40), nullable=False),
        sa.Column("line", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_journal_lines")),
    )


def downgrade() -> None:
    for table in ("journal_lines", "documents", "stored_file_chunks", "stored_files"):
        op.drop_table(table)
