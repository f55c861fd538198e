"""runner_lease.pieces: the runner's health view

Revision ID: 0011_runner_health
Revises: 0010_runner_lease
Create Date: 2026-12-06 20:40:00

Why: the runner writes what each piece of background work is doing (mail, telegram, rhythm,
onedrive → running / idle / failed) with every heartbeat, so ``status --json`` shows the health
view from any machine. The column is nullable: SQLite adds it in place.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011_runner_health"
down_revision = "0010_runner_lease"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("runner_lease", sa.Column("pieces", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("runner_lease") as batch:
        batch.drop_column("pieces")
