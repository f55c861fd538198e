"""需要您确认 behind the facade: the pipeline's guesses the owner should judge, and his one click.

``core.rhythm.attention`` records ``NeedsAttention`` events; this service is what the board, the
briefing window, the tray and Telegram ask: the open items, the inquiries they concern (the
board's marker and filter) and the resolutions — ``confirm`` (the guess was right), ``correct``
(the class was wrong: set it, then close the item) and ``dismiss``. Opening the inquiry is the
front end's own navigation. Splitting a wrong merge is not offered: the merge code has no split.
Every resolution publishes ``InquiryUpdated(id, ("attention",))`` so the board repaints the row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from core.events import InquiryUpdated
from core.rhythm.attention import AttentionItem, AttentionRecorder, items, open_inquiry_ids, resolve
from core.services import Services

if TYPE_CHECKING:
    from core.app.inquiries import InquiryService


class AttentionService:
    """Open items, and closing them (audited)."""

    def __init__(self, services: Services, inquiries: Callable[[], InquiryService]) -> None:
        """``inquiries``: the App's inquiry service, asked for when a class is corrected (the
        recorder is attached with the App; the board's modules load with the board)."""
        self._services = services
        self._inquiries = inquiries
        self.recorder = AttentionRecorder(services.store, services.clock, services.bus)

    def attach(self, *, background: bool = False) -> None:
        """Record ``NeedsAttention`` events (the ``App`` does this when built; the desktop asks
        again with ``background=True``: writes off the UI thread)."""
        self.recorder.attach(self._services.bus, background=background)

    def detach(self) -> None:
        self.recorder.detach()

    async def settled(self) -> None:
        """Wait until the items reported so far are recorded (they are written off the loop)."""
        await self.recorder.drain()

    async def items(self, *, open_only: bool = True) -> list[AttentionItem]:
        await self.recorder.drain()
        return await self._services.store.read(lambda s: items(s, open_only=open_only))

    async def inquiry_ids(self) -> set[int]:
        """Inquiries with an open item (the board marks and can filter them)."""
        await self.recorder.drain()
        return await self._services.store.read(open_inquiry_ids)

    async def count(self) -> int:
        return len(await self.items())

    async def confirm(self, key: str, *, actor: str = "owner") -> AttentionItem | None:
        """The guess was right: close the item (a low-confidence inquiry becomes ``high``)."""
        return await self._resolve(key, "confirmed", actor)

    async def dismiss(self, key: str, *, actor: str = "owner") -> AttentionItem | None:
        return await self._resolve(key, "dismissed", actor)

    async def correct(
        self, key: str, classification: str, *, actor: str = "owner"
    ) -> AttentionItem | None:
        """The class was wrong: store his class (audited field edit), then close the item."""
        item = next((i for i in await self.items() if i.key == key), None)
        if item is None:
            return None
        if item.inquiry_id is not None:
            await self._inquiries().update_fields(
                item.inquiry_id, {"classification": classification}, actor=actor
            )
        return await self._resolve(key, "corrected", actor)

    async def _resolve(self, key: str, resolution: str, actor: str) -> AttentionItem | None:
        now = self._services.clock.now()
        done = await self._services.store.run(
            lambda s: resolve(s, key, resolution, now, actor=actor)
        )
        if done is not None and done.inquiry_id is not None:
            self._services.bus.publish(InquiryUpdated(done.inquiry_id, ("attention",)))
        return done
