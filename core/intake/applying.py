"""Applying: an understood message becomes its final disposition, then its events are published.

The final disposition and every inquiry change of one message commit in one transaction; events
(``core.events``) are published only after that commit. Consecutive ready messages share a
transaction (``MERGE_BATCH``), and a batch whose apply raises is retried message by message so
a bug in one cannot take its neighbours down: the culprit becomes ``failed:internal``, loudly.

``core.intake.merge`` owns "decision → disposition and events"; this layer owns the message row
(what the model said, attempts, errors) and the report.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime
from functools import partial

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import naive_utc
from core.db.models import Message
from core.events import Event, InquiryUpdated, MessageMerged, MessageRecorded, NeedsAttention
from core.intake import budget, merge
from core.intake.jobs import PENDING, Job, Outcome, Run, Understanding
from core.services import Services

log = logging.getLogger(__name__)


class Applier:
    """Writes understood jobs in the order the pump hands them over."""

    def __init__(
        self,
        services: Services,
        *,
        max_attempts: int,
        region: str,
        offline: bool,
        publish: Callable[[Iterable[Event]], None],
    ) -> None:
        self.services = services
        self.max_attempts = max_attempts
        self.region = region
        self.offline = offline
        self.publish = publish

    def now(self) -> datetime:
        return naive_utc(self.services.clock.now())

    async def finish_batch(self, batch: list[Job], run: Run) -> None:
        """Apply a batch in one transaction (or one by one after a failure), then report."""
        understood = [(j, j.task.result() if j.task else Understanding()) for j in batch]
        store = self.services.store
        try:
            results = await store.run(lambda s: self._apply_batch(s, understood))
        except Exception:
            if len(batch) == 1:
                results = [await self._failed_internal(batch[0])]
            else:  # find the culprit: one transaction per message
                results = []
                for j, u in understood:
                    try:
                        results.append(
                            await store.run(partial(self.apply_one, job=j, understanding=u))
                        )
                    except Exception:
                        results.append(await self._failed_internal(j))
        for job, result in zip(batch, results, strict=True):
            if result is not None:  # None: another run finished this message meanwhile
                self._report(job, result, run)

    def _report(self, job: Job, result: tuple[str, list[Event], int | None], run: Run) -> None:
        disposition, events, new_inquiry = result
        report = run.report
        report.note(job.pk, disposition)
        if new_inquiry is not None:
            report.new_inquiry_ids.append(new_inquiry)
        for event in events:
            if (
                isinstance(event, MessageMerged | InquiryUpdated)
                and event.inquiry_id not in report.updated_inquiry_ids
            ):
                report.updated_inquiry_ids.append(event.inquiry_id)
        self.publish(events)

    def _apply_batch(
        self, session: Session, understood: list[tuple[Job, Understanding]]
    ) -> list[Outcome]:
        """Apply a batch in order. The batch's message rows are loaded with one ``IN`` query
        first, so each ``session.get`` below is an identity-map hit instead of a query."""
        rows = session.scalars(select(Message).where(Message.id.in_([j.pk for j, _ in understood])))
        loaded = rows.all()  # held: the identity map only keeps weak references
        results = [self.apply_one(session, j, u) for j, u in understood]
        del loaded
        return results

    def apply_one(self, session: Session, job: Job, understanding: Understanding) -> Outcome:
        msg = session.get(Message, job.pk)
        if msg is None or msg.disposition != PENDING:
            return None
        if job.outgoing:
            outcome = merge.apply_outbound(
                session, msg, to_addrs=[*job.parsed.to, *job.parsed.cc], clock=self.services.clock
            )
            msg.updated_at = self.now()
            return outcome
        if understanding.error_reason is not None:
            return self._apply_failure(msg, understanding)
        return self._apply_understood(session, msg, job, understanding)

    def _apply_failure(self, msg: Message, understanding: Understanding) -> Outcome:
        """No answer from the model: one more attempt counted, ``failed:llm_*`` at the limit."""
        msg.attempts = (msg.attempts or 0) + 1
        msg.last_error = f"{understanding.error_reason}: {understanding.error_detail}"[:2000]
        msg.updated_at = self.now()
        if understanding.error_reason in budget.FINAL_REASONS:  # the same bytes fail again
            msg.disposition = f"failed:{understanding.error_reason}"
            kind = "failed"
        elif msg.attempts >= self.max_attempts:
            msg.disposition = f"failed:llm_{understanding.error_reason}"
            kind = "failed"
        else:
            kind = "llm_pending"
        detail = f"{msg.disposition} (attempt {msg.attempts}/{self.max_attempts})"
        events: list[Event] = [
            MessageRecorded(msg.id, msg.disposition),
            NeedsAttention(kind, "message", msg.id, detail),
        ]
        return msg.disposition, events, None

    def _apply_understood(
        self, session: Session, msg: Message, job: Job, understanding: Understanding
    ) -> Outcome:
        cls, ext = understanding.classification, understanding.extraction
        if cls is None:  # a bug upstream: recorded failed:internal by the caller, loudly
            raise RuntimeError(f"message {msg.id} understood without a classification")
        msg.classification = cls.primary
        msg.confidence = cls.confidence
        msg.labels = list(cls.labels or [])
        msg.extracted = merge.extraction_dict(ext) if ext is not None else {}
        msg.updated_at = self.now()
        outcome = merge.apply_understood(
            session,
            merge.Understood(msg, cls, ext, job.customer_email),
            offline=self.offline,
            clock=self.services.clock,
            region=self.region,
            language_hint=job.parsed.language,
            opinion=understanding.escalation,
        )
        msg.disposition = outcome[0]
        session.flush()  # the next message of the batch queries a clean session
        if understanding.model_unusable and outcome is not None:
            # the rules answered because the model could not be used: he is asked to check
            msg.last_error = f"model unusable: {understanding.model_unusable}"
            notice = NeedsAttention(
                "model_unusable", "message", msg.id, understanding.model_unusable
            )
            return outcome[0], [*outcome[1], notice], outcome[2]
        return outcome

    async def _failed_internal(self, job: Job) -> tuple[str, list[Event], None]:
        """A bug must not stall the run or leave a silent ``pending``: record it, loudly."""
        log.exception("merge of message %s failed", job.pk)
        disposition = "failed:internal"
        detail = "see the log for the traceback"

        def _mark(session: Session) -> None:
            msg = session.get(Message, job.pk)
            if msg is not None and msg.disposition == PENDING:
                msg.disposition = disposition
                msg.last_error = detail
                msg.updated_at = self.now()

        await self.services.store.run(_mark)
        events: list[Event] = [
            MessageRecorded(job.pk, disposition),
            NeedsAttention("failed", "message", job.pk, disposition),
        ]
        return disposition, events, None
