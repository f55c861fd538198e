"""The one function that builds the system for a data folder."""

from __future__ import annotations

from pathlib import Path

from core.app.facade import App
from core.clock import Clock
from core.events import EventBus
from core.secrets import Secrets
from core.services import build_services


def explain_error(exc: BaseException) -> BaseException:
    """The owner's sentence for a database or file-system failure (a full disk, a read-only
    folder) raised anywhere, as an ``InquiryBridgeError``; anything else as it is. For front
    ends, which may not look at SQLAlchemy or sqlite3 errors themselves."""
    from core.db.store import explain_any

    return explain_any(exc)


def build_app(
    home: str | Path | None = None,
    *,
    clock: Clock | None = None,
    bus: EventBus | None = None,
    secrets: Secrets | None = None,
    is_demo: bool = False,
) -> App:
    """The ``App`` of data folder ``home`` (``INQUIRY_BRIDGE_HOME`` or the platform's default
    when None): its store opened and migrated, settings, secrets, clock and event bus.

    ``clock``, ``bus`` and ``secrets`` are for tests and for the demo folder, which shares the
    real folder's clock. Close it with ``App.close`` (after ``await App.aclose`` on the loop).
    """
    services = build_services(home, clock=clock, bus=bus, secrets=secrets)
    return App(services, is_demo=is_demo)
