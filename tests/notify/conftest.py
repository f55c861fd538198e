"""Fixtures for the Telegram tests: the loopback Bot API server and an owner preset or paired."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest

from core.app.standalone import own_mailer
from core.db.models import Inquiry
from core.drafts.drafting import build_drafting
from core.inquiry.stages import record_initial_stage
from core.llm.client import LLMClient
from core.notify.outbox import NotificationCenter
from core.telegram.runner import TelegramRunner
from tests.drafts.support import DraftingModel
from tests.support.graph_server import GraphServer
from tests.support.llm_server import LLMServer
from tests.support.telegram_server import TelegramServer

OWNER = 4242
STRANGER = 666


@pytest.fixture
def tg() -> Iterator[TelegramServer]:
    with TelegramServer() as server:
        yield server


@pytest.fixture
def tg_env(tg: TelegramServer, monkeypatch: pytest.MonkeyPatch) -> TelegramServer:
    """Bot API URL and token set; no chat paired yet."""
    monkeypatch.setenv("INQUIRY_BRIDGE_TELEGRAM_URL", tg.base_url)
    monkeypatch.setenv("INQUIRY_BRIDGE_TELEGRAM_TOKEN", tg.token)
    return tg


@pytest.fixture
def owner_env(tg_env: TelegramServer, monkeypatch: pytest.MonkeyPatch) -> TelegramServer:
    """Headless preset: token and the owner's chat id from the environment."""
    monkeypatch.setenv("INQUIRY_BRIDGE_TELEGRAM_CHAT_ID", str(OWNER))
    return tg_env


@pytest.fixture
def center(services: Any) -> Iterator[NotificationCenter]:
    c = NotificationCenter(services).attach()
    yield c
    c.detach()


@pytest.fixture
async def runner(services: Any, tg_env: TelegramServer) -> Any:
    r = TelegramRunner(services)
    yield r
    await r.aclose()


# -- drafting: the desktop's Drafting over loopback LLM and Graph servers ------------------
@pytest.fixture
def model() -> DraftingModel:
    return DraftingModel()


@pytest.fixture
def graph(clock: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[GraphServer]:
    with GraphServer(now=clock.now) as srv:
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_URL", srv.base_url)
        assert srv.token is not None
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", srv.token)
        yield srv


@pytest.fixture
async def desk(services: Any, model: DraftingModel, graph: GraphServer) -> Any:
    """The desktop's Drafting (composes with the LLM; the same store and Graph)."""
    with LLMServer(model) as llm_server:
        services.settings.update({"llm.base_url": llm_server.base_url, "llm.max_retries": 0})
        llm = LLMClient(services.settings, services.secrets, services.store, services.clock)
        drafting = build_drafting(services, llm, own_mailer(services))
        yield drafting
        await llm.aclose()
        await drafting.aclose()  # the Graph client of the desktop's sender


def add_inquiry(services: Any, **fields: Any) -> int:
    """An inquiry row as the pipeline would leave it (test data, not a pipeline substitute)."""
    now = services.clock.now().replace(tzinfo=None)
    values: dict[str, Any] = {
        "classification": "A",
        "confidence": "high",
        "customer_name": "John Smith",
        "customer_email": "john@example.com",
        "customer_phone": "+61412345678",
        "suburb": "Epping",
        "product_types": ["sliding_door", "flyscreen"],
        "dimensions": ["2400x2100"],
    }
    values.update(fields)

    def _do(session: Any) -> int:
        inquiry = Inquiry(stage_changed_at=now, created_at=now, updated_at=now, **values)
        session.add(inquiry)
        session.flush()
        record_initial_stage(
            session, inquiry, reason="test", triggered_by="pipeline", clock=services.clock
        )
        return inquiry.id

    inquiry_id: int = services.store.write(_do)
    return inquiry_id


def sydney(y: int, mo: int, d: int, h: int, mi: int = 0) -> datetime:
    from core.clock import SYDNEY

    return datetime(y, mo, d, h, mi, tzinfo=SYDNEY)


@pytest.fixture
async def app(services: Any) -> Any:
    """The App whose assistant the Telegram task is handed (conversations live in it)."""
    from core.app import App

    built = App(services)
    yield built
    await built.aclose()
    drafting = built.drafts._service
    if drafting is not None:
        await drafting.aclose()
