"""Measuring visits behind the facade: three free times, his confirmation from any surface.

The desktop's dialog, the Telegram button and ``appointment`` all come here, so confirming is
one act wherever he presses: ``core.rhythm.appointments`` books the visit (the store refuses a
second booking of its quarter hours), writes the Outlook event when he has a Microsoft account
(else the visits booked here are his calendar), moves the job to ``measure`` and drafts the
customer's confirmation with the folder's drafting -- a draft that waits for his approval. The
daily task asks ``remind_due`` for the day-before reminders.

The Outlook calendar goes through the App's Graph runtime client when there is one, else (a
one-shot command in its own event loop, a runner over bare services) a client of its own that
is closed when the act is done.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import TYPE_CHECKING

from core.services import Services

if TYPE_CHECKING:
    from core.app.graph_runtime import GraphRuntime
    from core.app.lazy import LazyDrafts
    from core.graph.client import GraphClient
    from core.rhythm.appointments import Appointments, Confirmed, Proposal
    from core.rhythm.visit_mail import VisitMail


class VisitService:
    def __init__(
        self,
        services: Services,
        drafts: LazyDrafts,
        graph: Callable[[], GraphRuntime] | None = None,
        *,
        is_demo: bool = False,
    ) -> None:
        """``graph``: the App's Graph runtime (None: a client of its own per act)."""
        self._services = services
        self._drafts = drafts
        self._graph = graph
        self._is_demo = is_demo

    async def _draft(self, inquiry_id: int, mail: VisitMail, actor: str) -> int:
        """A visit mail as a reply draft waiting for approval (no model: code wrote it)."""
        return await self._drafts.composer.compose_document(
            inquiry_id,
            subject=mail.subject,
            body_en=mail.body_en,
            body_zh=mail.body_zh,
            instruction=mail.instruction,
            actor=actor,
            link=lambda _session, _draft: None,
        )

    @contextlib.asynccontextmanager
    async def appointments(self) -> AsyncIterator[Appointments]:
        """The appointments over his calendar for one act (closed after)."""
        from core.graph.calendar import OutlookCalendar
        from core.rhythm.appointments import Appointments
        from core.rhythm.outlook import has_account

        s = self._services
        client: GraphClient | None = None
        own = False
        if not self._is_demo and has_account(s):
            if self._graph is not None:
                client = self._graph().client
            else:
                from core.app.standalone import own_graph_client

                client, own = own_graph_client(s), True
        lent = client
        try:
            yield Appointments(
                s.store,
                s.bus,
                s.clock,
                (lambda: OutlookCalendar(lent)) if lent is not None else None,
                drafter=self._draft,
                signature=s.settings.text("drafts.signature"),
            )
        finally:
            if own and client is not None:
                await client.aclose()

    async def propose(self, inquiry_id: int, start: datetime, minutes: int = 60) -> Proposal:
        """One time he named (refused when it overlaps his calendar)."""
        async with self.appointments() as appointments:
            return await appointments.propose(inquiry_id, start, minutes)

    async def propose_free(self, inquiry_id: int, minutes: int = 60, count: int = 3) -> Proposal:
        """Three free times in his calendar, offered on the desktop and Telegram."""
        async with self.appointments() as appointments:
            return await appointments.propose_free(inquiry_id, minutes, count)

    async def pending(self, inquiry_id: int) -> Proposal | None:
        async with self.appointments() as appointments:
            return await appointments.pending(inquiry_id)

    async def confirm(
        self, inquiry_id: int, start: str | None = None, *, actor: str = "owner"
    ) -> Confirmed:
        """Book the chosen time: store, Outlook, stage, the confirmation draft."""
        async with self.appointments() as appointments:
            return await appointments.confirm(inquiry_id, start, actor=actor)

    async def remind_due(self) -> list[int]:
        """Tomorrow's visits get the customer's reminder draft (once each)."""
        async with self.appointments() as appointments:
            return await appointments.remind_due()
