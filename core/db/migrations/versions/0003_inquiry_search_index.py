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

Careful in later migrations: a batch ALTER of ``inquiries`` copies the table and drops its
triggers; re-create them (``create_triggers`` below) and run ``rebuild``.
"""

from __future__ import annotations

import logging

from alembic import op
from sqlalchemy.exc import OperationalError

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


def upgrade() -> None:
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
    for name in ("insert", "delete", "update"):
        op.execute(f"DROP TRIGGER IF EXISTS inquiries_search_{name}")
    op.execute("DROP TABLE IF EXISTS inquiry_search")
