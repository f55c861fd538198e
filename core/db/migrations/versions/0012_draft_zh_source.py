"""drafts: which English the Chinese pane is a translation of

Revision ID: 0012_draft_zh_source
Revises: 0011_runner_health
Create Date: 2026-12-06 20:00:00

Why: the owner approves what he reads in Chinese; it must be a translation of the English that
will be sent, made by a call that saw only that English. ``zh_source`` is the fingerprint of
the English the Chinese was made from (``core.drafts.translation.zh_stamp``): when it differs
from the draft's English, approval waits until the Chinese is made again. Nullable: a draft of
an earlier version has none, and is re-translated before it can be approved.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012_draft_zh_source"
down_revision = "0011_runner_health"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("drafts", sa.Column("zh_source", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("drafts") as batch:
        batch.drop_column("zh_source")
