"""``DraftReading`` (``App.draft_reading``): the drafts as read, without drafting itself.

Why apart from ``App.drafts``: the 待审批 list is on screen at start-up, and ``App.drafts`` builds
the whole of drafting (composer, fact guard, mailer) on first use. A ``DraftReader`` alone is a
store and a few dataclasses, so the list reads through this one and drafting still loads only
when a window that drafts opens.

``sample_draft`` is the screenshot's: the newest draft waiting for approval, or a sample one
written for the picture (the screenshot command renders over a temporary copy of the folder).
"""

from __future__ import annotations

from core.drafts.reader import DraftReader, build_reader
from core.services import Services


class DraftReading:
    def __init__(self, services: Services) -> None:
        self._services = services
        self._reader: DraftReader | None = None

    @property
    def reader(self) -> DraftReader:
        """The folder's reader (lists, one draft's view, its files and recent mail)."""
        if self._reader is None:
            self._reader = build_reader(self._services)
        return self._reader

    async def sample_draft(self) -> int:
        """The newest pending draft (else the newest), or a sample one written for a picture."""
        from core.drafts.sample import ensure_sample_draft  # the fact guard: only when asked

        return await ensure_sample_draft(self._services)
