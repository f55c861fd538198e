from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from core.db.models import Base
from core.db.store import Store


def test_empty_database_upgrades_to_head_and_matches_models(tmp_path: Path) -> None:
    store = Store(tmp_path / "fresh.sqlite3")
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            head = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            assert head
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert diff == [], f"models and migrations disagree: {diff}"
        tables = set(inspect(store.engine).get_table_names())
        assert {"inquiries", "messages", "stage_events", "llm_calls", "sync_cursors"} <= tables
    finally:
        store.close()


def test_reopening_is_idempotent(tmp_path: Path) -> None:
    Store(tmp_path / "db.sqlite3").close()
    Store(tmp_path / "db.sqlite3").close()
