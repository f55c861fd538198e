"""The Outlook calendar for one data folder, when there is an account to read it with.

Kept apart from the briefing so ``briefing`` and the reminders stay usable (and testable) with no
Microsoft account: ``calendar_for`` answers None when nobody is signed in, and the briefing then
says the calendar was not checked instead of claiming tomorrow is free.
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
    from core.graph.auth import build_token_provider

    return GraphClient(
        str(services.settings.get("graph.base_url")),
        build_token_provider(services),
        clock=services.clock,
        max_concurrency=int(services.settings.get("graph.max_concurrency")),
    )


def calendar_for(client: GraphClient) -> OutlookCalendar:
    return OutlookCalendar(client)
