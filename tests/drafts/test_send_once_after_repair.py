"""Issue 28: a send is a fact outside the database; ``repair`` can never make it happen twice.

The owner approves and sends a draft; the newest backup was taken before the send (it holds
``approved``, or ``pending_approval`` when taken before the approval); the database is damaged.
After ``repair``, ``send-due``, a re-approval and ``send``, the loopback Graph server has received
exactly one ``/send`` for that draft and the draft shows ``sent``. Commands run in-process
through the real CLI against the loopback LLM and Graph servers.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from core.cli.main import main
from core.db.backup import list_backups
from core.db.send_journal import ASK_MAILBOX, FREE, SENT, SUBMITTING, SendJournal
from tests.drafts.support import CUSTOMER, add_inquiry


@pytest.fixture
def env(monkeypatch, llm_server, graph, services):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("INQUIRY_BRIDGE_LLM_BASE_URL", llm_server.base_url)
    monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_URL", graph.base_url)
    monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", graph.token)
    return services


def _run(capsys, *argv: str) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _status(capsys, home: Path, draft_id: str) -> str:  # type: ignore[no-untyped-def]
    rows = json.loads(_run(capsys, "drafts", "--json", "--home", str(home))[1])
    return str(next(r["status"] for r in rows if str(r["id"]) == draft_id))


def _keep_newest_backup(home: Path, into: Path) -> None:
    into.mkdir(exist_ok=True)
    newest = list_backups(home / "backups")[0]
    shutil.copy2(newest.path, into / newest.path.name)


def _only_that_backup(home: Path, kept: Path) -> None:
    """The backup folder as if nothing had been backed up since ``kept`` was taken."""
    shutil.rmtree(home / "backups")
    shutil.copytree(kept, home / "backups")


def _damage(env, home: Path) -> None:  # type: ignore[no-untyped-def]
    env.store.engine.dispose()
    database = home / "inquiry-bridge.sqlite3"
    database.write_bytes(os.urandom(database.stat().st_size))


def _draft_for(capsys, env, home: Path, graph, model) -> str:  # type: ignore[no-untyped-def]
    gid = graph.add_message(subject="Door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(env, source_id=gid, subject="Door quote")
    model.plant = []
    code, _out, err = _run(
        capsys, "draft", str(inquiry_id), "--instruction", "报价15000含GST", "--home", str(home)
    )
    assert code == 0, err
    rows = json.loads(_run(capsys, "drafts", "--json", "--home", str(home))[1])
    return str(rows[0]["id"])


@pytest.mark.parametrize("backup_holds", ["approved", "pending_approval"])
def test_repair_send_due_reapprove_and_send_submit_once(  # type: ignore[no-untyped-def]
    env, capsys, home, graph, model, tmp_path, backup_holds
):
    kept = tmp_path / "kept"
    draft_id = _draft_for(capsys, env, home, graph, model)
    if backup_holds == "pending_approval":
        _keep_newest_backup(home, kept)
    code, _out, err = _run(capsys, "approve", draft_id, "--accept-unconfirmed", "--home", str(home))
    assert code == 0, err
    if backup_holds == "approved":
        _keep_newest_backup(home, kept)
    code, out, err = _run(capsys, "send", draft_id, "--home", str(home))
    assert code == 0 and "已发送" in out, err
    assert len(graph.sent_log) == 1

    _only_that_backup(home, kept)
    _damage(env, home)
    code, out, err = _run(capsys, "repair", "--home", str(home))
    assert code == 0, err
    assert f"草稿 #{draft_id}" in out and "依据发送记录" in out  # named, in Chinese
    assert _status(capsys, home, draft_id) == "sent"

    code, _out, err = _run(capsys, "send-due", "--home", str(home))
    assert code == 0, err
    code, _out, err = _run(capsys, "approve", draft_id, "--accept-unconfirmed", "--home", str(home))
    assert code == 1 and "已发送" in err
    code, _out, err = _run(capsys, "send", draft_id, "--home", str(home))
    assert code == 1 and "Traceback" not in err

    assert len(graph.sent_log) == 1  # the customer got one email
    assert len(graph.requests_to(r"/send$", "POST")) == 1
    assert _status(capsys, home, draft_id) == "sent"


def test_an_attempt_without_an_outcome_is_checked_in_sent_items_not_resent(  # type: ignore[no-untyped-def]
    env, capsys, home, graph, model, tmp_path
):
    """The send went through but the answer was lost and Outlook could not be asked; the
    journal holds only ``submitting``. After a repair back to ``approved``, ``send-due`` asks
    Sent Items first and finds it: ``sent``, no second ``/send``."""
    kept = tmp_path / "kept"
    draft_id = _draft_for(capsys, env, home, graph, model)
    assert _run(capsys, "approve", draft_id, "--accept-unconfirmed", "--home", str(home))[0] == 0
    _keep_newest_backup(home, kept)
    graph.fail(path=r"/send$", drop_after=True)
    graph.fail(path=r"sentitems", method="GET", drop=True, times=50)
    code, out, err = _run(capsys, "send", draft_id, "--home", str(home))
    assert len(graph.sent_log) == 1 and "未知" in out + err
    journal = SendJournal.for_home(home)
    assert [e.phase for e in journal.entries()] == [SUBMITTING]
    graph.faults.clear()

    _only_that_backup(home, kept)
    _damage(env, home)
    assert _run(capsys, "repair", "--offline", "--home", str(home))[0] == 0
    assert _status(capsys, home, draft_id) == "approved"  # offline: nothing to ask yet
    code, _out, err = _run(capsys, "send-due", "--home", str(home))
    assert code == 0, err
    assert _status(capsys, home, draft_id) == "sent"
    assert len(graph.sent_log) == 1 and len(graph.requests_to(r"/send$", "POST")) == 1


def test_no_journal_line_no_submit(env, capsys, home, graph, model):  # type: ignore[no-untyped-def]
    """A journal that cannot be written (here: its name taken by a folder) stops the send
    before Outlook is asked to send anything; the draft stays approved for a later retry."""
    draft_id = _draft_for(capsys, env, home, graph, model)
    assert _run(capsys, "approve", draft_id, "--accept-unconfirmed", "--home", str(home))[0] == 0
    (home / "sends.journal").mkdir()
    _code, out, err = _run(capsys, "send", draft_id, "--home", str(home))
    assert "未发送" in out + err
    assert graph.sent_log == [] and graph.requests_to(r"/send$", "POST") == []
    assert _status(capsys, home, draft_id) == "approved"


def test_the_journal_rule(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    journal = SendJournal(tmp_path / "sends.journal")
    at = datetime(2026, 11, 30, tzinfo=UTC)
    made = datetime(2026, 11, 29, 9, 0, 0, 123456)
    assert journal.verdict(1, made).state == FREE
    journal.record(SUBMITTING, 1, "<a@x>", at=at, remote_id="AAMk1", draft_created=made)
    assert journal.verdict(1, made).state == ASK_MAILBOX
    journal.record("submitted", 1, "<a@x>", at=at, draft_created=made)
    journal.record("not_sent", 1, "<a@x>", at=at, draft_created=made)  # never undoes a send
    assert journal.verdict(1, made).state == SENT
    # the same id reused by another draft after a restore is not that send
    assert journal.verdict(1, datetime(2026, 11, 30, 8, 0)).state == FREE
    with (tmp_path / "sends.journal").open("ab") as fh:
        fh.write(b'{"phase":"submitted","draft_id":2,"mess')  # torn last line
    assert journal.verdict(2).state == FREE and len(journal.entries()) == 3
    assert all(e.subject_hash == "" or len(e.subject_hash) == 16 for e in journal.entries())


@pytest.mark.parametrize(
    "foreign",
    [
        b"7",
        b"[]",
        b'"submitted"',
        b"null",
        b'{"phase":"submitted","draft_id":"1","message_id":null,"at":"x"}',
        b'{"phase":"sent!","draft_id":1,"message_id":null,"at":"x"}',
        b'{"phase":"submitted","draft_id":true,"message_id":null,"at":"x"}',
        b'{"phase":"submitted","draft_id":1,"message_id":5,"at":"x"}',
        b'{"phase":"submitted","draft_id":1,"message_id":null,"at":"x","recipients":"a@b"}',
    ],
)
def test_a_line_that_only_looks_like_json_is_skipped(tmp_path: Path, foreign: bytes) -> None:
    """Random bytes over a copy can decode to any JSON value: it is skipped, the rest still read."""
    from datetime import UTC, datetime

    journal = SendJournal(tmp_path / "sends.journal")
    at = datetime(2026, 11, 30, tzinfo=UTC)
    journal.record("submitted", 3, "<c@x>", at=at)
    with (tmp_path / "sends.journal").open("ab") as fh:
        fh.write(foreign + b"\n")
    assert journal.verdict(3).state == SENT
    assert journal.verdict(1).state == FREE
    assert [e.draft_id for e in journal.entries()] == [3]


@pytest.mark.parametrize("journal_damage", ["emptied", "overwritten", "deleted"])
def test_a_lost_send_journal_does_not_send_a_restored_draft_again(  # type: ignore[no-untyped-def]
    env, capsys, home, graph, model, tmp_path, journal_damage
):
    """The disk fault that damaged the database also emptied (or garbled, or removed)
    ``sends.journal``; the backup holds ``approved``. The journal's mirror under ``backups/``
    still has the send: ``repair`` marks the draft sent and ``send-due`` submits nothing.
    Before the mirror, ``send-due`` sent the customer a second email."""
    kept = tmp_path / "kept"
    draft_id = _draft_for(capsys, env, home, graph, model)
    assert _run(capsys, "approve", draft_id, "--accept-unconfirmed", "--home", str(home))[0] == 0
    _keep_newest_backup(home, kept)
    code, out, err = _run(capsys, "send", draft_id, "--home", str(home))
    assert code == 0 and "已发送" in out, err
    mirror = home / "backups" / "sends.journal"
    mirrored = mirror.read_bytes() if mirror.exists() else None

    _only_that_backup(home, kept)
    if mirrored is not None:  # the mirror is appended beside the backups, not in one
        mirror.write_bytes(mirrored)
    journal = home / "sends.journal"
    size = journal.stat().st_size
    if journal_damage == "emptied":
        journal.write_bytes(b"")
    elif journal_damage == "overwritten":
        journal.write_bytes(b"\x00" * 40 + os.urandom(size - 40))
    else:
        journal.unlink()
    _damage(env, home)
    code, out, err = _run(capsys, "repair", "--offline", "--home", str(home))
    assert code == 0, err
    assert _status(capsys, home, draft_id) == "sent", out
    assert _run(capsys, "send-due", "--home", str(home))[0] == 0
    assert len(graph.sent_log) == 1 and len(graph.requests_to(r"/send$", "POST")) == 1
    assert _status(capsys, home, draft_id) == "sent"
