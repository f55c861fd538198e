"""inquiry_phones: an index of every number a customer gave

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 03:20:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "inquiry_phones",
        sa.Column("phone", sa.String(length=32), nullable=False),
        sa.Column("inquiry_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["inquiry_id"],
            ["inquiries.id"],
            name=op.f("fk_inquiry_phones_inquiry_id_inquiries"),
        ),
        sa.PrimaryKeyConstraint("phone", "inquiry_id", name=op.f("pk_inquiry_phones")),
    )
    # the numbers already in the customers' context
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            """
            INSERT INTO inquiry_phones (phone, inquiry_id)
            SELECT DISTINCT j.value #>> '{}', i.id
            FROM inquiries AS i,
                 json_array_elements(CASE WHEN json_typeof(i.context_data::json -> 'phones')
                     = 'array' THEN i.context_data::json -> 'phones' ELSE '[]'::json END) AS j
            WHERE json_typeof(j.value) = 'string' AND j.value #>> '{}' <> ''
            ON CONFLICT DO NOTHING
            """
        )
        return
    op.execute(
        """
        INSERT OR IGNORE INTO inquiry_phones (phone, inquiry_id)
        SELECT DISTINCT j.value, i.id
        FROM inquiries AS i, json_each(i.context_data, '$.phones') AS j
        WHERE j.type = 'text' AND j.value <> ''
        """
    )


def downgrade() -> None:
    op.drop_table("inquiry_phones")
