"""The intake pipeline: raw mail in, exactly one disposition per message out.

    parse → identity → known? (no-op) → save raw + row (pending) → outgoing? → prefilter
          → strip quotes → classify (tier 1) → extract (tier 2, A/B/R only) → merge → events

This module is the small front; the work is done in layers, each its own module:

* ``jobs`` — the shapes shared by every layer (``Job``, ``Run``, ``Understanding``, the report);
* ``pump`` — the ordered concurrent pump: admitted in order, understood concurrently, applied in
  order (a reply always finds the inquiry its parent created);
* ``admission`` (+ ``admission_rows``) — arrival → raw bytes on disk + committed row (``pending``)
  before any model is asked anything; outgoing and rule-skipped mail settle here;
* ``understanding`` — prefilter has run; quote-stripped view, classify (tier 1), extract (tier 2);
* ``applying`` — the final disposition and inquiry changes in one transaction, events after the
  commit; ``merge`` owns "decision → disposition and events".

Why it is shaped like this — nothing is lost, cheap before expensive, fast without reordering, and
a bad model answer costs a retry, not a message — is told in each layer's docstring. Offline
(``--offline`` or no ``llm.base_url``) the rules classifier and extractor are used with
confidence ``low``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from core import tasks
from core.clock import naive_utc
from core.db.models import Message
from core.events import Event, MessageRecorded, SyncStatus
from core.intake import records
from core.intake.admission import Admission
from core.intake.applying import Applier
from core.intake.jobs import IngestReport, Job, Run, Understanding
from core.intake.pump import aiter_of, pump
from core.intake.understanding import Understander
from core.intake.worker_pool import WorkerPool
from core.mail.parse import ParseBudget
from core.mail.source import MessageStream, RawMessage
from core.services import Services

if TYPE_CHECKING:
    from core.llm.model import ModelClient

log = logging.getLogger(__name__)


class IntakePipeline:
    """Runs messages through intake. One instance per Services; safe to reuse across runs.

    ``strip_quotes_enabled=False`` feeds the full decoded text to the model; it exists only so the
    benchmark can measure what quote stripping saves.
    """

    def __init__(
        self,
        services: Services,
        llm: ModelClient | None,
        *,
        offline: bool = False,
        strip_quotes_enabled: bool = True,
        owns_llm: bool = True,
        on_created: Callable[[int], None] | None = None,
    ) -> None:
        self.services = services
        # told each new inquiry's id after its run committed (the first reply, drafted in the
        # background: ``core.drafts.first_reply``); it must return at once
        self.on_created = on_created
        self.llm = llm
        # a client handed down by the composition root is shared (drafting, the assistant):
        # its owner closes it, not this pipeline's ``aclose``
        self.owns_llm = owns_llm
        self.offline = offline or llm is None or not getattr(llm, "available", False)
        self.strip_quotes_enabled = strip_quotes_enabled
        settings = services.settings
        own = [a.strip().lower() for a in settings.strings("general.owner_addresses") if a]
        self.own_addresses = own
        self.region = settings.text("general.phone_region") or "AU"
        self.max_attempts = max(1, settings.number("intake.max_attempts"))
        self.attachment_max_mb = settings.number("intake.attachment_max_mb")
        concurrency = max(1, settings.number("llm.concurrency"))
        self.window = max(32, concurrency * 4)  # messages admitted but not yet merged
        # worker processes for parsing long runs (0: always on the event loop)
        self.parse_workers = max(1, min(2, (os.cpu_count() or 2) - 1))
        # a big mail: parts decoded into the spool (core.mail.oversize), too big ones not read
        self.budget = ParseBudget(
            spool_dir=str(services.paths.spool),
            keep_max=self.attachment_max_mb * 1024 * 1024,
            max_bytes=max(1, settings.number("intake.mail_max_mb")) * 1024 * 1024,
        )
        now = services.clock.now().timestamp()
        records.sweep_spool(services.paths, older_than_s=6 * 3600, now=now)
        self.admission = Admission(
            services,
            own_addresses=own,
            region=self.region,
            attachment_max_mb=self.attachment_max_mb,
            publish=self._publish,
        )
        self.understanding = Understander(
            services,
            llm,
            offline=self.offline,
            strip_quotes_enabled=strip_quotes_enabled,
            own_addresses=own,
            region=self.region,
            max_attempts=self.max_attempts,
        )
        self.applying = Applier(
            services,
            max_attempts=self.max_attempts,
            region=self.region,
            offline=self.offline,
            publish=self._publish,
        )

    async def ingest(self, raw: RawMessage) -> int:
        """One message; returns its pk (the existing one when already known: a no-op)."""
        report = await self.ingest_batch([raw])
        return report.message_pks[0]

    async def ingest_batch(self, raws: Iterable[RawMessage]) -> IngestReport:
        """Messages in arrival order: recorded in order, understood concurrently, merged in order."""
        return await self._pump(lambda run: self.admission.admit_all(aiter_of(raws), run))

    async def ingest_source(
        self, source: MessageStream | AsyncIterable[RawMessage]
    ) -> IngestReport:
        """Everything a source yields, streamed (memory stays bounded by the in-flight window).

        Callers run ``retry_pending`` first (the CLI and the sync poller do), so messages a
        killed or failed earlier run left ``pending`` are handled before new mail. A run that
        fails has the source delete what it downloaded for it (``discard``, if it has one, as
        ``GraphMessageSource`` does): the cursor did not move, so it comes again next round.
        """
        try:
            return await self._pump(lambda run: self.admission.admit_all(aiter(source), run))
        except BaseException:
            discard = getattr(source, "discard", None)
            if callable(discard):
                await tasks.io(discard)
            raise

    async def retry_pending(self) -> IngestReport:
        """Re-run every ``pending`` message from its saved raw bytes, oldest first."""
        rows = await self.admission.pending_rows()
        report = await self._pump(lambda run: self.admission.readmit_all(rows, run))
        report.retried = len(rows)
        return report

    async def aclose(self) -> None:
        """Close the model client's connections (end of a CLI run, a test) when this pipeline
        made the client; a shared one (``App.pipeline``) is closed by ``App.aclose``."""
        close = getattr(self.llm, "aclose", None) if self.owns_llm else None
        if close is not None:
            await close()

    async def record_removed(self, source_id: str) -> None:
        """Graph ``@removed``: the message is kept (nothing is lost), marked removed."""
        now = naive_utc(self.services.clock.now())

        def _do(session: Session) -> tuple[int, str] | None:
            msg = session.scalars(select(Message).where(Message.source_id == source_id)).first()
            if msg is None or msg.removed_at is not None:
                return None
            msg.removed_at = now
            msg.updated_at = now
            return msg.id, msg.disposition

        found = await self.services.store.run(_do)
        if found is not None:
            self._publish([MessageRecorded(found[0], found[1])])

    async def _pump(self, admit: Callable[[Run], AsyncIterator[Job | None]]) -> IngestReport:
        """One run: its own worker pool, admission feeding the pump, the pool closed after."""
        run = Run(IngestReport(), parser=WorkerPool(self.parse_workers, self.budget))
        try:
            report = await pump(
                admit(run),
                run,
                window=self.window,
                understand=self.understanding.understand,
                finish_batch=self.applying.finish_batch,
            )
            if run.llm_down is not None:
                endpoint = self.services.settings.text("llm.base_url").strip()
                down = run.llm_down.user_message("zh_CN")
                report.model_down = f"{down} ({endpoint})" if endpoint else down
            if run.llm_unusable is not None:
                report.model_unusable = run.llm_unusable.user_message("zh_CN")
            self._tell_owner(run)
            self._created(report.new_inquiry_ids)
            return report
        finally:  # after the last merge: late offline-rules calls still use the worker
            await run.parser.close()

    def _tell_owner(self, run: Run) -> None:
        """One notice when the model could not be used (the outbox alerts once per outage, not
        once per message), and the all-clear when it answered again."""
        trouble = run.llm_unusable
        if trouble is not None:
            log.warning("intake: the model could not be used: %s", trouble.detail)
            self._publish([SyncStatus("llm", False, trouble.code, "")])
        elif run.llm_worked and run.llm_down is None:
            self._publish([SyncStatus("llm", True)])

    def _created(self, inquiry_ids: list[int]) -> None:
        """After the run: the new inquiries to whoever drafts first replies (never fatal to
        intake: what it recorded stays recorded)."""
        if self.on_created is None:
            return
        for inquiry_id in inquiry_ids:
            try:
                self.on_created(inquiry_id)
            except Exception:
                log.exception("intake: on_created(%s) failed", inquiry_id)

    def _publish(self, events: Iterable[Event]) -> None:
        for event in events:
            self.services.bus.publish(event)


def build_pipeline(
    services: Services,
    offline: bool = False,
    *,
    llm: ModelClient | None = None,
    on_created: Callable[[int], None] | None = None,
) -> IntakePipeline:
    """The pipeline of a data folder over ``llm``, the model client handed down by the
    composition root (``App.pipeline``, which shares its one client and concurrency limit with
    drafting and the assistant), or rules only when there is no ``llm``, ``offline`` is set or no
    ``llm.base_url`` is configured. It never makes a client: one run without an ``App`` asks
    ``core.app.standalone.own_pipeline``."""
    configured = bool(services.settings.text("llm.base_url").strip())
    model = llm if configured and not offline else None
    return IntakePipeline(services, model, offline=offline, owns_llm=False, on_created=on_created)


__all__ = ["IngestReport", "IntakePipeline", "Understanding", "build_pipeline"]
