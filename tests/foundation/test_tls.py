"""The app's HTTPS clients share one TLS context (``core.tls``): a new httpx client would load
the CA bundle again, 50-120 ms of blocking work on the event loop each time."""

from __future__ import annotations

from typing import Any

from core import tls
from core.graph.client import GraphClient, StaticToken
from core.notify.telegram_client import TelegramClient


def _context_of(http: Any) -> object:
    return http._transport._pool._ssl_context  # httpx → httpcore's pool


async def test_graph_and_telegram_clients_share_the_one_context() -> None:
    await tls.warm()  # built on a thread
    shared = tls.context()
    graph = GraphClient("http://127.0.0.1:1", StaticToken("t"))
    telegram = [TelegramClient("http://127.0.0.1:1", token) for token in ("a", "b")]
    try:
        assert _context_of(graph._http) is shared
        assert all(_context_of(t._http) is shared for t in telegram)
        assert shared.verify_mode.name == "CERT_REQUIRED" and shared.check_hostname  # as httpx's
    finally:
        await graph.aclose()
        for t in telegram:
            await t.aclose()
