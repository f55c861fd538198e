"""Clients for work that runs without an ``App`` to lend them: in the composition root too.

Most of the system gets its model and Graph clients from the ``App`` that owns them (one model
client and one ``llm.concurrency`` limit, one Graph client and one 4-request limit per mailbox).
A few callers run where no ``App`` exists, or in an event loop of their own that must not close
what the ``App`` owns:

- ``repair`` runs before any ``App`` is built (the desktop's start-up repair, CLI ``repair``);
- a one-shot command's calendar read (``briefing``, ``appointment``) runs in its own
  ``asyncio.run``, so it cannot borrow the desktop's runtime client, which lives on another loop;
- the tests that drive a single service over bare ``Services``.

They get their clients here, each closed by whoever asked for it, so the rule "only ``core.app``
builds clients" holds without exceptions elsewhere (#23's composition-root test).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.import_lock import IMPORTING

if TYPE_CHECKING:
    from core.graph.client import GraphClient
    from core.intake.pipeline import IntakePipeline
    from core.mail.ports import DraftMailer, Mailer
    from core.services import Services


def own_graph_client(services: Services) -> GraphClient:
    """A Graph client of the caller's own (the caller closes it), over the folder's sign-in."""
    with IMPORTING:
        from core.graph.auth import build_token_provider
        from core.graph.client import GraphClient

    settings = services.settings
    return GraphClient(
        settings.text("graph.base_url"),
        build_token_provider(services),
        clock=services.clock,
        max_concurrency=settings.number("graph.max_concurrency") or 4,
    )


def own_graph_mailer(services: Services) -> DraftMailer:
    """A Graph mailer over a client of its own (``Drafting.aclose`` closes that client)."""
    with IMPORTING:
        from core.graph.mailer import GraphMailer

    mailer: DraftMailer = GraphMailer(
        own_graph_client(services),
        send_per_minute=services.settings.number("graph.send_per_minute") or 30,
    )
    return mailer


def own_mailer(services: Services) -> Mailer | None:
    """The folder's mailer (SMTP when configured, else Graph over a client of its own), or
    None when no mailbox is signed in or it cannot be built yet (drafts still compose and wait)."""
    import logging

    from core.drafts.mailer_choice import build_mailer

    try:
        return build_mailer(services, lambda: own_graph_mailer(services))
    except Exception as exc:  # the sign-in cannot be used yet
        logging.getLogger(__name__).info("no mailer: %s", exc)
        return None


async def close_own_mailer(mailer: object) -> None:
    """Close the Graph client of a mailer from ``own_mailer`` (an SMTP mailer holds none)."""
    client = getattr(mailer, "client", None)
    if client is not None and hasattr(client, "aclose"):
        await client.aclose()


def own_pipeline(services: Services, *, offline: bool = False) -> IntakePipeline:
    """The intake pipeline over a model client of its own (closed by the pipeline's
    ``aclose``), or rules only when ``offline`` or no ``llm.base_url`` is configured."""
    with IMPORTING:
        from core.intake.pipeline import IntakePipeline

    configured = bool(services.settings.text("llm.base_url").strip())
    if offline or not configured:
        return IntakePipeline(services, None, offline=offline)
    with IMPORTING:
        from core.llm.client import LLMClient

    llm = LLMClient(services.settings, services.secrets, services.store, services.clock)
    return IntakePipeline(services, llm, owns_llm=True)


__all__ = ["close_own_mailer", "own_graph_client", "own_graph_mailer", "own_mailer", "own_pipeline"]
