"""Which mailer sends for this data folder: SMTP when an SMTP URL is set, else Graph.

Built here (not in the sender) so the send-once state machine in ``core.drafts.sender`` knows
only the ``core.mail.ports.Mailer`` port, never a concrete mailbox. The Graph mailer is the
Graph runtime's (``graph``, handed in by the composition root ``core.app``): one Graph client
and one 4-request limit per mailbox for sync, OneDrive, the calendar and sending.
"""

from __future__ import annotations

from collections.abc import Callable

from core.mail.ports import DraftMailer, Mailer, SubmitMailer
from core.services import Services


def graph_signed_in(services: Services) -> bool:
    """A Graph sign-in is configured (a preset token or an Azure client id)."""
    from core.secrets import GRAPH_TOKEN

    return bool(services.secrets.get(GRAPH_TOKEN) or services.settings.get("graph.client_id"))


def build_mailer(
    services: Services, graph: Callable[[], DraftMailer] | None = None
) -> Mailer | None:
    """The SMTP mailer when an SMTP URL is configured (``core.mailbox``), else the Graph mailer
    ``graph()`` gives (the runtime's), or None when no sign-in is configured at all.

    ``graph`` None is the old signature, kept until the front ends still calling it
    (``core/cli/repair.py``, and through ``build_drafting``/``build_owner_decisions`` the
    approval window, ``core/cli/drafts.py`` and the Telegram runner) get drafting from ``App``:
    it makes a Graph client of its own (``PENDING_LEGACY`` in #23's composition-root test)."""
    from core.mailbox.runtime import build_smtp_mailer, smtp_configured

    if smtp_configured(services.settings):
        smtp: SubmitMailer = build_smtp_mailer(services)  # mypy checks the port here
        return smtp
    if not graph_signed_in(services):
        return None
    if graph is not None:
        return graph()
    return _own_graph_mailer(services)


def _own_graph_mailer(services: Services) -> DraftMailer:
    """The legacy path of ``build_mailer``: a Graph client and mailer of its own."""
    from core.graph.auth import build_token_provider
    from core.graph.client import GraphClient
    from core.graph.mailer import GraphMailer

    settings = services.settings
    client = GraphClient(
        settings.get("graph.base_url"),
        build_token_provider(services),
        clock=services.clock,
        max_concurrency=int(settings.get("graph.max_concurrency") or 4),
    )
    graph: DraftMailer = GraphMailer(
        client, send_per_minute=int(settings.get("graph.send_per_minute") or 30)
    )
    return graph
