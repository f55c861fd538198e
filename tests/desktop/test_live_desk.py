"""Live desks: mail another process ingests into the store shows on an open board within 5 s,
without 立即同步; the tray says where the background work runs (后台在 <host> 运行).

The other process is real (``inquiry-bridge ingest`` in a child process on the same data
folder); the window is the real one, offscreen. The runner lease is held by a stand-in for a
``serve`` elsewhere, so this app is a desk: it runs no background work and still sees the mail.
When that service stops, the app takes the lease and says the work now runs here.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

import pytest

from core.app import App
from core.app.lease import RunnerLease
from core.clock import StartedClock, parse_now
from core.db.app_state import put_state
from core.services import Services
from desktop.app import FIRST_RUN_KEY, DesktopApp
from tests.conftest import TEST_NOW
from tests.support.mailbox_mail import inquiries
from tests.support.qt import QuitRecorder, settles, wait_until

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def clock() -> StartedClock:
    """A clock that moves at the wall clock's pace from the suite's fixed start: a runner's
    rhythm sleeps on it, which would make a FakeClock jump hours past every heartbeat."""
    return StartedClock(parse_now(TEST_NOW))


@settles
async def test_mail_ingested_by_another_process_appears_on_a_desk_within_5_s(  # type: ignore[no-untyped-def]
    app, services: Services, tmp_path: Path
) -> None:
    now = services.clock.now()
    services.store.write(lambda s: put_state(s, FIRST_RUN_KEY, True, now))
    services.store.write(lambda s: put_state(s, "data_mode", "real", now))
    services.settings.set("runner.takeover_seconds", 4)  # heartbeat and look every second
    serve = RunnerLease(services)  # the background work runs elsewhere (a serve)
    serve.kind = "serve"
    assert await serve.take()

    desktop = DesktopApp(app, App(services), tray=True)
    desktop.start()
    assert desktop.window is not None and desktop.tray is not None and desktop.sync is not None
    model = desktop.window.board.model
    await model.ready()
    assert model.rowCount() == 0
    tray = desktop.tray
    await wait_until(lambda: tray.runner_host is not None, timeout=30)
    assert f"后台在 {socket.gethostname()} 运行" in tray.tooltip()
    assert desktop.sync.supervisor.role == "desk"

    mail = tmp_path / "mail"
    mail.mkdir()
    for i, raw in enumerate(inquiries(3)):
        (mail / f"{i:03d}.eml").write_bytes(raw)
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "core.cli.main",
        "ingest",
        "--offline",
        "--eml-dir",
        str(mail),
        "--home",
        str(services.home),
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await child.communicate()
    assert child.returncode == 0, err.decode()
    # committed by the other process: on the board within 5 s, nobody pressed 立即同步
    await wait_until(lambda: model.rowCount() == 3, timeout=5)
    assert model.total == 3

    # the service stops (and frees the lease): this app takes the background work itself
    await serve.release()
    supervisor = desktop.sync.supervisor
    await wait_until(lambda: supervisor.role == "runner", timeout=30)
    await wait_until(lambda: "后台在本机运行" in tray.tooltip(), timeout=30)
    runner = await serve.runner()
    assert runner is not None and runner.kind == "desktop" and not runner.mine

    desktop.sync.stop()
    await wait_until(lambda: desktop.sync is not None and not desktop.sync.running, timeout=20)
    assert await serve.runner() is None  # a clean quit frees it for the next runner
    desktop.qapp = recorder = QuitRecorder(desktop.qapp)  # type: ignore[assignment]
    desktop.quit()
    assert recorder.quit_calls == 1
    assert desktop.ctx is not None
    await desktop.ctx.aclose_clients()
    desktop.ctx.detach()
