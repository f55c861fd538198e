"""attachments: files the owner adds to a reply from his own computer

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 04:10:00

Why: a reply could only carry files that arrived in the inquiry's email thread, while the file
the owner most needs to send is the quote PDF he just made on his PC. Such a file is stored like
an incoming attachment (bytes content-addressed under the data folder) in an ``attachments`` row
without a message: ``message_pk`` becomes nullable, and the row points at its inquiry
(``inquiry_id``), says who added it (``added_by``) and when (``added_at``).

Only ``attachments`` is batch-copied here. ``inquiries`` must not be: a batch copy would drop
the search-index triggers of 0003.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("attachments", schema=None) as batch_op:
        batch_op.alter_column("message_pk", existing_type=sa.Integer(), nullable=True)
        batch_op.add_column(sa.Column("inquiry_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("added_by", sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column("added_at", sa.DateTime(), nullable=True))
        batch_op.create_index(batch_op.f("ix_attachments_inquiry_id"), ["inquiry_id"], unique=False)
        batch_op.create_foreign_key(
            batch_op.f("fk_attachments_inquiry_id_inquiries"), "inquiries", ["inquiry_id"], ["id"]
        )


def downgrade() -> None:
    # the owner's own files have no message to hang on: they go (their bytes stay on disk)
    op.execute("DELETE FROM attachments WHERE message_pk IS NULL")
    with op.batch_alter_table("attachments", schema=None) as batch_op:
        batch_op.drop_constraint(
            batch_op.f("fk_attachments_inquiry_id_inquiries"), type_="foreignkey"
        )
        batch_op.drop_index(batch_op.f("ix_attachments_inquiry_id"))
        batch_op.drop_column("added_at")
        batch_op.drop_column("added_by")
        batch_op.drop_column("inquiry_id")
        batch_op.alter_column("message_pk", existing_type=sa.Integer(), nullable=False)
