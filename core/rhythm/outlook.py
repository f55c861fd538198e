"""The Outlook calendar for one data folder, when there is an account to read it with.

Kept apart from the briefing so ``briefing`` and the reminders stay usable (and testable) with no
Microsoft account: ``has_account`` says whether anyone is signed in, and when nobody is the
briefing says the calendar was not checked instead of claiming tomorrow is free.

The calendar is read through the Graph runtime's one client (``calendar_for(client)``, which
``App.rhythm.appointments`` hands ``App.graph().client``): one client and one 4-request limit
per mailbox for sync, OneDrive, the mailer and the calendar.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.graph.calendar import OutlookCalendar
from core.graph.client import GraphClient
from core.secrets import GRAPH_TOKEN

if TYPE_CHECKING:
    from core.services import Services


def has_account(services: Services) -> bool:
    """A Microsoft account is set up: a preset token, or a signed-in msal cache."""
    if services.secrets.get(GRAPH_TOKEN):
        return True
    if not services.settings.text("graph.client_id"):
        return False
    from core.graph.auth import build_msal

    return bool(build_msal(services).username())


def calendar_for(client: GraphClient) -> OutlookCalendar:
    """The calendar over ``client`` (the runtime's: the caller hands it in, never makes it)."""
    return OutlookCalendar(client)
