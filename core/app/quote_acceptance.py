"""A customer's reply that accepts the quote becomes a proposal he decides, never a stage move.

Told of every reply merged into an inquiry (``MessageMerged`` on the bus, whatever mailbox or
command ingested it), it asks nothing when code already says no: the inquiry has no ``sent``
quote, or the new text has no acceptance cue (``core.quotes.acceptance``). Otherwise the tier-1
model proposes a classification (prompt ``quote_acceptance.md``: accepts, and the customer's own
words) and code checks it -- the words must be in the mail, carry a cue, and hold no negation,
question or condition. Only then is a write proposal filed (``core.agent.proposals``, kind
``quote_accept``): "客户接受了报价 Q-…，改为已下单?" with 确认 / 放弃 on the inquiry's detail and
on Telegram (an outbox row whose buttons the mirror adds), and in the tray. 确认 is ``quote
accept``: the quote ``accepted``, the job ``ordered`` with the deposit due.

A failed model call is logged, never raised into intake; ``drain`` waits for the checks in
flight (``ingest`` does, so a command's run is complete when it returns).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from core.clock import to_sydney
from core.errors import InquiryBridgeError
from core.events import InquiryUpdated, MessageMerged, NotificationRaised
from core.services import Services

if TYPE_CHECKING:
    from core.app.lazy import LazyLLM

log = logging.getLogger(__name__)

PURPOSE = "quote_acceptance"


class QuoteAcceptances:
    def __init__(self, services: Services, llm: LazyLLM, enabled: Callable[[], bool]) -> None:
        self._services = services
        self._llm = llm
        self._enabled = enabled
        self._tasks: set[asyncio.Task[int | None]] = set()
        self._unsubscribe: Callable[[], None] | None = None

    def attach(self) -> None:
        self._unsubscribe = self._services.bus.subscribe(MessageMerged, self.schedule)

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def schedule(self, event: MessageMerged) -> None:
        """Check the merged reply in the background (the bus calls this in intake's thread)."""
        if not self._enabled():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # a synchronous publisher: no loop to check on
            log.info("quote acceptance not checked for message %s: no loop", event.message_pk)
            return
        task = loop.create_task(self._guarded(event.inquiry_id, event.message_pk))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _guarded(self, inquiry_id: int, message_pk: int) -> int | None:
        try:
            return await self.check(inquiry_id, message_pk)
        except InquiryBridgeError as exc:
            log.info("quote acceptance not checked: %s", exc.code)
        except Exception:
            log.exception("quote acceptance check failed")
        return None

    async def check(self, inquiry_id: int, message_pk: int) -> int | None:
        """The proposal's id when the reply accepts the sent quote (model and code agree)."""
        from core.app.quote_acceptance_rows import Answer, candidate, file_proposal, title
        from core.quotes.acceptance import verified

        today = to_sydney(self._services.clock.now()).date().isoformat()
        loaded = await self._services.store.read(
            lambda s: candidate(s, inquiry_id, message_pk, today)
        )
        if loaded is None or not self._llm.available:
            return None
        quote, subject, body = loaded
        answer = await self._llm.client().structured(
            tier=1,
            purpose=PURPOSE,
            prompt="quote_acceptance",
            variables={
                "quote": f"{quote.number} version {quote.version}, total ${quote.total_inc_gst}",
                "subject": subject,
                "body": body[:8000],
            },
            schema=Answer,
            refs={"message_pk": message_pk, "inquiry_id": inquiry_id},
        )
        words = verified(answer.accepts, answer.words, body)
        if words is None:
            log.info("quote acceptance not proposed for message %s", message_pk)
            return None
        now = self._services.clock.now()
        filed = await self._services.store.run(
            lambda s: file_proposal(s, inquiry_id, message_pk, quote, words, now)
        )
        if filed is None:
            return None
        proposal_id, notification_id = filed
        bus = self._services.bus
        bus.publish(NotificationRaised(notification_id, "proposal", title(quote), "inquiry",
                                       inquiry_id))  # fmt: skip
        bus.publish(InquiryUpdated(inquiry_id, ("proposals",)))
        return proposal_id
