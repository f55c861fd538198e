"""Two ``serve`` processes and a CLI, each on its own machine's data folder, on ONE PostgreSQL
database with one IMAP/SMTP mailbox (Dovecot + aiosmtpd): #38's first "done when".

* both serves start at once: exactly one holds the runner lease (``status --json``), the other
  says it waits; all mail is ingested once;
* an approved draft is sent by the CLI while the runner's next round (``send_due``) could send
  it too: the SMTP server takes it once and Sent holds one copy;
* ``kill -9`` of the holder: the other takes over within the takeover time and ingests the mail
  that arrives next; every message is in the store once.

Each process has its own data folder (own send journal, own cache), as on separate PCs: only
the database is shared, so nothing here leans on a file lock.
"""

from __future__ import annotations

import email
import email.policy
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from core.cli.main import main
from tests.drafts.support import DraftingModel
from tests.support import dovecot as dovecot_support
from tests.support import serve_procs as procs
from tests.support.dovecot import DovecotServer
from tests.support.llm_server import LLMServer
from tests.support.mailbox_mail import inquiries, when
from tests.support.smtp_server import SmtpServer

LEASE_S = 6  # runner.takeover_seconds for the test (90 by default)

pytestmark = pytest.mark.skipif(not dovecot_support.available(), reason="no dovecot-imapd")


@pytest.fixture
def dovecot() -> Iterator[DovecotServer]:
    with dovecot_support.running() as server:
        yield server


@pytest.fixture
def smtp(dovecot: DovecotServer) -> Iterator[SmtpServer]:
    server = SmtpServer(dovecot.user, dovecot.password).start()
    try:
        yield server
    finally:
        server.stop()


def _query(url: str, sql: str) -> list[tuple[object, ...]]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return [tuple(r) for r in conn.execute(text(sql))]
    except Exception:  # not migrated yet
        return []
    finally:
        engine.dispose()


def _message_ids(url: str, direction: str = "in") -> list[str]:
    """The mailbox's messages in the store (``out``: copies of what was sent, read from Sent)."""
    sql = f"SELECT message_id FROM messages WHERE source = 'imap' AND direction = '{direction}'"
    return [str(r[0]) for r in _query(url, sql)]


def _lease_pid(url: str) -> int | None:
    """The lease row's holder, read the way every process reads it (polled: a ``status``
    process per poll would cost seconds of start-up on a loaded machine)."""
    rows = _query(url, "SELECT pid FROM runner_lease WHERE holder IS NOT NULL")
    return int(str(rows[0][0])) if rows else None


def _sent_copies(dovecot: DovecotServer, message_id: str) -> int:
    return sum(1 for _flags, raw in dovecot.fetch_all("Sent") if message_id.encode() in raw)


