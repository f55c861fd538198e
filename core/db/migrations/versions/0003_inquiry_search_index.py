"""inquiry_search: a trigram full-text index over inquiries.search_text

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 03:40:00

Why: the board's search box matched with instr() over every row, 50-150 ms per keystroke at
50,000 inquiries. FTS5's trigram tokenizer answers any substring of three or more characters
from an index. The table is external-content (the text lives once, in inquiries) and kept in
step by triggers, so no Python code path can forget it.

Where SQLite lacks FTS5 or the trigram tokenizer (< 3.34), the migration leaves the index out
and core.inquiry.board falls back to the scan: slower, same answers.

On PostgreSQL the same job is a GIN index with ``pg_trgm``'s trigram operator class on
``inquiries.search_text`` (no triggers: PostgreSQL keeps its indexes itself), which serves the
board's ``LIKE '%word%'``. Where the extension cannot be made (a managed server that forbids
it) the index is left out and the search scans, as on SQLite without FTS5.

Careful in later migrations: a batch ALTER of ``inquiries`` copies the table and drops its
triggers; re-create them (``create_triggers`` below) and run ``rebuild``.
"""

from __future__ import annotations

import logging

from alembic import op
from sqlalchemy.exc import OperationalError, ProgrammingError

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

log = logging.getLogger(__name__)

TRIGGERS = (
    """
    CREATE TRIGGER inquiries_search_insert AFTER INSERT ON inquiries BEGIN
        INSERT INTO inquiry_search (rowid, search_text) VALUES (new.id, new.search_text);
    END
    """,
    """
    CREATE TRIGGER inquiries_search_delete AFTER DELETE ON inquiries BEGIN
        INSERT INTO inquiry_search (inquiry_search, rowid, search_text)
        VALUES ('delete', old.id, old.search_text);
    END
    """,
    """
    CREATE TRIGGER inquiries_search_update AFTER UPDATE OF search_text ON inquiries BEGIN
        INSERT INTO inquiry_search (inquiry_search, rowid, search_text)
        VALUES ('delete', old.id, old.search_text);
        INSERT INTO inquiry_search (rowid, search_text) VALUES (new.id, new.search_text);
    END
    """,
)


def create_triggers() -> None:
    for trigger in TRIGGERS:
        op.execute(trigger)


PG_INDEX = "ix_inquiries_search_text_trgm"


def _upgrade_pg() -> None:
    bind = op.get_bind()
    try:
        with bind.begin_nested():  # a refused CREATE EXTENSION must not abort the migration
            bind.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except (OperationalError, ProgrammingError) as exc:
        log.warning("pg_trgm not available (%s); board search scans", exc)
        return
    op.execute(f"CREATE INDEX {PG_INDEX} ON inquiries USING gin (search_text gin_trgm_ops)")


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _upgrade_pg()
        return
    try:
        op.execute(
            "CREATE VIRTUAL TABLE inquiry_search USING fts5("
            "search_text, content='inquiries', content_rowid='id', tokenize='trigram')"
        )
    except OperationalError as exc:  # no FTS5 / no trigram tokenizer in this SQLite build
        log.warning("board search index not available (%s); searching by scan", exc)
        return
    create_triggers()
    op.execute("INSERT INTO inquiry_search (inquiry_search) VALUES ('rebuild')")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP INDEX IF EXISTS {PG_INDEX}")
        return
    for name in ("insert", "delete", "update"):
        op.execute(f"DROP TRIGGER IF EXISTS inquiries_search_{name}")
    op.execute("DROP TABLE IF EXISTS inquiry_search")
