"""indexes the board's sort orders walk, and one for "needs me"

Revision ID: 0015_board_sort_indexes
Revises: 0014_shared_files
Create Date: 2026-12-07 06:30:00

Why: the board shows one page of 200 rows sorted by the column he clicked. A column without an
index on its sort key made SQLite read and sort all 50,000 inquiries for that page (25-50 ms a
click, #44); with one it walks the index and stops after the page (under 1 ms). The keys are
the exact expressions ``core.inquiry.board`` sorts by: a planner uses an expression index only
for the same expression (``tests/desktop/test_board_sort_plan.py`` holds the two together).
Expression indexes are not declared in the ORM: alembic's compare cannot reflect them.
"""

from __future__ import annotations

from alembic import op

revision = "0015_board_sort_indexes"
down_revision = "0014_shared_files"
branch_labels = None
depends_on = None

_STAGE_RANK = (
    "CASE stage "
    "WHEN 'inquiry' THEN 0 WHEN 'measure' THEN 1 WHEN 'quoting' THEN 2 WHEN 'follow_up' THEN 3 "
    "WHEN 'ordered' THEN 4 WHEN 'production' THEN 5 WHEN 'install' THEN 6 WHEN 'done' THEN 7 "
    "WHEN 'lost' THEN 8 ELSE 99 END"
)
_OWES_SINCE = "CASE WHEN (owes_reply = 'us') THEN last_inbound_at ELSE last_outbound_at END"
# name -> the indexed expressions, as the board's ORDER BY renders them
INDEXES = {
    "ix_inquiries_sort_customer": "lower(coalesce(customer_name, customer_email))",
    "ix_inquiries_sort_suburb": "lower(suburb)",
    "ix_inquiries_sort_products": "CAST(product_types AS TEXT)",
    "ix_inquiries_sort_classification": "classification",
    "ix_inquiries_sort_stage": f"({_STAGE_RANK})",
    "ix_inquiries_sort_owes": f"owes_reply, ({_OWES_SINCE})",
    "ix_inquiries_sort_days": "stage_changed_at",
}


# "needs me" (the tray's count on every change, the board's first page): its columns only, so
# the count reads a narrow index instead of every wide row (20 -> 12 ms at 50,000); declared in
# the ORM (``Inquiry.__table_args__``)
NEEDS_ME = ("stage", "classification", "owes_reply", "stage_changed_at")


def upgrade() -> None:
    for name, expressions in INDEXES.items():
        op.execute(f"CREATE INDEX IF NOT EXISTS {name} ON inquiries ({expressions})")
    op.create_index("ix_inquiries_needs_me", "inquiries", list(NEEDS_ME), if_not_exists=True)


def downgrade() -> None:
    op.drop_index("ix_inquiries_needs_me", table_name="inquiries", if_exists=True)
    for name in INDEXES:
        op.execute(f"DROP INDEX IF EXISTS {name}")
