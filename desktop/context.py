"""What every window receives: the data folder's ``App`` and the ``SignalHub`` over its events.

Windows get an ``AppContext`` in their constructor (services passed in, never globals reached
for) and talk to core only through ``ctx.app`` (the typed async facade, ``core.app``) and the
hub's signals. Switching to the demo data folder builds a second context over a second ``App``;
``desktop.app.DesktopApp`` re-wires its long-lived parts (tray, banner) to it in one place.

What a window asks of the running app itself (the settings dialog, the owner's real folder while
the demo is shown) it asks through ``ctx.shell``, a ``Shell``: the few calls a window needs,
declared here so that no window module imports the app that builds the windows (that import
closed a circle through every window).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from dataclasses import field
from datetime import datetime
from typing import Protocol

from PySide6.QtWidgets import QDialog

from core.app import App
from core.app.types import LazyDrafts
from core.app.types import NotificationCenter
from desktop.hub import SignalHub

log = logging.getLogger(__name__)


class Shell(Protocol):
    """What the running desktop app (``desktop.app.DesktopApp``) offers the windows it builds.

    A context built bare (tests, screenshots, benchmarks) has none: a window then falls back
    (a plain ``settings_requested`` signal, this context's own folder)."""

    def show_settings(self, page: int = 0) -> QDialog | None:
        """The settings dialog at ``page`` (brought forward when it is open)."""
        ...

    def real_context(self) -> AppContext:
        """A context over the owner's real folder (this one unless the demo is shown)."""
        ...


@dataclass
class AppContext:
    """The ``App`` of one data folder plus the hub re-emitting its bus as Qt signals."""

    app: App
    hub: SignalHub
    shell: Shell | None = field(default=None, compare=False)

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
