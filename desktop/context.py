"""The app's service objects, built once per data folder and handed to every window.

Windows receive an ``AppContext`` in their constructor (services passed in, never globals reached
for): the core ``Services`` plus the long-lived core service objects the desktop calls — stage
moves, owner edits, translation, drafting — and the ``SignalHub`` turning core events into Qt
signals. Switching to the demo data folder builds a second context; nothing else changes.
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass, field
from typing import Any

from core.deals.stages import StageService
from core.inquiry_edit import InquiryEditor
from core.services import Services
from core.translate import MessageTranslator
from desktop.hub import SignalHub

log = logging.getLogger(__name__)


def _optional(module: str, name: str) -> Any:
    """A class from a module another area is still writing (None until it lands)."""
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        log.info("%s.%s not available yet", module, name)
        return None


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
        self.services.close()


def build_llm(services: Services) -> Any:
    cls = _optional("core.llm.client", "LLMClient")
    if cls is None:
        return None
    return cls(services.settings, services.secrets, services.store, services.clock)


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
    center_cls = _optional("core.notify.outbox", "NotificationCenter")
    if center_cls is not None:
        ctx.notifications = center_cls(services)
        ctx.notifications.attach(services.bus)
    build_drafts = _optional("core.drafts.service", "build_draft_service")
    if build_drafts is not None:
        ctx.draft_service = build_drafts(services, llm)
    return ctx
