"""Big IMAP mail (a real Dovecot) takes a bounded share of the disk per round: past the round's
spool budget, or when the disk could not hold the next big mail, the rest of the round waits for
the next one, the cursor not moved past it, and every mail still ends once.

The sizes are scaled down (a "big" mail here is 100 KB, the budget 500 KB) so the rounds are quick;
the logic is the one a 300 MB mail meets.
"""

from __future__ import annotations

import base64
import json
import random
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from core.app import App
from core.cli.main import main
from core.db.models import Notification
from core.events import MailWaiting
from core.mail import spool_budget
from core.mailbox import imap_big
from core.services import Services
from tests.support.dovecot import DovecotServer
from tests.support.mailbox_mail import when

KB = 1000


def _sync(capsys: pytest.CaptureFixture[str], home: Path) -> str:
    code = main(["sync", "--once", "--offline", "--home", str(home)])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    return out + err


def _mail(n: int, received: datetime, kilobytes: int) -> bytes:
    """Customer ``n``'s inquiry with a ``kilobytes`` PDF of its own (0: no attachment)."""
    date = received.strftime("%a, %d %b %Y %H:%M:%S +0000").encode()
    head = (
        (
            f"From: Customer {n} <c{n}@example.com>\r\nTo: sales@aurorawindows.com.au\r\n"
            f"Subject: Windows for {n} George St\r\nMessage-ID: <budget-{n}@example.com>\r\n"
        ).encode()
        + b"Date: "
        + date
        + b"\r\nMIME-Version: 1.0\r\n"
    )
    text = f"Hi, please quote 3 awning windows for {n} George St, Ryde. Call 0412 345 67{n}.\r\n"
    if not kilobytes:
        return head + b"Content-Type: text/plain; charset=utf-8\r\n\r\n" + text.encode()
    pdf = random.Random(n).randbytes(kilobytes * KB)
    return (
        head
        + b'Content-Type: multipart/mixed; boundary="b1"\r\n\r\n'
        + b"--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        + text.encode()
        + b"--b1\r\nContent-Type: application/pdf; name=plans.pdf\r\n"
        + b"Content-Disposition: attachment; filename=plans.pdf\r\n"
        + b"Content-Transfer-Encoding: base64\r\n\r\n"
        + base64.encodebytes(pdf).replace(b"\n", b"\r\n")
        + b"--b1--\r\n"
    )


def _home(tmp_path: Path) -> Path:
    home = tmp_path / "home"
    home.mkdir()
    return home


def _cursor_uid(home: Path) -> int:
    db = sqlite3.connect(home / "inquiry-bridge.sqlite3")
    [(value,)] = db.execute("select value from sync_cursors where name = 'imap:mail:inbox'")
    db.close()
    return int(json.loads(value)["uid"])


def _subjects(capsys: pytest.CaptureFixture[str], home: Path) -> list[tuple[str, str]]:
    assert main(["mail", "--json", "--home", str(home)]) == 0
    rows = json.loads(capsys.readouterr().out)
    return sorted((str(r["subject"]), str(r["disposition"])) for r in rows)


def _spool(home: Path) -> list[Path]:
    spool = home / "cache" / "spool"
    return sorted(spool.iterdir()) if spool.exists() else []


@pytest.fixture
def small_big(monkeypatch: pytest.MonkeyPatch) -> None:
    """A mail over 100 KB is "big" (fetched in pieces to the spool); 500 KB a round."""
    monkeypatch.setattr(imap_big, "OVERSIZE_BYTES", 100 * KB)
    monkeypatch.setattr(spool_budget, "ROUND_SPOOL_BYTES", 500 * KB)


