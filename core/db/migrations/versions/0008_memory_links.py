"""memories: where a memory came from, when it expires, how often it was said, where it was used

Revision ID: 0008_memory_links
Revises: 0007_message_source_id
Create Date: 2026-12-02 01:00:00

Why: a customer memory is linked to the customer it names (``inquiry_id``, which existed) and
read back into that customer's prompts; a short-term one ("下周二上门") carries ``expires_at`` and
becomes ``expired`` after it; a duplicate is merged into the older memory (``seen_count``,
``last_seen_at``) instead of being stored twice or dropped; and the memory page shows where it
came from (``channel``) and where it was last used (``last_used_at``, ``last_used_in``).
All columns are nullable or have a server default, so SQLite adds them in place.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008_memory_links"
down_revision = "0007_message_source_id"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("memories", sa.Column("channel", sa.String(length=20), nullable=True))
    op.add_column("memories", sa.Column("expires_at", sa.DateTime(), nullable=True))
    op.add_column(
        "memories",
        sa.Column("seen_count", sa.Integer(), nullable=False, server_default="1"),
    )
    op.add_column("memories", sa.Column("last_seen_at", sa.DateTime(), nullable=True))
    op.add_column("memories", sa.Column("last_used_at", sa.DateTime(), nullable=True))
    op.add_column("memories", sa.Column("last_used_in", sa.String(length=60), nullable=True))
    op.create_index(op.f("ix_memories_expires_at"), "memories", ["expires_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_memories_expires_at"), table_name="memories")
    with op.batch_alter_table("memories") as batch:
        for column in (
            "last_used_in", "last_used_at", "last_seen_at", "seen_count", "expires_at", "channel"
        ):  # fmt: skip
            batch.drop_column(column)
