from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from core.db.models import Base, include_name
from core.db.store import Store


def test_empty_database_upgrades_to_head_and_matches_models(tmp_path: Path) -> None:
    store = Store(tmp_path / "fresh.sqlite3")
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            head = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            assert head
            context = MigrationContext.configure(conn, opts={"include_name": include_name})
            diff = compare_metadata(context, Base.metadata)
        assert diff == [], f"models and migrations disagree: {diff}"
        tables = set(inspect(store.engine).get_table_names())
        assert {"inquiries", "messages", "stage_events", "llm_calls", "sync_cursors"} <= tables
    finally:
        store.close()


def test_reopening_is_idempotent(tmp_path: Path) -> None:
    Store(tmp_path / "db.sqlite3").close()
    Store(tmp_path / "db.sqlite3").close()


def test_head_read_from_the_files_is_alembics_head() -> None:
    from alembic.script import ScriptDirectory

    from core.db.store import MIGRATIONS, alembic_config, migration_heads

    cfg = alembic_config("sqlite://")
    cfg.set_main_option("script_location", str(MIGRATIONS))
    assert migration_heads() == set(ScriptDirectory.from_config(cfg).get_heads())


def test_an_up_to_date_store_opens_without_importing_alembic(tmp_path: Path) -> None:
    """Start-up speed: Alembic (with Mako and Pygments) is only loaded to migrate."""
    import subprocess
    import sys

    Store(tmp_path / "db.sqlite3").close()
    probe = (
        "import sys; from pathlib import Path; from core.db.store import Store; "
        f"Store(Path({str(tmp_path / 'db.sqlite3')!r})).close(); "
        "print('alembic' in sys.modules)"
    )
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=root
    )
    assert out.stdout.strip() == "False"


def test_a_store_behind_head_is_migrated_and_keeps_its_data(tmp_path: Path) -> None:
    """A data folder written by the 0001 build: opening it runs 0002, which indexes the second
    phone numbers already kept in the customers' context (so the shortcut past Alembic must not
    mistake it for current)."""
    from alembic import command

    from core.db.store import alembic_config, make_engine, migration_heads

    path = tmp_path / "db.sqlite3"
    engine = make_engine(path)
    cfg = alembic_config(str(engine.url))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        conn.execute(
            text(
                "INSERT INTO inquiries (id, classification, confidence, stage, stage_changed_at,"
                " product_types, dimensions, language, owes_reply, context_data, search_text,"
                " created_at, updated_at) VALUES (7, 'A', 'low', 'inquiry', '2026-11-01',"
                " '[]', '[]', 'en', 'us', :ctx, 'jane citizen', '2026-11-01', '2026-11-01')"
            ),
            {"ctx": '{"phones": ["+61412345678", "+61298765432"], "notes": []}'},
        )
    engine.dispose()
    store = Store(path)
    try:
        with store.engine.connect() as conn:
            version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            rows = conn.execute(text("SELECT phone, inquiry_id FROM inquiry_phones")).all()
            indexed = conn.execute(
                text("SELECT rowid FROM inquiry_search WHERE inquiry_search MATCH '\"citizen\"'")
            ).all()
        assert version == migration_heads().pop()
        assert sorted(rows) == [("+61298765432", 7), ("+61412345678", 7)]
        assert indexed == [(7,)]  # 0003 indexed the search text already there
    finally:
        store.close()