def test_past_the_round_spool_budget_the_rest_waits_for_the_next_round(
    imap_env: DovecotServer,
    small_big: None,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    home = _home(tmp_path)
    for n in range(3):  # three big mails of ~400 KB, then a small one
        imap_env.append(_mail(n, when(n, 4), 300), when=when(n, 4).timestamp())
    imap_env.append(_mail(3, when(3, 4), 0), when=when(3, 4).timestamp())

    out = _sync(capsys, home)  # the first big mail always; a second is over the budget
    assert "new=1 " in out and "deferred=3" in out, out
    assert _cursor_uid(home) == 1  # not past the mails left for the next round
    out = _sync(capsys, home)
    assert "new=1 " in out and "deferred=2" in out, out
    assert _cursor_uid(home) == 2
    out = _sync(capsys, home)  # the last big one and the small one behind it
    assert "new=2 " in out and "deferred" not in out, out
    assert _cursor_uid(home) == 4
    assert "new=0 " in _sync(capsys, home)

    rows = _subjects(capsys, home)
    assert rows == [(f"Windows for {n} George St", "new_inquiry") for n in range(4)]
    assert _spool(home) == []


def test_a_nearly_full_disk_leaves_big_mail_for_a_later_round_and_takes_the_small_first(
    imap_env: DovecotServer,
    small_big: None,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    home = _home(tmp_path)
    imap_env.append(_mail(0, when(0, 3), 0), when=when(0, 3).timestamp())
    imap_env.append(_mail(1, when(1, 3), 300), when=when(1, 3).timestamp())
    imap_env.append(_mail(2, when(2, 3), 0), when=when(2, 3).timestamp())
    free = {"bytes": spool_budget.needed_bytes(300 * KB) - 1}
    monkeypatch.setattr(spool_budget, "free_bytes", lambda spool: free["bytes"])

    out = _sync(capsys, home)  # the small one before it comes; the big one and after wait
    assert "new=1 " in out and "deferred=2" in out, out
    assert "磁盘空间不足：2 封邮件等待下载，请腾出至少 1 MB" in out  # said, not only counted
    assert _cursor_uid(home) == 1
    out = _sync(capsys, home)  # still no room: nothing moves, nothing is lost
    assert "new=0 " in out and "deferred=2" in out, out
    assert _spool(home) == []

    free["bytes"] = 10 * 1000 * 1000 * 1000
    out = _sync(capsys, home)
    assert "new=2 " in out and "deferred" not in out and "磁盘空间不足" not in out, out
    assert _cursor_uid(home) == 3
    rows = _subjects(capsys, home)
    assert rows == [(f"Windows for {n} George St", "new_inquiry") for n in range(3)]


async def test_a_full_disk_round_tells_the_owner_once_through_the_scheduler(
    imap_env: DovecotServer,
    small_big: None,
    services: Services,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """IMAP's report carries the disk's figures like Graph's: the scheduler publishes them and
    the notification center writes one Chinese alert (tray and Telegram) for the condition."""
    imap_env.append(_mail(0, when(0, 3), 0), when=when(0, 3).timestamp())
    imap_env.append(_mail(1, when(1, 3), 300), when=when(1, 3).timestamp())
    free = {"bytes": spool_budget.needed_bytes(300 * KB)}
    monkeypatch.setattr(spool_budget, "free_bytes", lambda spool: free["bytes"])
    received: list[MailWaiting] = []
    services.bus.subscribe(MailWaiting, received.append)
    app = App(services)
    app.notifications.attach(background=False)
    runtime = app.mailbox(offline=True)
    scheduler = app.scheduler(runtime)
    try:
        assert await scheduler.mail.run_once()
        assert await scheduler.mail.run_once()
        report, _ = scheduler.mail.last_result  # type: ignore[misc]
        assert report.deferred == 1 and report.disk is not None
        assert received[-1] == MailWaiting(1, report.disk.need_bytes, free["bytes"])
        assert report.disk.need_bytes > free["bytes"]  # the mail is over 300 KB of MIME
        with services.store.session() as s:
            alerts = s.scalars(select(Notification).where(Notification.kind == "sync_problem"))
            titles = [a.title for a in alerts]
        assert titles == ["磁盘空间不足：1 封邮件等待下载"]
    finally:
        await runtime.aclose()
        await app.aclose()


async def test_an_imap_round_outside_the_tray_scheduler_tells_the_owner_too(
    imap_env: DovecotServer,
    small_big: None,
    services: Services,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``sync`` and ``sync --once`` run the runtime's rounds without the tray's scheduler: the
    round publishes ``MailWaiting`` itself, so a full disk is told there too (it was only the
    scheduler's doing)."""
    imap_env.append(_mail(0, when(0, 3), 0), when=when(0, 3).timestamp())
    imap_env.append(_mail(1, when(1, 3), 300), when=when(1, 3).timestamp())
    free = {"bytes": spool_budget.needed_bytes(300 * KB)}
    monkeypatch.setattr(spool_budget, "free_bytes", lambda spool: free["bytes"])
    received: list[MailWaiting] = []
    services.bus.subscribe(MailWaiting, received.append)
    app = App(services)
    app.notifications.attach(background=False)
    runtime = app.mailbox(offline=True)
    try:
        report, _ = await runtime.mail_round()
        assert report.deferred == 1 and report.disk is not None
        assert received == [MailWaiting(1, report.disk.need_bytes, free["bytes"])]
        with services.store.session() as s:
            alerts = s.scalars(select(Notification).where(Notification.kind == "sync_problem"))
            assert [a.title for a in alerts] == ["磁盘空间不足：1 封邮件等待下载"]
        free["bytes"] = 10 * 1000 * 1000 * 1000
        await runtime.mail_round()
        assert received[-1] == MailWaiting(0)  # room again: the condition is over
    finally:
        await runtime.aclose()
        await app.aclose()
