"""What every tool is made of: the ``Tool`` record, the ``ToolContext`` it may use, and the
audit row its writes leave (``ACTOR``, ``audit``). Reading the model's arguments and writing
answers it cannot misread live beside it, in ``core.agent.tools.args``.

Why a context and not the services' whole world: a handler can only do what its ``ToolContext``
holds. For drafting that is a ``DraftComposer`` (writes drafts into the owner's queue) and a
``DraftReader``; for OneDrive a ``CustomerDrive`` (list, read, make a folder, fetch a file).
Approving, rejecting and sending live on ``OwnerDecisions``, the mailer and the calendar's
``confirm``, which no ``ToolContext`` refers to — ``tests/agent/test_assistant.py`` walks the
objects to prove it.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from core.agent.tools.drive_access import CustomerDrive
from core.clock import naive_utc
from core.db.models import AuditEntry
from core.drafts.draft_composer import DraftComposer
from core.drafts.reader import DraftReader
from core.errors import InquiryBridgeError
from core.provenance import Text
from core.services import Services

if TYPE_CHECKING:
    from core.agent.memory_dedupe import DuplicateJudge
    from core.drafts.drafting import Drafting

ACTOR = "agent"  # who every write of a tool is audited as
GATED_WRITES = frozenset({"stage", "note", "memory", "folder"})  # proposals after customer text


class ToolError(InquiryBridgeError):
    """A tool refused its arguments; the message goes back to the model."""


@dataclass
class Focus:
    """Whom one turn's tools were about, to make him the conversation's current customer.

    The customer a tool wrote for (the last draft) wins; else the one customer the lookups
    found and read; several (a search with several hits, near spellings only, or reads of two
    different customers) leave nobody current, so "他" next time makes the assistant ask.
    """

    acted: int | None = None
    looked: set[int] = field(default_factory=set)
    several: bool = False

    def customer(self) -> tuple[bool, int | None]:
        """(whether the turn said anything about whom, the customer it settled on)."""
        if self.acted is not None:
            return True, self.acted
        if self.several or len(self.looked) > 1:
            return True, None
        if self.looked:
            return True, next(iter(self.looked))
        return False, None


@dataclass
class ToolContext:
    """What the tools may use: the data folder's services, of drafting only the composer and
    the reader (never the owner's decisions), and of OneDrive only the customer-file view."""

    services: Services
    composer: DraftComposer
    reader: DraftReader
    drive: CustomerDrive = field(default=None)  # type: ignore[assignment]  # set below
    customer_content_seen: bool = False  # this turn read customer text: writes are proposals
    # the owner's own words of this turn: the instruction of record, what he asked for
    owner_words: Text = field(default_factory=lambda: Text.owner(""))
    current_inquiry_id: int | None = None  # the customer "他" meant when the owner wrote
    propose_only: bool = False  # set by the loop for one call: this write is only a proposal
    # whether a new memory repeats an old one (the cheap model; ``core.agent.memory_dedupe``):
    # a judge of duplicates, not the model client
    memory_judge: DuplicateJudge | None = None
    proposals: list[int] = field(default_factory=list)  # proposals a tool stored this turn
    channel: str = "cli"  # where the conversation runs (recorded with a proposal)
    # whom this turn's tools settled on: the conversation's current customer after the turn.
    # ``current_inquiry_id`` stays what "他" meant when he wrote, so the consent rule never
    # follows a lookup the model was steered into.
    focus: Focus = field(default_factory=lambda: Focus())

    def resolved(self, inquiry_id: int, *, acted: bool = False) -> None:
        """A tool found or read exactly one customer; ``acted``: it wrote for him (a draft)."""
        if acted:
            self.focus.acted = inquiry_id
        else:
            self.focus.looked.add(inquiry_id)

    def ambiguous(self) -> None:
        """A lookup found several customers: "他" means none of them until the owner says."""
        self.focus.several = True

    def __post_init__(self) -> None:
        if self.drive is None:
            self.drive = CustomerDrive(self.services)

    @classmethod
    def from_drafting(cls, services: Services, drafting: Drafting) -> ToolContext:
        """Take only the composer and the reader out of a ``core.drafts.drafting.Drafting``."""
        return cls(services, drafting.composer, drafting.reader)


Handler = Callable[[ToolContext, dict[str, Any]], Awaitable[str]]


@dataclass(frozen=True)
class Tool:
    """One function the model may call.

    The one place a tool says what it is; the loop, the consent rule (``core.agent.consent``),
    the front ends (drafts to open, files to offer) and the assertion guard read it here, never from
    lists of names kept elsewhere.

    ``label_zh`` / ``label_en``: the few words a front end shows while it runs ("正在查找客户…").
    ``reads_customer_content``: its answer carries text customers wrote, so the turn is tainted:
    a write the owner's own words did not ask for becomes a proposal.
    ``writes``: what it changes — ``draft`` (into the approval queue), ``stage``, ``note``,
    ``memory``, ``folder``, ``appointment`` and ``knowledge`` (proposals already). ``stage``,
    ``note``, ``memory`` and ``folder`` are gated by the consent rule (``GATED_WRITES``).
    ``returns_files``: its answer lists stored attachments the owner may open.
    ``backs``: the assertion kinds (``core.agent.assertions.KINDS``) its success can back.
    """

    name: str
    description: str
    parameters: dict[str, Any]
    handler: Handler
    label_zh: str = "正在处理…"
    label_en: str = "Working…"
    reads_customer_content: bool = False
    writes: frozenset[str] = frozenset()
    returns_files: bool = False
    backs: frozenset[str] = frozenset()

    @property
    def drafts(self) -> bool:
        """It writes drafts into the owner's queue (the front end opens them)."""
        return "draft" in self.writes

    @property
    def gated(self) -> frozenset[str]:
        """The writes of this tool that a tainted turn may only propose."""
        return self.writes & GATED_WRITES

    def spec(self) -> dict[str, Any]:
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }


def marking(tool: Tool) -> Tool:
    """The tool whose successful answer marks the turn as having read customer content."""
    if not tool.reads_customer_content:
        return tool
    inner = tool.handler

    async def handler(ctx: ToolContext, args: dict[str, Any]) -> str:
        result = await inner(ctx, args)
        ctx.customer_content_seen = True
        return result

    return replace(tool, handler=handler)


def audit(
    session: Session, entity: str, entity_id: int | None, action: str, now: datetime, **detail: Any
) -> None:
    """One ``audit_log`` row for a write a tool made, with ``actor="agent"``."""
    session.add(
        AuditEntry(
            entity=entity,
            entity_id=entity_id,
            action=action,
            detail=detail,
            actor=ACTOR,
            at=naive_utc(now),
        )
    )
