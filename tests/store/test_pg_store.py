"""The store on PostgreSQL: opened from a URL, migrated to head, refusing what is not ours."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from core.db.store import Store, current_revisions, migration_heads
from core.errors import StoreAuthRefused, StoreForeign, StoreNewer, StoreUnreachable, StoreUrlBad
from tests.support import postgres


def test_a_postgresql_url_opens_a_migrated_store(tmp_path: Path, pg_url: str) -> None:
    store = Store(tmp_path / "inquiry-bridge.sqlite3", url=pg_url)
    try:
        assert store.kind == "postgresql"
        assert current_revisions(store.engine) == migration_heads()
        assert not (tmp_path / "inquiry-bridge.sqlite3").exists()
    finally:
        store.close()
    again = Store(tmp_path / "inquiry-bridge.sqlite3", url=pg_url)  # nothing left to do
    again.close()


def _refused(tmp_path: Path, url: str) -> BaseException:
    with pytest.raises(Exception) as caught:
        Store(tmp_path / "inquiry-bridge.sqlite3", url=url)
    assert not (tmp_path / "inquiry-bridge.sqlite3").exists()
    return caught.value


def test_bad_urls_are_one_chinese_line_each(
    tmp_path: Path, postgres_server: postgres.PostgresServer
) -> None:
    for url in ("mysql://u@h/db", "not a url", "postgresql+asyncpg://u@h/db", "postgresql://u@h"):
        error = _refused(tmp_path, url)
        assert isinstance(error, StoreUrlBad), url
        line = error.user_message()
        assert line.startswith("数据库地址有误") and "\n" not in line


def test_no_server_and_a_refused_password_are_told_apart(
    tmp_path: Path, pg_url: str, postgres_server: postgres.PostgresServer
) -> None:
    database = pg_url.rsplit("/", 1)[1]
    gone = postgres.PostgresServer()  # a port nothing listens on
    error = _refused(tmp_path, gone.url(database))
    assert isinstance(error, StoreUnreachable)
    assert error.user_message().startswith("连不上数据库服务器")
    wrong = postgres_server.url(database, postgres.PASSWORD_ROLE, "wrong-password")
    error = _refused(tmp_path, wrong)
    assert isinstance(error, StoreAuthRefused)
    assert "wrong-password" not in error.user_message()
    assert error.user_message().startswith("数据库服务器拒绝了用户名或密码")
    engine = create_engine(pg_url)
    with engine.connect() as conn:  # nothing was made
        assert (
            conn.execute(text("SELECT count(*) FROM pg_tables WHERE schemaname='public'")).scalar()
            == 0
        )
    engine.dispose()
    right = postgres_server.url(database, postgres.PASSWORD_ROLE, postgres.PASSWORD)
    Store(tmp_path / "inquiry-bridge.sqlite3", url=right).close()


def test_another_apps_database_and_a_newer_schema_are_left_alone(
    tmp_path: Path, pg_url: str, postgres_server: postgres.PostgresServer
) -> None:
    engine = create_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE invoices (id int primary key, total numeric)"))
    error = _refused(tmp_path, pg_url)
    assert isinstance(error, StoreForeign)
    assert error.user_message().startswith("这个数据库里是别的程序的数据")
    with engine.connect() as conn:
        tables = (
            conn.execute(text("SELECT tablename FROM pg_tables WHERE schemaname='public'"))
            .scalars()
            .all()
        )
    assert tables == ["invoices"]
    engine.dispose()

    newer_url = postgres_server.new_database()
    Store(tmp_path / "inquiry-bridge.sqlite3", url=newer_url).close()
    newer = create_engine(newer_url)
    with newer.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0999_from_the_future'"))
    error = _refused(tmp_path, newer_url)
    assert isinstance(error, StoreNewer)
    assert error.user_message().startswith("这个数据库由更新版本的询盘桥建立")
    with newer.connect() as conn:
        assert (
            conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            == "0999_from_the_future"
        )
    newer.dispose()


def test_the_migrated_postgresql_schema_matches_the_models(tmp_path: Path, pg_url: str) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from core.db.models import Base, include_name

    store = Store(tmp_path / "inquiry-bridge.sqlite3", url=pg_url)
    try:
        with store.engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"include_name": include_name})
            diff = compare_metadata(context, Base.metadata)
    finally:
        store.close()
    assert diff == [], f"models and migrations disagree on PostgreSQL: {diff}"


def test_two_processes_opening_an_empty_database_at_once_migrate_it_once(
    tmp_path: Path, pg_url: str
) -> None:
    """Two ``serve`` started together on a new database: the migration's advisory lock makes
    one wait and then find the schema made; both open, one ``alembic_version`` row."""
    import subprocess
    import sys

    script = (
        "import sys; from pathlib import Path; from core.db.store import Store; "
        "Store(Path(sys.argv[1]), url=sys.argv[2]).close()"
    )
    children = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(tmp_path / f"home{i}" / "db.sqlite3"), pg_url],
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(2)
    ]
    said = [child.communicate(timeout=120)[1] for child in children]
    assert [child.returncode for child in children] == [0, 0], said
    engine = create_engine(pg_url)
    with engine.connect() as conn:
        versions = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    engine.dispose()
    assert set(versions) == migration_heads() and len(versions) == 1
