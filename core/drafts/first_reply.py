"""The first reply, ready when he opens the mail (issue 42).

When intake creates a NEW A or B inquiry and a model is set up, the first reply is drafted in
the background: thanks, and what is needed next (the address and a time to measure for A; photos,
sizes and quantities for B), from his knowledge base and his memories. It waits in
``pending_approval`` with its Chinese like every other draft; nothing here can approve or send
(it holds only a ``DraftComposer``).

Why it is shaped like this:

* The instruction is written by code, not by a model: a fixed owner-side text per class in
  ``core/llm/prompts/first_reply_a.md`` and ``core/llm/prompts/first_reply_b.md``. It carries no values, so the fact guard still
  flags every price, date or size the model adds that no person wrote, and each of its requests
  (confirm the address, a visit to measure; photos, sizes) is one the instruction-points guard
  finds in the English.
* It never blocks intake: ``schedule`` only starts a task; a failing model is logged and leaves
  the inquiry as it is (he can still ask for a draft by hand). ``drain`` lets a command line run
  finish its drafts before it exits.
* One mail thread gets one waiting first reply, never two: only an intake run's new inquiry starts
  one (a merged second mail does not), and the composer files it only when the inquiry has no draft at
  all, checked in the very transaction that writes it (``AlreadyDrafted``). A re-run of intake
  creates no inquiry, so it drafts nothing.
* ``drafts.auto_first_reply`` turns it off; its model calls go through the shared client, so
  their cost is in the ``llm_calls`` ledger (purpose ``draft``) like any other draft.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from core.drafts.base import AlreadyDrafted
from core.errors import InquiryBridgeError
from core.llm.prompts import load_prompt

if TYPE_CHECKING:  # the store and the composer load on the first new inquiry, not at start-up
    from sqlalchemy.orm import Session

    from core.drafts.draft_composer import DraftComposer
    from core.services import Services

log = logging.getLogger(__name__)

ACTOR = "first_reply"  # who wrote the draft (its audit trail and ``created_by``)
CLASSES = frozenset({"A", "B"})  # measure on site, quote remotely: a customer waiting for us


def instruction(classification: str) -> str:
    """The fixed owner-side instruction for the inquiry's class (Chinese, as he would say it):
    A asks to confirm the address and a time to measure, B for photos and sizes. One per class,
    so each point of it is one the English can carry (the instruction-points guard checks)."""
    return load_prompt(f"first_reply_{classification.lower()}").strip()


class FirstReplies:
    """Drafts the first reply of each new A/B inquiry, in the background, at most once."""

    def __init__(
        self,
        services: Services,
        composer: Callable[[], DraftComposer],
        model_ready: Callable[[], bool],
    ) -> None:
        self._services = services
        self._composer = composer
        self._model_ready = model_ready
        self._tasks: set[asyncio.Task[int | None]] = set()

    @property
    def enabled(self) -> bool:
        return self._services.settings.flag("drafts.auto_first_reply") and self._model_ready()

    def schedule(self, inquiry_id: int) -> None:
        """Start drafting for a just-created inquiry (the pipeline calls it after the commit,
        on the event loop); returns at once."""
        if not inquiry_id or not self.enabled:
            return
        task = asyncio.get_running_loop().create_task(self.draft(inquiry_id))
        self._tasks.add(task)
        task.add_done_callback(lambda done: self._tasks.discard(done))

    async def draft(self, inquiry_id: int) -> int | None:
        """The draft's id, or None when the inquiry needs none (C, no email, already drafted)
        or the model failed (logged; the inquiry stays as it was)."""
        try:
            wanted = await self._services.store.read(lambda s: _wants_first_reply(s, inquiry_id))
            if wanted is None:
                return None
            return await self._composer().compose(
                inquiry_id, instruction(wanted), actor=ACTOR, first_reply=True
            )
        except AlreadyDrafted:
            return None
        except InquiryBridgeError as exc:
            log.warning("first reply for inquiry %s not drafted: %s", inquiry_id, exc)
        except Exception:  # a bug here must not reach intake: it is logged, the inquiry stays
            log.exception("first reply for inquiry %s failed", inquiry_id)
        return None

    async def drain(self) -> None:
        """Wait for the drafts started so far on this loop (a CLI run ends after them); a task
        of a loop that is gone (an earlier ``asyncio.run``) is forgotten, it cannot finish."""
        loop = asyncio.get_running_loop()
        while True:
            mine = {t for t in self._tasks if t.get_loop() is loop and not t.done()}
            self._tasks = set(mine)
            if not mine:
                return
            await asyncio.gather(*mine, return_exceptions=True)


def _wants_first_reply(session: Session, inquiry_id: int) -> str | None:
    """The inquiry's class when it wants a first reply (A/B, a customer address to write to,
    no draft yet), else None."""
    from core.db.models import Inquiry

    inquiry = session.get(Inquiry, inquiry_id)
    if (
        inquiry is None
        or inquiry.classification not in CLASSES
        or not inquiry.customer_email
        or _has_draft(session, inquiry_id)
    ):
        return None
    return inquiry.classification


def _has_draft(session: Session, inquiry_id: int) -> bool:
    """Any draft at all (his own, an earlier first reply, a sent one): then his thread needs
    no automatic first reply."""
    from sqlalchemy import select

    from core.db.models import Draft

    found = session.scalars(select(Draft.id).where(Draft.inquiry_id == inquiry_id).limit(1))
    return found.first() is not None
