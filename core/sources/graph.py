"""Microsoft Graph as a ``MessageSource``: one delta round of Inbox/Sent Items as RawMessages.

``MailSync.run_once`` is what the poller uses (batches, removals, cursor handling). This adapter
exists for code written against the generic ``MessageSource`` protocol (``ingest_source``): it
yields the round's new messages oldest first, and the caller calls ``commit()`` after it has
ingested them all — the delta links only move then, so an interrupted consumer loses nothing,
and the files streamed for it are deleted when its iteration stops early (``discard``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from core.graph.mail_sync import MailRoundPlan, MailSync
from core.mail import spool as mail_spool
from core.mail.ports import MessageSource
from core.mail.source import RawMessage


class GraphMessageSource:
    """Iterate once, ingest everything, then ``await source.commit()``."""

    def __init__(self, sync: MailSync) -> None:
        port: MessageSource[MailRoundPlan, dict[str, Any]] = (
            sync  # MailSync is the Graph side of the port
        )
        self.sync = sync
        self.port = port
        self.plan: MailRoundPlan | None = None
        self.removed: list[str] = []

    async def __aiter__(self) -> AsyncIterator[RawMessage]:
        self.plan = await self.sync.plan_round()
        self.removed = [gid for lst in self.plan.listings for gid in lst.removed]
        try:
            for batch in self.sync.batches(self.plan.new):
                for raw in await self.sync.fetch_batch(batch):
                    yield raw  # a streamed mail's file stays until commit() (MailSync.commit)
        except BaseException:  # the consumer stopped early (or a download failed): no commit
            self.discard()
            raise

    def discard(self) -> None:
        """Delete the files streamed for this round (a consumer that failed calls it, as does an
        iteration closed early); the cursor has not moved, so the next round fetches them again."""
        if self.sync.downloaded:
            left, self.sync.downloaded = list(self.sync.downloaded), set()
            mail_spool.discard(left)

    async def commit(self) -> None:
        """Record removals and advance the delta links (after the consumer committed all)."""
        if self.plan is None:
            return
        for gid in self.removed:
            await self.sync.sink.record_removed(gid)
        await self.sync.commit(self.plan)
        self.plan = None
