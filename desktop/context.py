"""What every window receives: the data folder's ``App`` and the ``SignalHub`` over its events.

Windows get an ``AppContext`` in their constructor (services passed in, never globals reached
for) and talk to core only through ``ctx.app`` (the typed async facade, ``core.app``) and the
hub's signals. Switching to the demo data folder builds a second context over a second ``App``;
``desktop.app.DesktopApp`` re-wires its long-lived parts (tray, banner) to it in one place.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, TypedDict

from core.app import App
from core.app.types import LazyDrafts, NotificationCenter
from desktop.hub import SignalHub

if TYPE_CHECKING:
    from desktop.app import DesktopApp
    from desktop.i18n import LanguageManager

log = logging.getLogger(__name__)


class ContextExtras(TypedDict, total=False):
    """What the running desktop app hangs on a context (a context built bare has neither)."""

    app: DesktopApp
    languages: LanguageManager


@dataclass
class AppContext:
    """The ``App`` of one data folder plus the hub re-emitting its bus as Qt signals."""

    app: App
    hub: SignalHub
    extras: ContextExtras = field(default_factory=ContextExtras)

    @property
    def is_demo(self) -> bool:
        return self.app.is_demo

    @property
    def draft_service(self) -> LazyDrafts:
        return self.app.drafts

    @property
    def notifications(self) -> NotificationCenter | None:
        return self.app.notifications.center

    @property
    def now(self) -> datetime:
        return self.app.clock.now()

    async def aclose_clients(self) -> None:
        """Close the HTTP clients (the LLM's connection pool) on the loop that opened them."""
        await self.app.aclose()

    def detach(self) -> None:
        """Stop re-emitting this folder's events (the folder itself stays open)."""
        self.hub.detach()

    def close(self) -> None:
        self.hub.detach()
        self.app.close()


def build_context(app: App) -> AppContext:
    """The context over ``app`` (from ``build_app``); the outbox starts raising notifications
    from the folder's events on its own worker thread."""
    app.notifications.attach(background=True)
    app.attention.attach(background=True)  # 需要您确认 rows written off the UI thread
    return AppContext(app=app, hub=SignalHub(app.bus))
