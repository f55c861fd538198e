"""Inquiries as the front ends see them: the board, the detail read model and the owner's edits.

Every method is a coroutine safe to await on the qasync loop (``page_started``: a future,
its read already under way): reads run on ``Store.read`` (a
worker thread; WAL lets them run beside the writer), writes on the single writer ``Store.run``,
and the events a change publishes follow the commit. Answers are frozen dataclasses from
``core.inquiry`` (``BoardPage``, ``BoardRow``, ``InquiryDetail``, ``StageChange``)
; no ORM object leaves this module.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from core.inquiry.board import (
    BoardPage,
    BoardQuery,
    BoardRow,
    fetch_rows,
    fetch_rows_by_id,
    load_page,
    message_counts,
    needs_me_total,
    stage_counts,
)
from core.inquiry.edit import InquiryEditor
from core.inquiry.stages import StageChange, StageService
from core.inquiry.translate import MessageTranslator, TextLLM
from core.services import Services

if TYPE_CHECKING:  # the detail, a note, a file: loaded on first use, not with the board (#44)
    from core.inquiry.detail import InquiryDetail
    from core.inquiry.files import AttachmentFile


class InquiryService:
    """Board list/counts/search, detail, field edits, notes, stage moves and translation."""

    def __init__(self, services: Services, llm: TextLLM | None) -> None:
        self._services = services
        self._editor = InquiryEditor(services)
        self._stages = StageService(services.store, services.bus, services.clock)
        self._translator = MessageTranslator(services, llm)

    @property
    def phone_region(self) -> str:
        """The region phone numbers are read in when written without a country code."""
        return self._services.settings.text("general.phone_region") or "AU"

    # -- board ---------------------------------------------------------------------------------
    async def page(
        self,
        query: BoardQuery,
        *,
        limit: int = 200,
        with_needs_me: bool = True,
        counted: BoardPage | None = None,
    ) -> BoardPage:
        """The first ``limit`` rows of ``query`` with the stage bar's counts and the total
        (those of ``counted`` when it has the same filters: a new sort order reads no counts)."""
        return await self.page_started(
            query, limit=limit, with_needs_me=with_needs_me, counted=counted
        )

    def page_started(
        self,
        query: BoardQuery,
        *,
        limit: int = 200,
        with_needs_me: bool = True,
        counted: BoardPage | None = None,
    ) -> asyncio.Future[BoardPage]:
        """``page``, its read already under way on a worker when this returns (it needs the
        running loop): a board asks for its first page while its window is still being built,
        and the rows are read meanwhile instead of after (#44)."""
        now = self._services.clock.now()
        return self._services.store.read_started(
            lambda s: load_page(
                s, query, now, limit=limit, with_needs_me=with_needs_me, counted=counted
            )
        )

    async def rows(self, query: BoardQuery, *, offset: int = 0, limit: int = 200) -> list[BoardRow]:
        """The next page of ``query`` (the board fetches more as the owner scrolls)."""
        now = self._services.clock.now()
        return await self._services.store.read(
            lambda s: fetch_rows(s, query, now, offset=offset, limit=limit)
        )

    async def rows_by_id(self, inquiry_ids: list[int]) -> list[BoardRow]:
        """The rows of ``inquiry_ids`` (one query): a board updating the rows an action changed."""
        now, ids = self._services.clock.now(), list(inquiry_ids)
        return await self._services.store.read(lambda s: fetch_rows_by_id(s, ids, now))

    async def counts(self, query: BoardQuery) -> tuple[dict[str, int], int]:
        """The stage bar's counts under ``query`` and the "needs me" total, without a page:
        what a board re-reads when an inquiry it has not loaded changed."""
        now = self._services.clock.now()
        return await self._services.store.read(
            lambda s: (stage_counts(s, query, now), needs_me_total(s, now))
        )

    async def needs_me_count(self) -> int:
        """How many inquiries need the owner (the tray's badge)."""
        now = self._services.clock.now()
        return await self._services.store.read(lambda s: needs_me_total(s, now))

    async def message_counts(self, inquiry_ids: list[int]) -> dict[int, int]:
        """Thread length per inquiry (absent: no messages)."""
        ids = list(inquiry_ids)
        return await self._services.store.read(lambda s: message_counts(s, ids))

    # -- detail --------------------------------------------------------------------------------
    async def detail(self, inquiry_id: int) -> InquiryDetail | None:
        """One inquiry with its thread, stage history, notes and drive folder."""
        from core.inquiry.detail import load_detail

        return await self._services.store.read(lambda s: load_detail(s, inquiry_id))

    async def attachment_file(self, attachment_id: int) -> AttachmentFile | None:
        """A stored attachment's name, absolute path and size (what the assistant found, to
        open or send); None when it is unknown, was never stored or is gone from disk."""
        from core.inquiry.files import load_attachment_file

        paths = self._services.paths
        return await self._services.store.read(
            lambda s: load_attachment_file(s, paths, attachment_id)
        )

    # -- owner edits ---------------------------------------------------------------------------
    async def update_fields(
        self, inquiry_id: int, changes: Mapping[str, object], *, actor: str = "owner"
    ) -> tuple[str, ...]:
        """Apply field edits (each audited); the fields that really changed.

        Raises ``core.inquiry.edit.InvalidField`` (with the field's name) on a bad value.
        """
        return await self._editor.update_fields_async(inquiry_id, changes, actor=actor)

    async def add_note(
        self, inquiry_id: int, text: str, *, actor: str = "owner", source: str = "desktop"
    ) -> int:
        """Add a typed note to an inquiry (audited); its id."""
        from core.inquiry.notes import add_customer_note_async

        return await add_customer_note_async(
            self._services, inquiry_id, text, source=source, actor=actor
        )

    async def advance_stage(
        self, inquiry_id: int, to_stage: str, *, reason: str, triggered_by: str = "owner"
    ) -> StageChange | None:
        """Move an inquiry's stage (audited, ``StageChanged`` published); None if unchanged."""
        return await self._stages.advance_async(
            inquiry_id, to_stage, reason=reason, triggered_by=triggered_by
        )

    async def owed_writes(self, *, status: str | None = None) -> list[dict[str, Any]]:
        """The writes owed to OneDrive (folder moves), queued and closed (``core.db.owed``)."""
        from core.db.owed import owed_rows

        return await self._services.store.read(lambda s: owed_rows(s, status=status))

    # -- translation ---------------------------------------------------------------------------
    async def translate(self, message_pk: int, *, force: bool = False) -> str:
        """The Chinese translation of a message (made once by the model, then cached)."""
        return await self._translator.translate(message_pk, force=force)
