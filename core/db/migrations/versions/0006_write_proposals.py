"""write_proposals: what the assistant wanted to change after reading customer mail

Revision ID: 0006_write_proposals
Revises: 0006_owed_writes
Create Date: 2026-12-01 20:40:00

Why: a turn that has read customer content may only *propose* a stage change, a note or a
OneDrive folder the owner's own words did not ask for (docs/contracts.md principle 7). A proposal is a
row the owner confirms or drops with one click (desktop chat, Telegram, ``proposals``); kept for
the record whatever he decides.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006_write_proposals"
down_revision = "0006_owed_writes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "write_proposals",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("tool", sa.String(length=60), nullable=False),
        sa.Column("inquiry_id", sa.Integer(), nullable=True),
        sa.Column("arguments", sa.JSON(), nullable=False),
        sa.Column("summary_zh", sa.Text(), nullable=False),
        sa.Column("owner_words", sa.Text(), nullable=False),
        sa.Column("channel", sa.String(length=20), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("result", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("decided_at", sa.DateTime(), nullable=True),
        sa.Column("decided_by", sa.String(length=32), nullable=True),
        sa.ForeignKeyConstraint(
            ["inquiry_id"], ["inquiries.id"], name=op.f("fk_write_proposals_inquiry_id_inquiries")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_write_proposals")),
    )
    op.create_index(op.f("ix_write_proposals_status"), "write_proposals", ["status"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_write_proposals_status"), table_name="write_proposals")
    op.drop_table("write_proposals")
