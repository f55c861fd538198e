from __future__ import annotations

import warnings
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
            with warnings.catch_warnings():  # 0015's sort indexes: expressions, not reflected
                warnings.filterwarnings("ignore", "Skipped unsupported reflection of expression")
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
    # one line of history: two branches that each added a migration on the same parent leave
    # two heads, and no store could be upgraded ("Multiple head revisions")
    assert len(migration_heads()) == 1, migration_heads()


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


def _at_revision(path: Path, revision: str):  # type: ignore[no-untyped-def]
    from alembic import command

    from core.db.store import alembic_config, make_engine

    engine = make_engine(path)
    cfg = alembic_config(str(engine.url))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)
    return engine, cfg


def test_0004_keeps_the_thread_files_and_allows_the_owners_own(tmp_path: Path) -> None:
    """A data folder at 0003 with a received attachment: 0004 (a batch copy of ``attachments``)
    keeps the row and its link to the message, lets a file have no message, and leaves the
    inquiries table — and so its search-index triggers — alone."""
    from core.db.store import migration_heads

    path = tmp_path / "db.sqlite3"
    engine, _ = _at_revision(path, "0003")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO inquiries (id, classification, confidence, stage, stage_changed_at,"
                " product_types, dimensions, language, owes_reply, context_data, search_text,"
                " created_at, updated_at) VALUES (7, 'A', 'low', 'inquiry', '2026-11-01',"
                " '[]', '[]', 'en', 'us', '{}', 'jane citizen', '2026-11-01', '2026-11-01')"
            )
        )
        conn.execute(
            text(
                'INSERT INTO messages (id, message_id, source, folder, direction, "references",'
                " to_addrs, cc_addrs, subject, received_at, body_text, body_full, raw_size,"
                " parse_notes, disposition, labels, extracted, attempts, categories, inquiry_id,"
                " created_at, updated_at) VALUES (3, '<m@x>', 'eml', 'inbox', 'in', '[]', '[]',"
                " '[]', 'Quote', '2026-11-01', '', '', 0, '[]', 'new_inquiry', '[]', '{}', 0,"
                " '[]', 7, '2026-11-01', '2026-11-01')"
            )
        )
        conn.execute(
            text(
                "INSERT INTO attachments (id, message_pk, filename, content_type, size, sha256,"
                " stored_path, is_inline) VALUES (11, 3, 'plan.pdf', 'application/pdf', 9,"
                " 'ab', 'attachments/ab/ab/plan.pdf', 0)"
            )
        )
    engine.dispose()

    store = Store(path)
    try:
        with store.engine.begin() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == (
                migration_heads().pop()
            )
            row = conn.execute(
                text(
                    "SELECT id, message_pk, filename, size, stored_path, inquiry_id, added_by,"
                    " added_at FROM attachments"
                )
            ).one()
            assert tuple(row) == (
                11,
                3,
                "plan.pdf",
                9,
                "attachments/ab/ab/plan.pdf",
                None,
                None,
                None,
            )
            # an owner's file: no message, the inquiry instead
            conn.execute(
                text(
                    "INSERT INTO attachments (message_pk, inquiry_id, added_by, filename,"
                    " content_type, size, is_inline) VALUES (NULL, 7, 'owner', 'quote.pdf',"
                    " 'application/pdf', 5, 0)"
                )
            )
            fks = {
                (fk["referred_table"], tuple(fk["constrained_columns"]))
                for fk in inspect(conn).get_foreign_keys("attachments")
            }
            assert fks == {("messages", ("message_pk",)), ("inquiries", ("inquiry_id",))}
            # the search triggers of 0003 still follow the inquiries table
            conn.execute(text("UPDATE inquiries SET search_text = 'bob builder' WHERE id = 7"))
            hits = conn.execute(
                text("SELECT rowid FROM inquiry_search WHERE inquiry_search MATCH '\"builder\"'")
            ).all()
            assert hits == [(7,)]
    finally:
        store.close()


def test_0004_downgrade_drops_only_the_owners_files(tmp_path: Path) -> None:
    from alembic import command

    path = tmp_path / "db.sqlite3"
    Store(path).close()
    engine, cfg = _at_revision(path, "head")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO attachments (message_pk, inquiry_id, added_by, filename,"
                " content_type, size, is_inline) VALUES (NULL, NULL, 'owner', 'quote.pdf',"
                " 'application/pdf', 5, 0)"
            )
        )
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003")
        assert conn.execute(text("SELECT count(*) FROM attachments")).scalar() == 0
        columns = {c["name"] for c in inspect(conn).get_columns("attachments")}
        assert "inquiry_id" not in columns and "added_by" not in columns
    engine.dispose()


def test_a_fresh_database_opens_while_another_connection_is_writing_it(tmp_path: Path) -> None:
    """Switching a database to WAL takes an exclusive lock that SQLite does not wait for while
    another connection holds a write lock (what a second process switching the same new file
    holds): ``database is locked`` at once, a busy timeout notwithstanding. The store waits for
    the writer to finish instead of failing to open."""
    import sqlite3
    import threading

    path = tmp_path / "inquiry-bridge.sqlite3"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # a write transaction on a file not yet in WAL
    done = threading.Timer(0.4, lambda: other.execute("COMMIT"))
    done.start()
    try:
        store = Store(path)
    finally:
        done.join()
        other.close()
    try:
        with store.engine.connect() as conn:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
    finally:
        store.close()