class Desk:
    """The owner's CLI on a third PC's data folder (in-process: ``core.cli.main``, the same
    entry point as ``inquiry-bridge``; a child process costs seconds of start-up per command)."""

    def __init__(self, home: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.home = home
        self.capsys = capsys

    def run(self, *args: str) -> tuple[int, str, str]:
        code = main([*args, "--home", str(self.home)])
        out, err = self.capsys.readouterr()
        return code, out, err

    def json(self, *args: str) -> Any:
        code, out, err = self.run(*args, "--json")
        assert code == 0, err
        return json.loads(out)

    def draft_status(self, draft_id: int) -> str:
        return str(next(d["status"] for d in self.json("drafts") if int(d["id"]) == draft_id))

    def runner_pid(self) -> int | None:
        runner = self.json("status")["runner"]
        return None if runner is None else int(runner["pid"])

    def approve_a_reply(self) -> int:
        """The owner, at a desk that does not run the background work, drafts and approves."""
        inquiry_id = self.json("inquiries")[0]["id"]
        code, _, err = self.run("draft", str(inquiry_id), "--instruction", "说下周二上门量尺")
        assert code == 0, err
        draft_id = int(self.json("drafts")[0]["id"])
        code, _, err = self.run("approve", str(draft_id), "--accept-unconfirmed")
        assert code == 0, err
        return draft_id


def test_two_serves_and_a_cli_on_one_postgres(
    dovecot: DovecotServer,
    smtp: SmtpServer,
    pg_url: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    shared = {
        "INQUIRY_BRIDGE_DATABASE_URL": pg_url,
        "INQUIRY_BRIDGE_IMAP_URL": dovecot.url,
        "INQUIRY_BRIDGE_SMTP_URL": smtp.url,
        "INQUIRY_BRIDGE_MAIL_PASSWORD": dovecot.password,
        "INQUIRY_BRIDGE_LEASE_SECONDS": str(LEASE_S),
    }
    mailbox = {**os.environ, "PYTHONPATH": str(procs.ROOT), **shared}
    for name, value in shared.items():
        monkeypatch.setenv(name, value)
    desk = Desk(tmp_path / "desk", capsys)
    raws = inquiries(12)
    first, later = raws[:8], raws[8:]
    for i, raw in enumerate(first):
        dovecot.append(raw, when=when(i, len(raws)).timestamp())

    serves = {
        name: procs.serve(tmp_path / name, mailbox, tmp_path / f"{name}.log") for name in "ab"
    }
    logs = {name: tmp_path / f"{name}.log" for name in "ab"}
    try:
        procs.until(lambda: len(_message_ids(pg_url)) == 8, 120, "8 messages ingested")
        # a message row comes first, its inquiry when the round has understood it
        procs.until(lambda: len(desk.json("inquiries")) == 8, 60, "8 inquiries on the board")
        status = desk.json("status")
        assert status["store"] == "postgresql"
        holder = next(n for n, p in serves.items() if p.pid == status["runner"]["pid"])
        other = "b" if holder == "a" else "a"
        procs.until(lambda: "standby" in logs[other].read_text(), 60, "the other to stand by")
        assert "this process runs" not in logs[other].read_text()
        assert status["runner"]["pieces"]["mail"] == "running", status

        with LLMServer(DraftingModel()) as llm:
            monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", llm.base_url)
            draft_id = desk.approve_a_reply()
        # the runner's next round sends approved drafts; the owner presses send as well
        dovecot.append(later[0], when=when(8, len(raws)).timestamp())
        by_hand = desk.run("send", str(draft_id))
        procs.until(lambda: desk.draft_status(draft_id) == "sent", 60, "the draft sent")
        procs.until(lambda: len(_message_ids(pg_url)) == 9, 60, "the 9th message")
        assert len(smtp.received) == 1, by_hand
        message_id = email.message_from_bytes(smtp.received[0].data, policy=email.policy.default)[
            "Message-ID"
        ]
        assert _sent_copies(dovecot, message_id) == 1

        standby_log = (tmp_path / other / "logs" / "inquiry-bridge.log").read_text()
        assert "mail round" not in standby_log and "new_inquiry" not in standby_log  # no rounds

        os.kill(serves[holder].pid, signal.SIGKILL)
        serves[holder].wait(10)
        took = procs.until(
            lambda: _lease_pid(pg_url) == serves[other].pid, 60, "the other serve to take over"
        )
        assert took < 90
        assert desk.runner_pid() == serves[other].pid
        for i, raw in enumerate(later[1:], start=9):
            dovecot.append(raw, when=when(i, len(raws)).timestamp())
        procs.until(lambda: len(_message_ids(pg_url)) == 12, 120, "the new runner to ingest")
        assert len(smtp.received) == 1  # the new runner's send_due sends nothing again

        serves[other].send_signal(signal.SIGTERM)
        assert serves[other].wait(60) == 0, logs[other].read_text()
        assert "Traceback" not in logs[other].read_text()
        assert desk.runner_pid() is None
    finally:
        for proc in serves.values():
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    ids = _message_ids(pg_url)
    assert len(ids) == len(set(ids)) == 12
    assert len(_message_ids(pg_url, "out")) == 1
