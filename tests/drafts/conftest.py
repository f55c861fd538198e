"""Fixtures of the drafting tests: a real LLM server, a real Graph server, the service."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest

from core.drafts.drafting import Drafting, build_drafting
from core.graph.client import GraphClient, StaticToken
from core.graph.mailer import GraphMailer
from core.llm.client import LLMClient
from tests.drafts.support import DraftingModel
from tests.notify.conftest import owner_env, tg, tg_env  # noqa: F401 (Telegram fixtures)
from tests.support.graph_server import GraphServer
from tests.support.llm_server import LLMServer


@pytest.fixture(autouse=True)
def collect_leftover_qt_objects() -> None:
    """Collect cycles left by earlier GUI tests here, on the main thread, before this test's
    worker threads start: collected from a store worker thread, a stray Qt timer makes Qt warn
    "Timers cannot be stopped from another thread" inside an unrelated (non-GUI) test."""
    widgets = sys.modules.get("PySide6.QtWidgets")
    app = widgets.QApplication.instance() if widgets is not None else None
    if app is not None:
        from PySide6.QtCore import QEvent

        widgets.QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()


@pytest.fixture
def model() -> DraftingModel:
    return DraftingModel()


@pytest.fixture
def llm_server(model: DraftingModel) -> Iterator[LLMServer]:
    with LLMServer(model) as srv:
        yield srv


@pytest.fixture
async def llm(services, llm_server: LLMServer):  # type: ignore[no-untyped-def]
    services.settings.update({"llm.base_url": llm_server.base_url, "llm.max_retries": 0})
    client = LLMClient(services.settings, services.secrets, services.store, services.clock)
    yield client
    await client.aclose()


@pytest.fixture
def graph(clock) -> Iterator[GraphServer]:  # type: ignore[no-untyped-def]
    with GraphServer(now=clock.now) as srv:
        yield srv


@pytest.fixture
async def mailer(graph: GraphServer, clock):  # type: ignore[no-untyped-def]
    client = GraphClient(graph.base_url, StaticToken(graph.token), clock=clock, max_attempts=2)
    yield GraphMailer(client)
    await client.aclose()


@pytest.fixture
def drafting(services, llm, mailer) -> Drafting:  # type: ignore[no-untyped-def]
    return build_drafting(services, llm, mailer)
