"""visits: measuring visits he confirmed, and the quarter hours each one holds

Revision ID: 0013_visits
Revises: 0012_draft_zh_source
Create Date: 2026-12-06 23:00:00

Why: two visits must never be booked into one slot, and an IMAP user (no Outlook calendar)
needs a calendar at all (issue 41). ``visits`` is the app's own calendar; ``visit_slots`` has
one row per quarter hour a booked visit holds, keyed by that quarter hour, so a second booking
of any of them fails on the primary key -- on SQLite and PostgreSQL alike, whichever desk books.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013_visits"
down_revision = "0012_draft_zh_source"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "visits",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("inquiry_id", sa.Integer(), nullable=False),
        sa.Column("start_at", sa.DateTime(), nullable=False),
        sa.Column("end_at", sa.DateTime(), nullable=False),
        sa.Column("status", sa.String(length=12), nullable=False),
        sa.Column("event_id", sa.String(length=400), nullable=True),
        sa.Column("confirmation_draft_id", sa.Integer(), nullable=True),
        sa.Column("reminder_draft_id", sa.Integer(), nullable=True),
        sa.Column("created_by", sa.String(length=32), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["inquiry_id"], ["inquiries.id"], name=op.f("fk_visits_inquiry_id_inquiries")
        ),
        sa.ForeignKeyConstraint(
            ["confirmation_draft_id"],
            ["drafts.id"],
            name=op.f("fk_visits_confirmation_draft_id_drafts"),
        ),
        sa.ForeignKeyConstraint(
            ["reminder_draft_id"], ["drafts.id"], name=op.f("fk_visits_reminder_draft_id_drafts")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_visits")),
    )
    op.create_index(op.f("ix_visits_inquiry_id"), "visits", ["inquiry_id"], unique=False)
    op.create_index(op.f("ix_visits_start_at"), "visits", ["start_at"], unique=False)
    op.create_index(op.f("ix_visits_status"), "visits", ["status"], unique=False)
    op.create_table(
        "visit_slots",
        sa.Column("slot_at", sa.DateTime(), nullable=False),
        sa.Column("visit_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["visit_id"], ["visits.id"], name=op.f("fk_visit_slots_visit_id_visits")
        ),
        sa.PrimaryKeyConstraint("slot_at", name=op.f("pk_visit_slots")),
    )
    op.create_index(op.f("ix_visit_slots_visit_id"), "visit_slots", ["visit_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_visit_slots_visit_id"), table_name="visit_slots")
    op.drop_table("visit_slots")
    op.drop_index(op.f("ix_visits_status"), table_name="visits")
    op.drop_index(op.f("ix_visits_start_at"), table_name="visits")
    op.drop_index(op.f("ix_visits_inquiry_id"), table_name="visits")
    op.drop_table("visits")
