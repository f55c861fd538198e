"""Which mailer sends for this data folder: SMTP when an SMTP URL is set, else Graph.

Built here (not in the sender) so the send-once state machine in ``core.drafts.sender`` knows
only the ``core.mail.ports.Mailer`` port, never a concrete mailbox. The Graph mailer is the
Graph runtime's (``graph``, handed in by the composition root ``core.app``): one Graph client
and one 4-request limit per mailbox for sync, OneDrive, the calendar and sending.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from core.mail.ports import DraftMailer, Mailer, SubmitMailer

if TYPE_CHECKING:
    from core.mailbox.outgoing import Outgoing
from core.services import Services


def graph_signed_in(services: Services) -> bool:
    """A Graph sign-in is configured (a preset token or an Azure client id)."""
    from core.secrets import GRAPH_TOKEN

    return bool(services.secrets.get(GRAPH_TOKEN) or services.settings.text("graph.client_id"))


def build_mailer(services: Services, graph: Callable[[], DraftMailer]) -> Mailer | None:
    """The SMTP mailer when an SMTP URL is configured (``core.mailbox``), else the Graph mailer
    ``graph()`` gives (the composition root's: the runtime's, or for a caller without an ``App``
    ``core.app.standalone.own_graph_mailer``), or None when no sign-in is configured at all."""
    from core.mailbox.account import smtp_configured
    from core.mailbox.runtime import build_smtp_mailer

    if smtp_configured(services.settings):
        smtp: SubmitMailer[Outgoing] = build_smtp_mailer(services)  # mypy checks the port here
        return smtp
    if not graph_signed_in(services):
        return None
    return graph()
