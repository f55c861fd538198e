"""Losing the PostgreSQL database mid-round costs a retry, never a message (#38).

The mailbox (Dovecot) holds 12 inquiries. During the first round the database connection dies
under the writer after four messages went in (the server ends the session itself, as a
restart or a network cut would): that round fails with one Chinese line. The mailbox cursor
advances only with the commit of what it covers, so the next round reads what the lost one did
not store, and every message is in the store exactly once; a third round adds nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from core.cli.main import main
from tests.support import dovecot as dovecot_support
from tests.support.dovecot import DovecotServer
from tests.support.mailbox_mail import inquiries, when

# the fifth message insert ends its own session (a sequence: not undone by the rollback)
CUT = """
CREATE SEQUENCE cut_after;
CREATE FUNCTION cut_connection() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF nextval('cut_after') = 5 THEN
    PERFORM pg_terminate_backend(pg_backend_pid());
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER cut_connection BEFORE INSERT ON messages
  FOR EACH ROW EXECUTE FUNCTION cut_connection();
"""


@pytest.fixture
def dovecot() -> Iterator[DovecotServer]:
    if not dovecot_support.available():
        pytest.skip("dovecot-imapd is not installed (.ci/run installs it)")
    with dovecot_support.running() as server:
        yield server


def _sql(url: str, sql: str) -> list[tuple[object, ...]]:
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            result = conn.execute(text(sql))
            return [tuple(r) for r in result] if result.returns_rows else []
    finally:
        engine.dispose()


def _sync(capsys: pytest.CaptureFixture[str], home: Path) -> tuple[int, str]:
    code = main(["sync", "--once", "--offline", "--home", str(home)])
    _, err = capsys.readouterr()
    return code, err


def test_a_connection_lost_mid_round_costs_a_retry_never_a_message(
    dovecot: DovecotServer,
    pg_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_DATABASE_URL", pg_url)
    monkeypatch.setenv("INQUIRY_BRIDGE_IMAP_URL", dovecot.url)
    monkeypatch.setenv("INQUIRY_BRIDGE_MAIL_PASSWORD", dovecot.password)
    home = tmp_path / "home"
    raws = inquiries(12)
    for i, raw in enumerate(raws):
        dovecot.append(raw, when=when(i, len(raws)).timestamp())
    assert main(["status", "--home", str(home)]) == 0  # migrated: the trigger has a table
    capsys.readouterr()
    _sql(pg_url, CUT)

    code, err = _sync(capsys, home)
    assert code != 0 and "Traceback" not in err, err
    assert any("\u4e00" <= ch <= "\u9fff" for ch in err), err  # said to the owner in Chinese
    stored = _sql(pg_url, "SELECT count(*) FROM messages")[0][0]
    assert isinstance(stored, int) and stored < 12  # the round stopped part-way

    code, err = _sync(capsys, home)
    assert code == 0, err
    ids = [r[0] for r in _sql(pg_url, "SELECT message_id FROM messages WHERE direction = 'in'")]
    assert len(ids) == len(set(ids)) == 12
    code, err = _sync(capsys, home)
    assert code == 0, err
    assert _sql(pg_url, "SELECT count(*) FROM messages")[0][0] == 12
