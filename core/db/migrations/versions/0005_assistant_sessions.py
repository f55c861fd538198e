"""assistant_sessions, assistant_turns: conversations with the assistant survive a restart

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 22:40:00

Why: a conversation lived in memory only, so closing the app (or each ``ask``) forgot what the
owner had said and which customer he meant. A session row per (channel, name) holds the current
customer and the summary of its oldest turns; every message of every turn is a row of its own.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "assistant_sessions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("channel", sa.String(length=20), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("current_inquiry_id", sa.Integer(), nullable=True),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("summarised_through", sa.Integer(), nullable=False),
        sa.Column("reviewed_through", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_assistant_sessions")),
    )
    op.create_index(
        "ix_assistant_sessions_channel_name",
        "assistant_sessions",
        ["channel", "name"],
        unique=True,
    )
    op.create_table(
        "assistant_turns",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=12), nullable=False),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("tool_calls", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["session_id"],
            ["assistant_sessions.id"],
            name=op.f("fk_assistant_turns_session_id_assistant_sessions"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_assistant_turns")),
    )
    op.create_index(
        op.f("ix_assistant_turns_session_id"), "assistant_turns", ["session_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index(op.f("ix_assistant_turns_session_id"), table_name="assistant_turns")
    op.drop_table("assistant_turns")
    op.drop_index("ix_assistant_sessions_channel_name", table_name="assistant_sessions")
    op.drop_table("assistant_sessions")
