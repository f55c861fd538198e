"""Every model call as a ledger row: what ``LLMClient`` writes after each request.

Why a module of its own: principle 4 — every call is in the ledger (``core.llm.ledger``), one
row per HTTP request whatever the retries underneath, tokens estimated when the endpoint reports
none, a row flipped to ``ok = False`` when its answer proved unusable. The client inherits this;
the booking never turns a good answer into a lost message.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from core.llm import diagnosis, ledger
from core.llm.completion import Completion
from core.llm.pricing import estimate_cost, estimate_tokens

if TYPE_CHECKING:
    from core.clock import Clock
    from core.db.store import Store
    from core.llm.model import LedgerRefs

log = logging.getLogger("core.llm.client")


@dataclass
class Request:
    """One HTTP request as its ledger row will name it; ``start`` when the request is made (a
    wait for the concurrency bound is not the endpoint's latency)."""

    tier: int
    model: str
    purpose: str
    messages: list[dict[str, Any]]
    refs: LedgerRefs | None
    started: float = field(default_factory=time.perf_counter)

    def start(self) -> None:
        self.started = time.perf_counter()

    def prompt_estimate(self) -> int:
        """The prompt's tokens, estimated: only used when the endpoint reports no usage."""
        return estimate_tokens("\n".join(str(m.get("content") or "") for m in self.messages))


class LedgerBooking:
    """The ledger half of ``LLMClient`` (needs ``clock``, ``store`` and ``_ledger_writer``)."""

    clock: Clock
    store: Store
    _ledger_writer: ledger.LedgerWriter

    async def _booked(self, request: Request, completion: Completion) -> Completion:
        """A call that came back: tokens estimated where the endpoint reported none, one row."""
        if not completion.prompt_tokens:
            completion.prompt_tokens = request.prompt_estimate()
        if not completion.completion_tokens:
            completion.completion_tokens = estimate_tokens(
                completion.content + json.dumps(completion.tool_calls)
            )
        completion.ledger_id = await self._ledger(
            request.tier, request.model, request.purpose, completion.prompt_tokens,
            completion.completion_tokens, request.started, True, None, request.refs,
        )  # fmt: skip
        return completion

    async def _book_failed(self, request: Request, error: str, completion_tokens: int = 0) -> None:
        """A call that did not come back (refused, cut off, cancelled): its row, ``ok = False``."""
        await self._ledger(
            request.tier, request.model, request.purpose, request.prompt_estimate(),
            completion_tokens, request.started, False, error, request.refs,
        )  # fmt: skip

    async def _refused(self, request: Request, exc: Exception) -> Exception:
        """The request raised: the app's error for it (``diagnosis``), booked as a failed row."""
        error = diagnosis.translate(exc)
        await self._book_failed(request, str(error))
        return error

    async def _ledger(
        self,
        tier: int,
        model: str,
        purpose: str,
        prompt_tokens: int,
        completion_tokens: int,
        started: float,
        ok: bool,
        error: str | None,
        refs: LedgerRefs | None,
    ) -> int | None:
        entry = ledger.LedgerEntry(
            at=self.clock.now(),
            tier=tier,
            model=model,
            purpose=purpose,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            latency_ms=int((time.perf_counter() - started) * 1000),
            cost_usd=estimate_cost(model, prompt_tokens, completion_tokens),
            ok=ok,
            error=error,
            refs=dict(refs or {}),
        )
        try:
            return await self._ledger_writer.record(entry)
        except Exception:  # the ledger must never turn a good answer into a lost message
            log.exception("could not write the LLM ledger row for %s", purpose)
            return None

    async def _mark_failed(self, completion: Completion, error: str) -> None:
        """The HTTP call worked but its answer was unusable: flip that call's ledger row to
        ``ok = False`` with the reason, so one call stays one row and the report says so."""
        if completion.ledger_id is None:
            return
        try:
            await ledger.mark_failed(self.store, completion.ledger_id, error)
        except Exception:
            log.exception("could not update ledger row %s", completion.ledger_id)
