"""Between rounds: IMAP IDLE wakes on new mail; a server that goes away is retried with
backoff and nothing is lost when it comes back."""

from __future__ import annotations

import threading
import time

import pytest

from core.clock import FakeClock
from core.errors import MailNetworkError
from core.intake.pipeline import build_pipeline
from core.mailbox.account import parse_url
from core.mailbox.imap_session import ImapSession, open_session
from core.mailbox.imap_sync import selected_mark
from core.mailbox.runtime import MailboxRuntime
from core.mailbox.watch import idle_once, next_backoff, watch_forever
from core.secrets import MAIL_PASSWORD
from core.services import Services
from tests.support.dovecot import DovecotServer
from tests.support.mailbox_mail import inquiry


def _mark(session: ImapSession) -> tuple[int, int]:
    session.call("select", "INBOX", True)
    valid, after = selected_mark(session)
    assert after is not None
    return valid, after


def test_idle_returns_when_mail_arrives_and_times_out_when_none_does(
    dovecot: DovecotServer,
) -> None:
    endpoint = parse_url(dovecot.url, "imap")
    session = open_session(endpoint, dovecot.password)
    try:
        started = time.monotonic()
        assert idle_once(session, 0.5, _mark(session)) is False
        assert time.monotonic() - started < 5
        mark = _mark(session)
        # the append may land before IDLE starts (a loaded machine) or during it: either wakes
        timer = threading.Timer(0.5, lambda: dovecot.append(inquiry(0)))
        timer.start()
        started = time.monotonic()
        assert idle_once(session, 30, mark) is True
        assert time.monotonic() - started < 15  # woke on the append, not at the timeout
        timer.join()
    finally:
        session.close()


def test_mail_that_lands_between_the_round_and_idle_wakes_at_once(
    dovecot: DovecotServer,
) -> None:
    """The round listed INBOX, then mail came before IDLE began: the server's IDLE never
    mentions it (it is in the SELECT count already), so only the mark can tell."""
    session = open_session(parse_url(dovecot.url, "imap"), dovecot.password)
    try:
        mark = _mark(session)
        dovecot.append(inquiry(1))
        started = time.monotonic()
        assert idle_once(session, 20, mark) is True
        assert time.monotonic() - started < 5
        assert idle_once(session, 0.5, _mark(session)) is False  # nothing newer: waits
    finally:
        session.close()


def test_backoff_doubles_to_five_minutes() -> None:
    waits = [0.0]
    for _ in range(10):
        waits.append(next_backoff(waits[-1]))
    assert waits[1:5] == [5.0, 10.0, 20.0, 40.0] and waits[-1] == 300.0


async def test_server_gone_mid_watch_is_retried_with_backoff_and_nothing_lost(
    services: Services, clock: FakeClock, dovecot: DovecotServer
) -> None:
    services.settings.update({"imap.url": dovecot.url, "imap.idle_seconds": 1})
    services.secrets.set(MAIL_PASSWORD, dovecot.password)
    runtime = MailboxRuntime(services, pipeline=build_pipeline(services, offline=True))
    dovecot.append(inquiry(0, 3))
    rounds: list[str] = []

    async def one_round() -> None:
        try:
            report, _ = await runtime.mail_round()
        except MailNetworkError:
            rounds.append("down")
            if len(rounds) == 3:
                dovecot.start()  # back after two failed retries
                dovecot.append(inquiry(1, 3))
            raise
        rounds.append(f"new={report.new}")
        if len(rounds) == 1:
            dovecot.stop()  # gone before the next round
        if len(rounds) >= 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        await watch_forever(services, runtime, on_round=one_round)
    assert rounds[:4] == ["new=1", "down", "down", "new=1"]
    assert 5.0 in clock.sleeps and 10.0 in clock.sleeps  # backoff, on the injected clock
    await runtime.aclose()


async def test_server_stopped_mid_round_loses_nothing_and_doubles_nothing(
    services: Services, dovecot: DovecotServer
) -> None:
    from sqlalchemy import func, select

    from core.db.models import Message, SyncCursor
    from core.mailbox.imap_sync import ImapSync

    services.settings.set("imap.url", dovecot.url)
    services.secrets.set(MAIL_PASSWORD, dovecot.password)
    for i in range(5):
        dovecot.append(inquiry(i, 5))
    pipeline = build_pipeline(services, offline=True)
    runtime = MailboxRuntime(services, pipeline=pipeline)

    class StopAfterFirstBatch:
        async def ingest_batch(self, raws):  # type: ignore[no-untyped-def]
            report = await pipeline.ingest_batch(raws)
            dovecot.stop()  # the server goes away in the middle of the round
            return report

    sync = ImapSync(
        runtime.connect,
        StopAfterFirstBatch(),
        services.store,
        services.settings,
        services.clock,
        batch_size=2,
    )
    with pytest.raises(MailNetworkError):
        await sync.run_once()
    count = await services.store.read(lambda s: s.scalar(select(func.count(Message.id))))
    assert count == 2
    cursor = await services.store.read(lambda s: s.get(SyncCursor, "imap:mail:inbox"))
    assert cursor is None  # nothing committed: the next round lists everything again
    dovecot.start()
    report, _ = await runtime.mail_round()
    assert (report.new, report.known) == (3, 2)
    count = await services.store.read(lambda s: s.scalar(select(func.count(Message.id))))
    assert count == 5
    await runtime.aclose()


def test_a_flag_change_does_not_wake_the_idle_but_new_mail_still_does(
    dovecot: DovecotServer,
) -> None:
    """The owner reads a mail on his phone (\\Seen set by another client) while the app IDLEs:
    that is no news; mail arriving in the same IDLE is."""
    dovecot.append(inquiry(0))
    endpoint = parse_url(dovecot.url, "imap")
    watcher = open_session(endpoint, dovecot.password)
    phone = open_session(endpoint, dovecot.password)
    try:
        phone.call("select", "INBOX")
        mark = _mark(watcher)
        reads = threading.Timer(0.5, lambda: phone.call("uid", "STORE", "1", "+FLAGS", r"(\Seen)"))
        reads.start()
        assert idle_once(watcher, 3, mark) is False  # a read is no news
        reads.join()
        mark = _mark(watcher)
        both = threading.Timer(
            0.5,
            lambda: (
                phone.call("uid", "STORE", "1", "-FLAGS", r"(\Seen)"),
                dovecot.append(inquiry(1)),
            ),
        )
        both.start()
        assert idle_once(watcher, 30, mark) is True
        both.join()
    finally:
        watcher.close()
        phone.close()
