"""``sync --once`` over a real IMAP server (Dovecot): INBOX and Sent, by UID, nothing doubled."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core.cli.main import main
from core.services import build_services
from tests.support import dovecot as dovecot_support
from tests.support.dovecot import DovecotServer
from tests.support.mailbox_mail import inquiries, inquiry, when


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _mail(capsys: pytest.CaptureFixture[str], home: Path) -> list[dict]:
    code, out, err = _cli(capsys, "mail", "--json", "--home", str(home))
    assert code == 0, err
    return json.loads(out)


def _fill(dovecot: DovecotServer, count: int = 45) -> list[bytes]:
    raws = inquiries(count)
    for i, raw in enumerate(raws):
        dovecot.append(raw, when=when(i, count).timestamp())
    return raws


def test_sync_once_ingests_45_messages_once_each_and_again_after_uidvalidity_change(
    imap_env: DovecotServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    home = tmp_path / "home"
    _fill(imap_env)
    code, out, err = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert code == 0, err
    assert "new=45" in out
    rows = _mail(capsys, home)
    assert len(rows) == 45
    assert len({r["message_id"] for r in rows}) == 45
    assert all(r["disposition"] != "pending" for r in rows)
    assert {r["source"] for r in rows} == {"imap"}

    # reading changed no read state: every message is still unseen on the server
    assert all(b"\\Seen" not in flags for flags, _ in imap_env.fetch_all())

    # an idle second round lists nothing and ingests nothing
    code, out, _ = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert code == 0 and "new=0" in out and "listed=0" in out

    before = imap_env.uidvalidity()
    imap_env.reset_uidvalidity()
    assert imap_env.uidvalidity() != before
    code, out, err = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert code == 0, err
    assert "new=0" in out and "known=45" in out and "resynced=inbox" in out
    again = _mail(capsys, home)
    assert len(again) == 45
    assert [r["disposition"] for r in again] == [r["disposition"] for r in rows]
    # the stored rows now carry the new UIDVALIDITY
    assert all(str(imap_env.uidvalidity()) in r["source_id"] for r in again)


def test_class_and_stage_are_written_back_as_keywords_without_marking_mail_read(
    imap_env: DovecotServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    home = tmp_path / "home"
    _fill(imap_env, 3)
    code, out, err = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert code == 0, err
    code, listing, _ = _cli(capsys, "inquiries", "--json", "--home", str(home))
    classes = {i["customer_email"]: i["classification"] for i in json.loads(listing)}
    assert set(classes.values()) <= {"A", "B"} and len(classes) == 3
    flags = [f.decode() for f, _ in imap_env.fetch_all()]
    for line in flags:
        assert "IB-Class-" in line and "IB-Stage-inquiry" in line
        assert "\\Seen" not in line
    assert "keywords=3" in out
    # idempotent: nothing to write on the next round
    code, out, _ = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert code == 0 and "keywords=" not in out


def test_a_mailbox_that_refuses_keywords_is_skipped_and_the_round_still_commits(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    home = tmp_path / "home"
    with dovecot_support.running(keywords=False) as server:
        monkeypatch.setenv("INQUIRY_BRIDGE_IMAP_URL", server.url)
        monkeypatch.setenv("INQUIRY_BRIDGE_MAIL_PASSWORD", server.password)
        _fill(server, 2)
        code, out, err = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
        assert code == 0, err
        assert "new=2" in out and "keywords=" not in out
        assert all(b"IB-" not in flags for flags, _ in server.fetch_all())
    assert len(_mail(capsys, home)) == 2


OWN_REPLY = (
    b"From: Aurora Windows <owner@aurorawindows.com.au>\r\n"
    b"To: customer00@example.com\r\n"
    b"Subject: Re: Quote request 1\r\n"
    b"Date: Sun, 29 Nov 2026 09:00:00 +1100\r\n"
    b"Message-ID: <own-reply-1@aurorawindows.com.au>\r\n"
    b"In-Reply-To: <inquiry-00.1@mail.example.com>\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\n\r\n"
    b"Thanks, we can measure on Tuesday.\r\n"
)


@pytest.mark.parametrize(
    ("sent_name", "special_use"),
    [("Sent", True), ("已发送", False)],  # \Sent, or only the name 已发送 (QQ, 163)
)
def test_the_sent_folder_is_found_and_read_as_outgoing(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    sent_name: str,
    special_use: bool,
) -> None:
    home = tmp_path / "home"
    with dovecot_support.running(sent_name=sent_name, special_use=special_use) as server:
        monkeypatch.setenv("INQUIRY_BRIDGE_IMAP_URL", server.url)
        monkeypatch.setenv("INQUIRY_BRIDGE_MAIL_PASSWORD", server.password)
        _fill(server, 1)
        server.append(OWN_REPLY, folder=sent_name, flags="(\\Seen)")
        code, out, err = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
        assert code == 0, err
        assert "new=2" in out
    rows = {r["message_id"]: r for r in _mail(capsys, home)}
    own = rows["<own-reply-1@aurorawindows.com.au>"]
    assert own["folder"] == "sent" and own["direction"] == "out"
    assert rows["<inquiry-00.1@mail.example.com>"]["folder"] == "inbox"


def test_a_first_sync_of_old_mail_starts_each_stage_clock_when_the_server_received_it(
    imap_env: DovecotServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The stage clock of a new inquiry starts at its mail's arrival on the server
    (INTERNALDATE, an hour after the Date its sender wrote), not at the sync."""
    home = tmp_path / "home"
    received = {}
    for i in range(3):
        arrived = when(i, 3) + timedelta(hours=1)
        imap_env.append(inquiry(i, 3), when=arrived.timestamp())
        received[f"customer{i:02d}@example.com"] = arrived.astimezone(UTC)
    code, _out, err = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert code == 0, err
    code, out, err = _cli(capsys, "inquiries", "--json", "--home", str(home))
    assert code == 0, err
    items = {i["customer_email"]: i for i in json.loads(out)}
    assert set(items) == set(received)
    for address, arrived in received.items():
        since = datetime.fromisoformat(items[address]["stage_since"].replace("Z", "+00:00"))
        assert since == arrived, address
        assert items[address]["days_in_stage"] > 2  # days of working time, not "0 today"


def test_an_inbox_mail_from_the_owners_address_is_not_his(
    imap_env: DovecotServer, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Only the Sent folder says a message is his: the same From: in INBOX is a stranger's, and
    the inquiry it threads onto still waits for our answer."""
    home = tmp_path / "home"
    _fill(imap_env, 1)
    spoofed = OWN_REPLY.replace(b"<own-reply-1@", b"<spoofed-1@")
    imap_env.append(spoofed, when=when(0, 1).timestamp() + 600)
    services = build_services(home)
    services.settings.set("general.owner_addresses", [imap_env.user])
    services.close()
    code, _, err = _cli(capsys, "sync", "--once", "--offline", "--home", str(home))
    assert code == 0, err
    rows = {r["message_id"]: r for r in _mail(capsys, home)}
    fake = rows["<spoofed-1@aurorawindows.com.au>"]
    assert fake["folder"] == "inbox" and fake["direction"] == "in"
    assert fake["disposition"] != "skipped:outgoing" and fake["inquiry_id"] is None
    code, listing, _ = _cli(capsys, "inquiries", "--json", "--home", str(home))
    (row,) = json.loads(listing)
    assert row["owes_reply"] == "us" and row["last_outbound_at"] is None
