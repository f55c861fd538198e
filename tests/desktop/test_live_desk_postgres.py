"""The desktop app on a PostgreSQL store that a real ``serve`` runs: #38's second "done when".

A ``serve`` child process (its own data folder, as on an always-on box) holds the runner lease
and reads the IMAP mailbox (Dovecot); the real window (offscreen) on another data folder points
at the same database. Mail the service ingests shows on the board within 5 s of its commit,
nobody pressing 立即同步, and the tray says 后台在 <host> 运行. ``kill -9`` of the service: the
app takes the lease itself within the takeover time and reads the next mail on its own.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select

from core.app import App
from core.clock import StartedClock, parse_now
from core.db.app_state import put_state
from core.db.models import Message
from core.services import Services
from desktop.app import FIRST_RUN_KEY, DesktopApp
from tests.conftest import TEST_NOW
from tests.support import dovecot as dovecot_support
from tests.support import serve_procs as procs
from tests.support.dovecot import DovecotServer
from tests.support.mailbox_mail import inquiries, when
from tests.support.qt import QuitRecorder, settles, wait_until

LEASE_S = 6  # runner.takeover_seconds for the test (90 by default)

pytestmark = pytest.mark.skipif(not dovecot_support.available(), reason="no dovecot-imapd")


@pytest.fixture
def dovecot() -> Iterator[DovecotServer]:
    with dovecot_support.running() as server:
        yield server


@pytest.fixture
def home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pg_url: str, dovecot: DovecotServer
) -> Path:
    """This PC's data folder; the store is the shared PostgreSQL database, the mailbox IMAP."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("INQUIRY_BRIDGE_HOME", str(folder))
    monkeypatch.setenv("INQUIRY_BRIDGE_DATABASE_URL", pg_url)
    monkeypatch.setenv("INQUIRY_BRIDGE_IMAP_URL", dovecot.url)
    monkeypatch.setenv("INQUIRY_BRIDGE_MAIL_PASSWORD", dovecot.password)
    monkeypatch.setenv("INQUIRY_BRIDGE_LEASE_SECONDS", str(LEASE_S))
    return folder


@pytest.fixture
def clock() -> StartedClock:
    """Wall-clock pace from the suite's fixed start (a FakeClock would jump past heartbeats)."""
    return StartedClock(parse_now(TEST_NOW))


async def _stored(services: Services) -> int:
    count = await services.store.read(
        lambda s: s.scalar(
            select(func.count()).select_from(Message).where(Message.direction == "in")
        )
    )
    return int(count or 0)


async def _committed(services: Services, count: int, timeout: float) -> None:
    """Wait (polling the store from the test) until ``count`` inbound messages are committed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while await _stored(services) < count:
        assert loop.time() < deadline, f"fewer than {count} messages committed"
        await asyncio.sleep(0.2)


@settles
async def test_a_desk_on_postgres_shows_what_serve_ingests_and_takes_over_when_it_dies(  # type: ignore[no-untyped-def]
    app, services: Services, dovecot: DovecotServer, tmp_path: Path
) -> None:
    now = services.clock.now()
    services.store.write(lambda s: put_state(s, FIRST_RUN_KEY, True, now))
    services.store.write(lambda s: put_state(s, "data_mode", "real", now))
    env = {**os.environ, "PYTHONPATH": str(procs.ROOT)}
    serve = procs.serve(tmp_path / "box", env, tmp_path / "serve.log")
    desktop = DesktopApp(app, App(services), tray=True)
    try:
        await wait_until(
            lambda: "this process runs" in (tmp_path / "serve.log").read_text(), timeout=60
        )
        desktop.start()
        assert desktop.window is not None and desktop.tray is not None
        assert desktop.sync is not None
        model, tray, supervisor = desktop.window.board.model, desktop.tray, desktop.sync.supervisor
        await model.ready()
        await wait_until(lambda: tray.runner_host is not None, timeout=30)
        assert f"后台在 {socket.gethostname()} 运行" in tray.tooltip()
        assert supervisor.role == "desk"

        raws = inquiries(4)
        for i, raw in enumerate(raws[:3]):
            dovecot.append(raw, when=when(i, len(raws)).timestamp())
        await _committed(services, 3, timeout=60)  # the service read them
        # committed by the service: on the board within 5 s, nobody pressed 立即同步
        await wait_until(lambda: model.rowCount() == 3, timeout=5)

        os.kill(serve.pid, signal.SIGKILL)
        serve.wait(10)
        await wait_until(lambda: supervisor.role == "runner", timeout=3 * LEASE_S)
        await wait_until(lambda: "后台在本机运行" in tray.tooltip(), timeout=10)
        dovecot.append(raws[3], when=when(3, len(raws)).timestamp())
        await wait_until(lambda: model.rowCount() == 4, timeout=60)  # this app read it

        desktop.sync.stop()
        await wait_until(lambda: not supervisor.running, timeout=20)
        desktop.qapp = recorder = QuitRecorder(desktop.qapp)  # type: ignore[assignment]
        desktop.quit()
        assert recorder.quit_calls == 1
        assert desktop.ctx is not None
        await desktop.ctx.aclose_clients()
        desktop.ctx.detach()
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait(10)
    assert await _stored(services) == 4
