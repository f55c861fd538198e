"""``store copy --to URL`` as a user runs it: the folder's SQLite store into an empty PostgreSQL.

The source is never changed (its bytes are compared); the target holds every row, the app then
runs on it with the same answers (``inquiries --json``, ``mail --json``), and new rows continue
the ids. A target that is not empty, not PostgreSQL, not there or refuses the password is one
Chinese line, a non-zero exit, and changes nothing.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, insert, null, text
from sqlalchemy.orm import Session

from core.cli.main import main
from core.db.models import AssistantSession, AssistantTurn
from core.services import build_services
from tests.intake.test_cli import eml_dir as _eml_dir
from tests.support import postgres

eml_dir = _eml_dir


@pytest.fixture
def folder(tmp_path: Path, eml_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A data folder on SQLite with ingested mail, an assistant session (SQL NULL and JSON null)."""
    home = tmp_path / "sqlite-home"
    monkeypatch.delenv("INQUIRY_BRIDGE_DATABASE_URL", raising=False)
    assert main(["ingest", "--home", str(home), "--eml-dir", str(eml_dir), "--offline"]) == 0
    services = build_services(home)
    try:
        at = datetime(2026, 11, 30)

        def turns(s: Session) -> None:
            s.execute(
                insert(AssistantSession).values(
                    id=1, channel="desktop", name="copy", created_at=at, updated_at=at
                )
            )
            s.execute(
                insert(AssistantTurn),
                [
                    {
                        "session_id": 1,
                        "turn": 1,
                        "role": "user",
                        "tool_calls": null(),
                        "created_at": at,
                    },
                    {
                        "session_id": 1,
                        "turn": 2,
                        "role": "assistant",
                        "tool_calls": None,
                        "created_at": at,
                    },
                ],
            )

        services.store.write(turns)
    finally:
        services.close()
    return home


def _fingerprint(home: Path) -> dict[str, str]:
    """The database and its write-ahead log, byte for byte (SQLite's shared-memory index, and
    an empty log a read-only reader of a WAL database may leave, hold no data)."""
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(home.glob("inquiry-bridge.sqlite3*"))
        if not p.name.endswith("-shm") and p.stat().st_size > 0
    }


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> object:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def _tables(url: str) -> list[str]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return list(
                conn.execute(
                    text("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")
                ).scalars()
            )
    finally:
        engine.dispose()


def test_copy_moves_every_row_and_leaves_the_source_alone(
    folder: Path,
    pg_url: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = _fingerprint(folder)
    inquiries = _json(capsys, "inquiries", "--json", "--home", str(folder))
    mail = _json(capsys, "mail", "--json", "--home", str(folder))
    before = _fingerprint(folder)

    assert main(["store", "copy", "--home", str(folder), "--to", pg_url]) == 0
    said = capsys.readouterr().out
    assert "逐行核对无误" in said and "each row checked" in said
    assert _fingerprint(folder) == before  # not a byte of the source changed

    monkeypatch.setenv("INQUIRY_BRIDGE_DATABASE_URL", pg_url)
    assert _json(capsys, "inquiries", "--json", "--home", str(folder)) == inquiries
    assert _json(capsys, "mail", "--json", "--home", str(folder)) == mail
    services = build_services(folder)
    try:
        assert services.store.kind == "postgresql"
        with services.store.session() as s:
            # SQL NULL stayed NULL (not the JSON text 'null')
            raw = (
                s.execute(text("SELECT tool_calls IS NULL FROM assistant_turns ORDER BY turn"))
                .scalars()
                .all()
            )
            assert raw == [True, False]  # SQL NULL, then the JSON text null
            top = s.execute(text("SELECT max(id) FROM inquiries")).scalar()
        # the ids continue after the copied ones (the sequences were moved)
        new_id = services.store.write(
            lambda s: s.execute(
                text(
                    "INSERT INTO inquiries (classification, confidence, stage, search_text, "
                    "product_types, dimensions, context_data, created_at, updated_at, "
                    "stage_changed_at, owes_reply, language, urgency) VALUES ('A', 'low', "
                    "'inquiry', '', '[]', '[]', '{}', now(), now(), now(), 'us', 'en', "
                    "'normal') RETURNING id"
                )
            ).scalar()
        )
        assert top is not None and new_id == top + 1
    finally:
        services.close()


def _refused(capsys: pytest.CaptureFixture[str], folder: Path, url: str, starts: str) -> None:
    before = _fingerprint(folder)
    assert main(["store", "copy", "--home", str(folder), "--to", url]) != 0
    _out, err = capsys.readouterr()
    line = err.strip()
    assert line.count("\n") == 0 and "Traceback" not in err, err
    assert starts in line, line
    assert _fingerprint(folder) == before


def test_a_url_that_does_not_parse_is_refused_in_his_words_without_its_password(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _refused(capsys, folder, "postgresql://bob:s3cret@localhost:notaport/db", "数据库地址有误")
    assert main(["store", "check", "--url", "postgresql://bob:s3cret@localhost:x/db"]) != 0
    for line in capsys.readouterr().err.splitlines():
        assert "s3cret" not in line and "SQLAlchemy" not in line, line
        assert "bob:***@" in line, line


def test_copy_refuses_what_it_must_not_write_to(
    folder: Path,
    pg_url: str,
    postgres_server: postgres.PostgresServer,
    capsys: pytest.CaptureFixture[str],
) -> None:
    database = pg_url.rsplit("/", 1)[1]
    _refused(capsys, folder, "sqlite:////tmp/elsewhere.sqlite3", "数据库地址有误")
    _refused(capsys, folder, "mysql://u@localhost/db", "数据库地址有误")
    _refused(capsys, folder, postgres.PostgresServer().url(database), "连不上数据库服务器")
    wrong = postgres_server.url(database, postgres.PASSWORD_ROLE, "not-the-password")
    _refused(capsys, folder, wrong, "数据库服务器拒绝了用户名或密码")
    assert _tables(pg_url) == []

    engine = create_engine(pg_url)
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE customers (id int primary key)"))
        conn.execute(text("INSERT INTO customers VALUES (1)"))
    engine.dispose()
    _refused(capsys, folder, pg_url, "目标数据库不是空的")
    assert _tables(pg_url) == ["customers"]  # the other data is still all there is


def test_repair_says_it_is_for_sqlite_when_the_store_is_postgresql(
    folder: Path,
    pg_url: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_DATABASE_URL", pg_url)
    before = _fingerprint(folder)
    assert main(["repair", "--home", str(folder), "--offline"]) != 0
    err = capsys.readouterr().err.strip()
    assert "repair 只修复数据文件夹里的 SQLite" in err and "\n" not in err
    assert _fingerprint(folder) == before
