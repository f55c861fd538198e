"""Outlook shows the same picture as the board: class and stage as Outlook categories.

The owner still lives in Outlook; colour-coded categories such as ``询盘-A 上门量尺`` and
``阶段-报价中`` on a customer's messages let him see there what the board says. The categories
are created once in the master list, then written with ``PATCH /me/messages/{id}`` whenever an
inquiry is created or changes class or stage — 20 PATCHes per ``POST /$batch``
(``core.graph.batch``), so a first sync that labels 5,000 messages costs 250 round trips, not
5,000 (Graph still counts each PATCH against the mailbox's 10,000 per 10 minutes).

Bounded and idempotent: only the newest ``max_messages`` messages of an inquiry are touched, a
message whose categories are already right is not patched (``Message.categories`` mirrors what
the last delta/patch saw), and the owner's own categories are kept — only ours (``询盘-``/``阶段-``
prefixes) are replaced. A failed write leaves the inquiry dirty for the next round (a PATCH of
categories is safe to repeat).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING
from urllib.parse import quote

from sqlalchemy import select

from core import tasks
from core.clock import Clock
from core.db.app_state import put_state
from core.db.models import Inquiry, Message
from core.errors import GraphError, GraphNotFound
from core.events import EventBus, InquiryCreated, InquiryUpdated, StageChanged
from core.graph.batch import BATCH_MAX, SubRequest
from core.graph.client import GraphClient
from core.inquiry.stages import STAGE_NAMES_ZH

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from core.db.store import Store

log = logging.getLogger(__name__)

CLASS_CATEGORIES: dict[str, tuple[str, str]] = {
    "A": ("询盘-A 上门量尺", "preset0"),  # red
    "B": ("询盘-B 远程报价", "preset7"),  # blue
}
_STAGE_COLOURS = {
    "inquiry": "preset3",
    "measure": "preset1",
    "quoting": "preset4",
    "follow_up": "preset8",
    "ordered": "preset5",
    "production": "preset9",
    "install": "preset6",
    "done": "preset13",
    "lost": "preset14",
}
STAGE_CATEGORIES: dict[str, tuple[str, str]] = {
    stage: (f"阶段-{STAGE_NAMES_ZH[stage]}", colour) for stage, colour in _STAGE_COLOURS.items()
}
OUR_PREFIXES = ("询盘-", "阶段-")
# app_state: True when the master category list refused us (403): names are written uncoloured
MASTER_DENIED_KEY = "graph.categories_master_denied"
# Categories are cosmetic: they only use the request budget above this reserve, so a first sync
# that labels thousands of messages leaves room for mail, drafts and OneDrive in the same window
# and finishes the labelling in later rounds instead of pushing the mailbox into 429s.
BUDGET_RESERVE = 500


def desired_categories(classification: str | None, stage: str | None) -> list[str]:
    out: list[str] = []
    if classification in CLASS_CATEGORIES:
        out.append(CLASS_CATEGORIES[classification][0])
    if classification in CLASS_CATEGORIES and stage in STAGE_CATEGORIES:
        out.append(STAGE_CATEGORIES[stage][0])
    return out


def merged_categories(current: list[str], desired: list[str]) -> list[str]:
    """The owner's own categories kept, ours replaced by ``desired``."""
    return [c for c in current if not c.startswith(OUR_PREFIXES)] + desired


