"""What the assistant proposed to change after reading customer mail, as the owner decides it.

A turn that read customer content only *proposes* a stage change, a note or a OneDrive folder
his own words did not ask for (``core.agent.consent``). The chat panel and Telegram show each
proposal with 确认 / 放弃; both come here, so confirming is the same act on every surface: the
write is made as his (``core.agent.proposals.apply``), audited, and the row is kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from core.agent.proposals import ProposalError, ProposalItem, apply, list_proposals
from core.services import Services

if TYPE_CHECKING:
    from core.agent.tools.drive_access import CustomerDrive

__all__ = ["ProposalError", "ProposalItem", "ProposalService"]


class ProposalService:
    def __init__(
        self, services: Services, drive: Callable[[], CustomerDrive] | None = None
    ) -> None:
        """``drive``: the App's OneDrive access, for a confirmed folder proposal."""
        self._services = services
        self._drive = drive

    async def open(self) -> list[ProposalItem]:
        """The proposals waiting for his word, oldest first."""
        return await self._services.store.read(lambda s: list_proposals(s, ("open",)))

    async def every(self) -> list[ProposalItem]:
        """Every proposal, decided ones too, oldest first (``proposals --all``)."""
        return await self._services.store.read(lambda s: list_proposals(s, None))

    async def get(self, proposal_id: int) -> ProposalItem | None:
        items = await self._services.store.read(lambda s: list_proposals(s, None))
        return next((i for i in items if i.id == proposal_id), None)

    async def confirm(self, proposal_id: int, *, actor: str = "owner") -> ProposalItem:
        """Make the proposed write, as the owner's act."""
        drive = self._drive() if self._drive else None
        return await apply(self._services, proposal_id, confirm=True, actor=actor, drive=drive)

    async def drop(self, proposal_id: int, *, actor: str = "owner") -> ProposalItem:
        """Nothing is written; the proposal is kept as dropped."""
        return await apply(self._services, proposal_id, confirm=False, actor=actor)
