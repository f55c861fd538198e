"""The intake pipeline and its results as the headless front end uses them.

Why a facade: ``ingest --eml-dir`` and the ``inquiries`` / ``mail`` listings (the docs/contracts.md JSON
contracts) are what a check or a support person runs against a data folder; going through the
``App`` keeps them on the very pipeline and queries the desktop and ``sync`` use, and keeps the
CLI away from the store.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.services import Services

if TYPE_CHECKING:  # the pipeline and its worker pool (multiprocessing) load when mail is ingested
    from core.app.quote_acceptance import QuoteAcceptances
    from core.drafts.first_reply import FirstReplies
    from core.intake.jobs import IngestReport
    from core.intake.pipeline import IntakePipeline

# ``App.pipeline``: a pipeline over the App's one model client (rules only when offline)
PipelineFactory = Callable[..., "IntakePipeline"]

__all__ = ["IngestReport", "IntakeService"]


class IntakeService:
    def __init__(
        self,
        services: Services,
        pipeline: PipelineFactory,
        first_replies: Callable[[], FirstReplies] | None = None,
        acceptances: QuoteAcceptances | None = None,
    ) -> None:
        """``first_replies``: the App's, asked for when a run ends (built on first use)."""
        self._services = services
        self._pipeline = pipeline
        self._first_replies = first_replies
        self._acceptances = acceptances

    async def ingest_folder(self, folder: Path, *, offline: bool = False) -> IngestReport:
        """Messages a killed or failed earlier run left ``pending`` first, then ``*.eml`` of
        ``folder`` in name order, as if they arrived in that order (re-running changes
        nothing). ``offline``: rules only, no model. The model client is the App's (its one
        ``llm.concurrency`` limit); ``App.aclose`` closes it, not the pipeline."""
        from core.sources.eml import EmlFolderSource

        pipeline = self._pipeline(offline=offline)
        try:
            report = await pipeline.retry_pending()
            report.extend(await pipeline.ingest_source(EmlFolderSource(folder)))
        finally:
            await pipeline.aclose()
        if self._first_replies is not None:  # the run's first replies, drafted meanwhile
            await self._first_replies().drain()
        if self._acceptances is not None:  # replies that may accept a quote, checked meanwhile
            await self._acceptances.drain()
        return report

    async def waiting_for_model(self) -> tuple[int, str]:
        """Mails waiting for the model (retried on the next round) and why: a key of
        ``core.intake.waiting`` (slow, unreachable, format, other); (0, "") for none."""
        from core.intake.waiting import waiting_for_model

        return await self._services.store.read(waiting_for_model)

    async def inquiries_json(self) -> list[dict[str, Any]]:
        """Every inquiry as the ``inquiries --json`` contract (``core.intake.queries``)."""
        from core.intake.queries import inquiries_json

        now = self._services.clock.now()
        return await self._services.store.read(lambda s: inquiries_json(s, now))

    async def mail_json(self) -> list[dict[str, Any]]:
        """Every ingested message with its disposition (the ``mail --json`` contract)."""
        from core.intake.queries import mail_json

        return await self._services.store.read(mail_json)
