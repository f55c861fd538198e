"""runner_lease: which process runs the background work of this store

Revision ID: 0010_runner_lease
Revises: 0009_quotes
Create Date: 2026-12-06 19:40:00

Why: more than one process may open one store (a ``serve`` on an always-on box, desktop apps on
office PCs); exactly one of them may poll the mailbox, answer Telegram and fire the reminders.
The one row ``runner`` is the lease: taken and renewed by conditional UPDATEs (``core.db.lease``),
free while ``holder`` is NULL. The row is created here, so taking never races an INSERT.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010_runner_lease"
down_revision = "0009_quotes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    table = op.create_table(
        "runner_lease",
        sa.Column("name", sa.String(length=40), primary_key=True),
        sa.Column("holder", sa.String(length=64), nullable=True),
        sa.Column("pid", sa.Integer(), nullable=True),
        sa.Column("host", sa.String(length=255), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=True),
        sa.Column("since", sa.DateTime(), nullable=True),
        sa.Column("heartbeat_at", sa.DateTime(), nullable=True),
    )
    op.bulk_insert(table, [{"name": "runner"}])


def downgrade() -> None:
    op.drop_table("runner_lease")
