"""The Telegram front end drives the App's Bot API client: built by ``core.app`` (the one
composition root), handed back when a runner ends, closed by ``App.aclose``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.app import build_app
from core.telegram.runner import TelegramRunner
from tests.support.telegram_server import TelegramServer


async def test_a_runner_given_the_app_uses_the_apps_client(
    home: Path, clock: Any, owner_env: TelegramServer
) -> None:
    app = build_app(home, clock=clock)
    try:
        client = app.telegram_client()
        runner = TelegramRunner(app)
        assert runner.client is client  # not a client of its own
        report = await runner.run_once()
        assert report.error is None
        await runner.aclose()
        assert client._http.is_closed  # handed back: the next runner reads the token afresh
        again = app.telegram_client()
        assert again is not client
        await app.aclose()
        assert again._http.is_closed  # the App closes what it built
    finally:
        app.close()


async def test_a_runner_given_the_app_wires_the_apps_assistant(
    home: Path, clock: Any, owner_env: TelegramServer
) -> None:
    app = build_app(home, clock=clock)
    try:
        runner = TelegramRunner(app)
        assert runner._lazy_assistant() is app.assistant
        await runner.aclose()
        await app.aclose()
    finally:
        app.close()
