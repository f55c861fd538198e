"""The supervisor in one process: a mailbox connected while it runs starts its rounds at once,
and its health says what each piece is doing (real Dovecot, real store)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core.app import App
from core.clock import StartedClock, parse_now
from core.db.models import Message
from core.runtime import Supervisor
from core.services import Services
from tests.conftest import TEST_NOW
from tests.support import dovecot as dovecot_support
from tests.support.dovecot import DovecotServer
from tests.support.mailbox_mail import inquiry
from tests.support.qt import wait_until

pytestmark = pytest.mark.skipif(not dovecot_support.available(), reason="no dovecot-imapd")


@pytest.fixture
def clock() -> StartedClock:
    """The pollers sleep on the clock: at the wall clock's pace, not a FakeClock's jumps."""
    return StartedClock(parse_now(TEST_NOW))


@pytest.fixture
def dovecot() -> Iterator[DovecotServer]:
    with dovecot_support.running() as server:
        yield server


async def _imap_count(services: Services) -> int:
    def count(session: Session) -> int:
        query = select(func.count(Message.id)).where(Message.source == "imap")
        return int(session.scalar(query) or 0)

    return await services.store.read(count)


async def test_a_mailbox_connected_while_running_starts_its_rounds_at_once(
    services: Services, dovecot: DovecotServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    services.settings.set("runner.takeover_seconds", 3600)  # no heartbeat would start it
    app = App(services)
    supervisor = Supervisor(app, kind="desktop")
    task = supervisor.start()
    try:
        await wait_until(lambda: supervisor.role == "runner", timeout=30)
        assert supervisor.health().pieces["mail"] == "idle: no mailbox"

        dovecot.append(inquiry(0, 1))
        monkeypatch.setenv("INQUIRY_BRIDGE_MAIL_PASSWORD", dovecot.password)
        services.settings.set("imap.url", dovecot.url)
        supervisor.mailbox_connected()
        assert supervisor.health().pieces["mail"] == "running"
        await wait_until(lambda: supervisor.scheduler is not None, timeout=5)
        for _ in range(600):
            if await _imap_count(services) == 1:
                break
            await asyncio.sleep(0.1)
        assert await _imap_count(services) == 1
    finally:
        await supervisor.stop()
        await app.aclose()
    assert task.done() and supervisor.role == "stopped"
    assert await app.lease.runner() is None


async def test_a_runner_whose_store_stops_answering_stops_its_work(
    services: Services, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Heartbeats that hang (the database's host unplugged: no error, no answer) must not keep
    the pieces running while another process takes the lease over: the runner stops them
    itself, at half the takeover time, before its heartbeat could look stale to anyone."""
    services.settings.set("runner.takeover_seconds", 4)  # a heartbeat every second
    app = App(services)
    supervisor = Supervisor(app, kind="serve", pieces=("telegram",))
    roles: list[tuple[str, str]] = []  # each role change, with the Telegram piece's state then
    supervisor.role_changed = lambda role: roles.append(
        (role, supervisor.health().pieces["telegram"])
    )
    answer = asyncio.Event()

    async def unanswered(pieces: dict[str, str] | None = None) -> bool:
        await answer.wait()
        return True

    supervisor.start()
    try:
        await wait_until(lambda: supervisor.role == "runner", timeout=30)
        assert supervisor.health().pieces["telegram"] == "running"
        monkeypatch.setattr(app.lease, "renew", unanswered)
        await wait_until(lambda: len(roles) >= 2, timeout=30)
        assert roles[0][0] == "runner"
        assert roles[1] == ("desk", "stopped")  # its work ended before it let the lease go
    finally:
        answer.set()
        await supervisor.stop()
        await app.aclose()
