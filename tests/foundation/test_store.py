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


def test_a_store_behind_head_is_still_migrated(tmp_path: Path, monkeypatch) -> None:
    """The shortcut must not mistake an old database for a current one: when the files name a
    head the database does not have, Alembic runs."""
    from alembic import command

    import core.db.store as store_module

    path = tmp_path / "db.sqlite3"
    Store(path).close()
    calls: list[str] = []
    real_upgrade = command.upgrade
    monkeypatch.setattr(
        command, "upgrade", lambda cfg, rev: calls.append(rev) or real_upgrade(cfg, rev)
    )
    Store(path).close()
    assert calls == []  # current: nothing to do
    monkeypatch.setattr(store_module, "migration_heads", lambda: {"0002"})
    Store(path).close()
    assert calls == ["head"]
