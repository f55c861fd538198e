"""What the assistant proposed to change after reading customer mail, as the owner decides it.

A turn that read customer content only *proposes* a stage change, a note or a OneDrive folder
his own words did not ask for (``core.agent.consent``). The chat panel and Telegram show each
proposal with 确认 / 放弃; both come here, so confirming is the same act on every surface: the
write is made as his (``core.agent.proposals.apply``), audited, and the row is kept.
"""

from __future__ import annotations

from core.agent.proposals import ProposalError, ProposalItem, apply, list_proposals
from core.services import Services

__all__ = ["ProposalError", "ProposalItem", "ProposalService"]


class ProposalService:
    def __init__(self, services: Services) -> None:
        self._services = services

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
        return await apply(self._services, proposal_id, confirm=True, actor=actor)

    async def drop(self, proposal_id: int, *, actor: str = "owner") -> ProposalItem:
        """Nothing is written; the proposal is kept as dropped."""
        return await apply(self._services, proposal_id, confirm=False, actor=actor)
