"""A store URL that cannot be used, as the owner meets it: one Chinese line, nothing changed.

Each of a wrong URL, a refused password, a server that is not there, another application's
database and one made by a newer version: ``store check --url`` (what the 数据库 page's 测试
asks) and an ordinary command run with ``INQUIRY_BRIDGE_DATABASE_URL`` pointing at it each end
with one Chinese line on stderr and a non-zero exit; the database is as it was (its tables,
its ``alembic_version``) and the data folder got no database of its own. A usable URL is
described (empty, or another desk's store with its inquiries) and still changed nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from core.cli.main import main
from core.db.store import Store
from tests.support import postgres


def _snapshot(url: str) -> tuple[list[str], list[str]]:
    """The public tables and the ``alembic_version`` rows of a database."""
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            tables = sorted(
                conn.execute(text("SELECT tablename FROM pg_tables WHERE schemaname='public'"))
                .scalars()
                .all()
            )
            versions = (
                list(conn.execute(text("SELECT version_num FROM alembic_version")).scalars())
                if "alembic_version" in tables
                else []
            )
    finally:
        engine.dispose()
    return tables, versions


def _one_line(capsys: pytest.CaptureFixture[str], argv: list[str], starts: str) -> None:
    assert main(argv) != 0
    out, err = capsys.readouterr()
    line = err.strip()
    assert "\n" not in line and "Traceback" not in err and starts in line, err
    assert "not-the-password" not in err  # a typed password is never shown back
    assert out == ""


@pytest.fixture
def cases(
    pg_url: str, postgres_server: postgres.PostgresServer, tmp_path: Path
) -> list[tuple[str, str, str | None]]:
    """(url, the Chinese line's start, the database to check unchanged, if any)."""
    database = pg_url.rsplit("/", 1)[1]
    foreign = postgres_server.new_database("foreign")
    engine = create_engine(foreign)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE invoices (id int primary key, total numeric)"))
    engine.dispose()
    newer = postgres_server.new_database("newer")
    Store(tmp_path / "elsewhere" / "x.sqlite3", url=newer).close()
    engine = create_engine(newer)
    with engine.begin() as conn:
        conn.execute(text("UPDATE alembic_version SET version_num = '0999_from_the_future'"))
    engine.dispose()
    return [
        ("mysql://office@nas/inquiries", "数据库地址有误", None),
        ("postgresql://office@", "数据库地址有误", None),
        (
            postgres_server.url(database, postgres.PASSWORD_ROLE, "not-the-password"),
            "数据库服务器拒绝了用户名或密码",
            pg_url,
        ),
        (postgres.PostgresServer().url(database), "连不上数据库服务器", None),
        (foreign, "这个数据库里是别的程序的数据", foreign),
        (newer, "这个数据库由更新版本的询盘桥建立", newer),
    ]


def test_each_unusable_url_is_one_chinese_line_and_changes_nothing(
    cases: list[tuple[str, str, str | None]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    home = tmp_path / "desk"
    for url, starts, database in cases:
        before = _snapshot(database) if database else None
        _one_line(capsys, ["store", "check", "--home", str(home), "--url", url], starts)
        monkeypatch.setenv("INQUIRY_BRIDGE_DATABASE_URL", url)
        _one_line(capsys, ["inquiries", "--json", "--home", str(home)], starts)
        monkeypatch.delenv("INQUIRY_BRIDGE_DATABASE_URL")
        if database:
            assert _snapshot(database) == before, url
        assert not list(home.glob("*.sqlite3*")), url  # no store of its own was made instead


def test_a_usable_url_is_described_and_left_as_it_was(
    pg_url: str,
    postgres_server: postgres.PostgresServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["store", "check", "--home", str(tmp_path), "--url", pg_url]) == 0
    assert capsys.readouterr().out.startswith("可以使用：") and _snapshot(pg_url) == ([], [])

    Store(tmp_path / "other-desk" / "x.sqlite3", url=pg_url).close()  # another desk's store
    before = _snapshot(pg_url)
    assert main(["store", "check", "--home", str(tmp_path), "--url", pg_url]) == 0
    said = capsys.readouterr().out
    assert "已有询盘桥的数据（0 个询盘）" in said, said
    assert _snapshot(pg_url) == before
