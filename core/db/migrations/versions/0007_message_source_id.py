"""messages.graph_id → messages.source_id: a message's identity at any source, not only Graph

Revision ID: 0007_message_source_id
Revises: 0006_owed_writes
Create Date: 2026-12-01 20:30:00

Why: the mailbox is no longer Outlook-only. An IMAP message is known by its folder, UIDVALIDITY
and UID (``imap:inbox:1796155641:42``), a Graph message by its immutable id; both live in the one
unique column, renamed for what it holds. Values are kept as they are (every existing row with
an id came from Graph, and ``source`` says so).

SQLite renames the column in place (``ALTER TABLE … RENAME COLUMN``, 3.25+). The table is not
copied: attachments and drafts point at it, and a copy under enforced foreign keys fails. So the
unique constraint keeps the name it got in 0001 (``uq_messages_graph_id``); the model says so.
"""

from __future__ import annotations

from alembic import op

revision = "0007_message_source_id"
down_revision = "0006_write_proposals"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("ALTER TABLE messages RENAME COLUMN graph_id TO source_id")


def downgrade() -> None:
    op.execute("ALTER TABLE messages RENAME COLUMN source_id TO graph_id")
