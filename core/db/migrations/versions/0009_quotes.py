"""quotes: versioned quote documents on an inquiry

Revision ID: 0009_quotes
Revises: 0008_memory_links
Create Date: 2026-12-06 19:30:00

Why: a quote is a document the customer receives (issue 41): line items, GST, deposit, a
version, and the reply draft that carries its PDF. One new table; money is kept as decimal
strings (exact on SQLite and PostgreSQL alike), so nothing here is dialect-specific.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009_quotes"
down_revision = "0008_memory_links"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "quotes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("inquiry_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.String(length=32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("items", sa.JSON(), nullable=False),
        sa.Column("subtotal_ex_gst", sa.String(length=24), nullable=False),
        sa.Column("gst", sa.String(length=24), nullable=False),
        sa.Column("total_inc_gst", sa.String(length=24), nullable=False),
        sa.Column("deposit_percent", sa.Integer(), nullable=False),
        sa.Column("deposit_inc_gst", sa.String(length=24), nullable=False),
        sa.Column("valid_until", sa.String(length=10), nullable=False),
        sa.Column("terms", sa.Text(), nullable=False),
        sa.Column("instruction", sa.Text(), nullable=False),
        sa.Column("unconfirmed_facts", sa.JSON(), nullable=False),
        sa.Column("draft_id", sa.Integer(), nullable=True),
        sa.Column("attachment_id", sa.Integer(), nullable=True),
        sa.Column("created_by", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=True),
        sa.Column("accepted_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["inquiry_id"], ["inquiries.id"], name=op.f("fk_quotes_inquiry_id_inquiries")
        ),
        sa.ForeignKeyConstraint(
            ["draft_id"], ["drafts.id"], name=op.f("fk_quotes_draft_id_drafts")
        ),
        sa.ForeignKeyConstraint(
            ["attachment_id"],
            ["attachments.id"],
            name=op.f("fk_quotes_attachment_id_attachments"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_quotes")),
        sa.UniqueConstraint("inquiry_id", "version", name=op.f("uq_quotes_inquiry_id")),
    )
    op.create_index(op.f("ix_quotes_inquiry_id"), "quotes", ["inquiry_id"], unique=False)
    op.create_index(op.f("ix_quotes_status"), "quotes", ["status"], unique=False)
    op.create_index(op.f("ix_quotes_draft_id"), "quotes", ["draft_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_quotes_draft_id"), table_name="quotes")
    op.drop_index(op.f("ix_quotes_status"), table_name="quotes")
    op.drop_index(op.f("ix_quotes_inquiry_id"), table_name="quotes")
    op.drop_table("quotes")
