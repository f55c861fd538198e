"""Drafting, built once per data folder and handed out by capability.

    Drafting
     ├─ composer   DraftComposer    compose, compose_for_contact, revise      → pending_approval
     ├─ edits      OwnerEdits       update_body, set_recipients, set_attachments, add_owner_file,
     │                              confirm_facts, rerender_zh                 (never approves)
     ├─ decisions  OwnerDecisions   approve, reject, send, send_due, reconcile (owner only)
     └─ reader     DraftReader      get, list, events, attachment_options, recent_contact,
                                    describe_for_tool, …                       (reads only)

Who gets what: the owner's surfaces (approval window, local CLI) get the whole ``Drafting``;
the paired owner's Telegram buttons and the scheduler get ``decisions`` only; the assistant's
tools get ``composer`` and ``reader`` only (``core.agent.tools.ToolContext``) — so "the model
cannot approve or send" holds because no object it is handed has such a method, not because a
list says so. Every public method is a coroutine; dataclasses in and out, no ORM rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.drafts.base import DraftCore
from core.drafts.decisions import OwnerDecisions
from core.drafts.draft_composer import DraftComposer
from core.drafts.edits import OwnerEdits
from core.drafts.reader import DraftReader
from core.drafts.sender import DraftSender
from core.services import Services

if TYPE_CHECKING:
    from core.llm.model import ModelClient
    from core.mail.ports import Mailer


@dataclass(frozen=True)
class Drafting:
    """The four drafting capabilities of one data folder (the owner's full set)."""

    composer: DraftComposer
    edits: OwnerEdits
    decisions: OwnerDecisions
    reader: DraftReader

    async def aclose(self) -> None:
        """Close the Graph client of the sender's mailer (for a front end that built it; the
        model client belongs to whoever made it)."""
        client = getattr(self.decisions.sender.mailer, "client", None)
        if client is not None and hasattr(client, "aclose"):
            await client.aclose()


def build_drafting(
    services: Services,
    llm: ModelClient | None,
    mailer: Mailer | None = None,
) -> Drafting:
    """Drafting over ``llm`` and ``mailer``, both handed down by the composition root (the
    ``App``'s); without a mailer, sending answers 'waiting' and drafts still compose."""
    core = DraftCore(services)
    return Drafting(
        composer=DraftComposer(core, llm),
        edits=OwnerEdits(core, llm),
        decisions=OwnerDecisions(core, DraftSender(services, mailer, publish=core.publish)),
        reader=DraftReader(core),
    )


def build_owner_decisions(services: Services, mailer: Mailer | None = None) -> OwnerDecisions:
    """Only the decisions (Telegram buttons, the scheduler's sends): no model needed. The mailer
    is the composition root's; without one, sending answers 'waiting'."""
    core = DraftCore(services)
    return OwnerDecisions(core, DraftSender(services, mailer, publish=core.publish))
