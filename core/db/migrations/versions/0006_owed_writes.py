"""owed_writes: folder moves (and other writes) owed to a remote service survive a restart

Revision ID: 0006_owed_writes
Revises: 0005
Create Date: 2026-12-01 20:20:00

Why: a stage changed in the app owes OneDrive a folder move, and that debt lived in the tray
watcher's memory: a stage changed by ``ask``, the CLI or the Telegram runner (or a restart
before the next round) was never moved. The row is written in the stage change's own
transaction and closed by whichever process next talks to Graph.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_owed_writes"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "owed_writes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("inquiry_id", sa.Integer(), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("outcome", sa.Text(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("claimed_until", sa.DateTime(), nullable=True),
        sa.Column("done_at", sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_owed_writes")),
    )
    op.create_index(op.f("ix_owed_writes_inquiry_id"), "owed_writes", ["inquiry_id"], unique=False)
    op.create_index("ix_owed_writes_status_kind", "owed_writes", ["status", "kind"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_owed_writes_status_kind", table_name="owed_writes")
    op.drop_index(op.f("ix_owed_writes_inquiry_id"), table_name="owed_writes")
    op.drop_table("owed_writes")