class CategoryWriter:
    """Write class/stage categories for inquiries marked dirty by bus events."""

    def __init__(
        self,
        client: GraphClient,
        store: Store,
        bus: EventBus | None = None,
        *,
        max_messages: int = 20,
        clock: Clock | None = None,
    ) -> None:
        self.clock: Clock = clock or client.clock
        self.client = client
        self.store = store
        self.bus = bus
        self.max_messages = max_messages
        self.dirty: set[int] = set()
        self._master_done = False
        self.master_denied = False
        self._unsubscribe: list[Callable[[], None]] = []
        self.patches = 0
        self.deferred = 0  # patches left for a later round by the request budget

    def attach(self) -> None:
        if self.bus is None or self._unsubscribe:
            return
        self._unsubscribe = [
            self.bus.subscribe(InquiryCreated, lambda e: self.mark(e.inquiry_id)),
            self.bus.subscribe(StageChanged, lambda e: self.mark(e.inquiry_id)),
            self.bus.subscribe(InquiryUpdated, self._on_updated),
        ]

    def detach(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []

    def _on_updated(self, event: InquiryUpdated) -> None:
        if not event.fields or "classification" in event.fields or "stage" in event.fields:
            self.mark(event.inquiry_id)

    def mark(self, inquiry_id: int) -> None:
        self.dirty.add(inquiry_id)

    async def ensure_master_categories(self) -> int:
        """Create our categories in the master list once per process; returns how many.

        Editing the master list needs MailboxSettings.ReadWrite. A mailbox (or an older sign-in)
        that refuses it with 403 still gets the names on its messages — Outlook shows them
        uncoloured — and ``master_denied`` (kept in app_state for the settings page) says why.
        """
        if self._master_done:
            return 0
        try:
            created = await self._create_master_categories()
        except GraphError as exc:
            if exc.status != 403:
                raise
            log.warning("master category list not editable (%s): names go on uncoloured", exc)
            await self._remember_denied(True)
            self._master_done = True
            return 0
        await self._remember_denied(False)
        self._master_done = True
        return created

    async def _create_master_categories(self) -> int:
        data = await self.client.get_json("/me/outlook/masterCategories")
        existing = {c.get("displayName") for c in data.get("value", [])}
        missing = [
            SubRequest("POST", "/me/outlook/masterCategories", {"displayName": n, "color": c})
            for n, c in [*CLASS_CATEGORIES.values(), *STAGE_CATEGORIES.values()]
            if n not in existing
        ]
        created = 0
        # a repeated create answers 409, so the envelope may be re-sent after a network error
        for answer in await self.client.batch(missing, idempotent=True) if missing else []:
            if answer.ok:
                created += 1
            elif answer.status != 409 and answer.error is not None:  # 409: created meanwhile
                raise answer.error
        return created

    async def _remember_denied(self, denied: bool) -> None:
        self.master_denied = denied
        now = self.clock.now()
        await self.store.run(lambda s: put_state(s, MASTER_DENIED_KEY, denied, now))

    def _work(self, inquiry_ids: list[int]) -> list[tuple[int, str, list[str]]]:
        """(message pk, graph id, new categories) for messages that need a patch."""
        todo: list[tuple[int, str, list[str]]] = []
        with self.store.session() as session:
            for inquiry_id in inquiry_ids:
                inquiry = session.get(Inquiry, inquiry_id)
                if inquiry is None:
                    continue
                desired = desired_categories(inquiry.classification, inquiry.stage)
                rows = session.scalars(
                    select(Message)
                    .where(
                        Message.inquiry_id == inquiry_id,
                        Message.source == "graph",
                        Message.source_id.is_not(None),
                        Message.removed_at.is_(None),
                    )
                    .order_by(Message.received_at.desc())
                    .limit(self.max_messages)
                )
                for row in rows:
                    current = list(row.categories or [])
                    wanted = merged_categories(current, desired)
                    if wanted != current:
                        todo.append((row.id, str(row.source_id), wanted))
        return todo

    async def flush(self) -> int:
        """Patch every dirty inquiry's messages; returns the number of messages patched."""
        if not self.dirty:
            return 0
        await self.ensure_master_categories()
        ids = sorted(self.dirty, reverse=True)  # newest inquiries first when the budget is short
        self.dirty.clear()
        room = self.client.budget.available() - BUDGET_RESERVE
        if room <= 0 and self.deferred:  # still no room: skip the query until the window moves
            self.dirty.update(ids)
            return 0
        work = await tasks.io(self._work, ids)
        # ~1 delta page per 50 patches comes back as the echo of our own writes
        room = max(0, room - room // 50)
        self.deferred = max(0, len(work) - room)
        if self.deferred:
            log.info("request budget: %d category writes deferred to a later round", self.deferred)
            work = work[:room]
            self.dirty.update(ids)  # the next round recomputes; done messages are skipped then
        done: list[tuple[int, list[str]]] = []
        failed = False
        # one $batch of 20 PATCHes at a time: a failure stops the flush early, and the next
        # round repeats the rest (a categories PATCH is idempotent, so may be re-sent)
        for start in range(0, len(work), BATCH_MAX):
            chunk = work[start : start + BATCH_MAX]
            try:
                answers = await self.client.batch(
                    [
                        SubRequest(
                            "PATCH",
                            f"/me/messages/{quote(source_id, safe='')}",
                            {"categories": wanted},
                        )
                        for _pk, source_id, wanted in chunk
                    ],
                    idempotent=True,
                )
            except GraphError as exc:
                log.warning("category write failed: %s", exc)
                failed = True
            else:
                for (pk, _graph_id, wanted), answer in zip(chunk, answers, strict=True):
                    if answer.ok:
                        done.append((pk, wanted))
                    elif not isinstance(answer.error, GraphNotFound):
                        log.warning("category write failed for message %s: %s", pk, answer.error)
                        failed = True
            if failed:
                self.dirty.update(ids)  # idempotent: the next round finishes the job
                break

        def _save(session: Session) -> None:
            for pk, wanted in done:
                row = session.get(Message, pk)
                if row is not None:
                    row.categories = wanted

        if done:
            await self.store.run(_save)
        self.patches += len(done)
        return len(done)
