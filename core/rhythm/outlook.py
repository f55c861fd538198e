"""The Outlook calendar for one data folder, when there is an account to read it with.

Kept apart from the briefing so ``briefing`` and the reminders stay usable (and testable) with no
Microsoft account: ``calendar_for`` answers None when nobody is signed in, and the briefing then
says the calendar was not checked instead of claiming tomorrow is free.

The calendar is read through the Graph runtime's one client (``calendar_for(client)``, which
``App.rhythm.appointments`` hands ``App.graph().client``): one client and one 4-request limit
per mailbox for sync, OneDrive, the mailer and the calendar.
"""

from __future__ import annotations

from typing import Any

from core.graph.calendar import OutlookCalendar
from core.graph.client import GraphClient
from core.secrets import GRAPH_TOKEN


def has_account(services: Any) -> bool:
    if services.secrets.get(GRAPH_TOKEN):
        return True
    if not services.settings.get("graph.client_id"):
        return False
    from core.graph.auth import build_msal

    return bool(build_msal(services).username())


def graph_client(services: Any) -> GraphClient:
    """A Graph client of its own — legacy, not the composition root's: kept only for the
    callers that do not get one handed down yet (``core/cli/rhythm.py``, which should ask
    ``App.rhythm.appointments()``, and ``core.agent.tools.drive_access``'s per-call OneDrive
    client). Listed in ``PENDING_LEGACY`` of #23's composition-root test."""
    from core.graph.auth import build_token_provider

    return GraphClient(
        str(services.settings.get("graph.base_url")),
        build_token_provider(services),
        clock=services.clock,
        max_concurrency=int(services.settings.get("graph.max_concurrency")),
    )


def calendar_for(client: GraphClient) -> OutlookCalendar:
    """The calendar over ``client`` (the runtime's: the caller hands it in, never makes it)."""
    return OutlookCalendar(client)
