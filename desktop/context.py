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
from core.drafts.service import build_draft_service
from core.inquiry_edit import InquiryEditor
from core.llm.client import LLMClient
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


def build_llm(services: Services) -> LLMClient:
    """One LLM client per data folder (``available`` is False until an endpoint is set)."""
    return LLMClient(services.settings, services.secrets, services.store, services.clock)


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
    ctx.notifications = NotificationCenter(services).attach(services.bus)
    ctx.draft_service = build_draft_service(services, llm)
    return ctx
