"""Which mailer sends for this data folder: SMTP when an SMTP URL is set, else Graph.

Built here (not in the sender) so the send-once state machine in ``core.drafts.sender`` knows
only the ``core.mail.ports.Mailer`` port, never a concrete mailbox.
"""

from __future__ import annotations

from core.mail.ports import DraftMailer, Mailer, SubmitMailer
from core.services import Services


def build_mailer(services: Services) -> Mailer | None:
    """The SMTP mailer when an SMTP URL is configured (``core.mailbox``), else a GraphMailer
    for this data folder, or None when no sign-in is configured at all."""
    from core.mailbox.runtime import build_smtp_mailer, smtp_configured

    if smtp_configured(services.settings):
        smtp: SubmitMailer = build_smtp_mailer(services)  # mypy checks the port here
        return smtp
    from core.graph.auth import build_token_provider
    from core.graph.client import GraphClient
    from core.graph.mailer import GraphMailer
    from core.secrets import GRAPH_TOKEN

    settings = services.settings
    if not services.secrets.get(GRAPH_TOKEN) and not settings.get("graph.client_id"):
        return None
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
