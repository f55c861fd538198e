"""The app's service objects, built once per data folder and handed to every window.

Windows receive an ``AppContext`` in their constructor (services passed in, never globals reached
for): the core ``Services`` plus the long-lived core service objects the desktop calls — stage
moves, owner edits, translation, drafting — and the ``SignalHub`` turning core events into Qt
signals. Switching to the demo data folder builds a second context; nothing else changes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from core.deals.stages import StageService
from core.inquiry_edit import InquiryEditor
from core.notify.outbox import NotificationCenter
from core.services import Services
from core.translate import MessageTranslator
from desktop.hub import SignalHub

log = logging.getLogger(__name__)


@dataclass
class AppContext:
    services: Services
    hub: SignalHub
    stages: StageService
    editor: InquiryEditor
    translator: MessageTranslator
    llm: Any = None
    draft_service: Any = None
    notifications: Any = None
    is_demo: bool = False
    extras: dict[str, Any] = field(default_factory=dict)

    @property
    def now(self):  # type: ignore[no-untyped-def]
        return self.services.clock.now()

    async def aclose_clients(self) -> None:
        """Close the HTTP clients (the LLM's connection pool) on the loop that opened them."""
        closer = getattr(self.llm, "aclose", None)
        if closer is not None:
            await closer()

    def close(self) -> None:
        self.hub.detach()
        detach = getattr(self.notifications, "detach", None)
        if callable(detach):
            detach()
        self.services.close()


class LazyLLM:
    """The data folder's ``core.llm.client.LLMClient``, built on first use.

    Importing the OpenAI SDK costs about a second; deferring it keeps cold start short. The app
    warms it on a worker thread right after the window is up (``warm``), so the first 翻译 or
    draft does not pay for it either.
    """

    def __init__(self, services: Services) -> None:
        self._services = services
        self._client: Any = None

    def client(self) -> Any:
        if self._client is None:
            from core.llm.client import LLMClient

            s = self._services
            self._client = LLMClient(s.settings, s.secrets, s.store, s.clock)
        return self._client

    @staticmethod
    def warm() -> None:
        import core.llm.client  # noqa: F401

    @property
    def available(self) -> bool:
        return bool(str(self._services.settings.get("llm.base_url") or "").strip())

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client(), name)


class LazyDraftService:
    """The data folder's ``core.drafts.drafting.Drafting``, built on first use.

    Why: importing drafting (its pydantic schemas, fact guard, mailer) costs ~0.3 s, and the
    board is usable before the owner ever opens a draft; ``warm`` imports it on a worker
    thread once the window is up.
    """

    def __init__(self, services: Services, llm: Any) -> None:
        self._services = services
        self._llm = llm
        self._service: Any = None

    def service(self) -> Any:
        if self._service is None:
            from core.drafts.drafting import build_drafting

            self._service = build_drafting(self._services, self._llm)
        return self._service

    @staticmethod
    def warm() -> None:
        import core.drafts.drafting  # noqa: F401

    def __getattr__(self, name: str) -> Any:
        return getattr(self.service(), name)


def build_llm(services: Services) -> LazyLLM:
    """One LLM client per data folder (``available`` is False until an endpoint is set)."""
    return LazyLLM(services)


def build_context(services: Services, *, is_demo: bool = False) -> AppContext:
    hub = SignalHub(services.bus)
    llm = build_llm(services)
    ctx = AppContext(
        services=services,
        hub=hub,
        stages=StageService(services.store, services.bus, services.clock),
        editor=InquiryEditor(services),
        translator=MessageTranslator(services, llm),
        llm=llm,
        is_demo=is_demo,
    )
    ctx.notifications = NotificationCenter(services).attach(services.bus, background=True)
    ctx.draft_service = LazyDraftService(services, llm)
    return ctx
