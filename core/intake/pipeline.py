"""The intake pipeline: raw mail in, exactly one disposition per message out.

    parse → identity → known? (no-op) → save raw + row (pending) → outgoing? → prefilter
          → strip quotes → classify (tier 1) → extract (tier 2, A/B/R only) → merge → events

Why it is shaped like this:

* **Nothing is lost.** A message's raw bytes are on disk and its row is committed (``pending``)
  before any model is asked anything. A kill at any point leaves either no row (the source offers
  the message again) or a ``pending`` row that ``retry_pending`` re-parses from the saved bytes.
  The final disposition and every inquiry change of one message commit in one transaction.
* **Cheap before expensive.** Outgoing mail and rule-skipped mail never reach a model. A ``C``
  costs one call, an inquiry email two.
* **Fast without reordering.** Admission (parse, record, prefilter) runs in arrival order. The
  model calls of many messages run concurrently (bounded by ``LLMClient``), while merges are
  applied one by one, again in arrival order, so a reply always finds the inquiry its parent
  created. A message whose thread parent (or an earlier mail from the same sender) is still in
  flight waits for that merge before it is classified, so its "thread inquiry" context is real.
* **A bad model answer costs a retry, not a message.** Schema break or unreachable endpoint:
  the message stays ``pending`` with ``attempts + 1``; after ``intake.max_attempts`` it becomes
  ``failed:llm_<reason>``. Offline (``--offline`` or no ``llm.base_url``) the rules classifier
  and extractor are used with confidence ``low``.

Events (``core.events``) are published only after the data they describe is committed.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections import Counter
from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import or_, select
from sqlalchemy.orm import Session

from core.clock import naive_utc
from core.db.models import Message
from core.errors import LLMError, LLMSchemaError, LLMUnavailable, MessageParseError
from core.events import (
    Event,
    InquiryCreated,
    InquiryUpdated,
    MessageMerged,
    MessageRecorded,
    NeedsAttention,
)
from core.intake import budget, identity, merge, records
from core.intake.worker_pool import WorkerPool
from core.mail.parse import (
    ParsedMessage,
    parse_message,
    stripped_text,
)
from core.mail.prefilter import prefilter
from core.mail.source import MessageSource, RawMessage
from core.services import Services

log = logging.getLogger(__name__)

PENDING = "pending"
MERGE_BATCH = 32  # most messages applied in one writer transaction
ADMIT_CHUNK = 16  # most arrived messages recorded in one writer transaction
PARSE_AHEAD = 32  # messages read from the source and parsing ahead of admission
_NOTHING = object()
_END = object()
OUTGOING = "skipped:outgoing"
_REPLY_PREFIXES = ("re:", "re ", "aw:", "回复", "答复", "回覆")


@dataclass
class IngestReport:
    """What one run did: dispositions counted, inquiries created, messages touched."""

    counts: Counter[str] = field(default_factory=Counter)
    new_inquiry_ids: list[int] = field(default_factory=list)
    updated_inquiry_ids: list[int] = field(default_factory=list)
    message_pks: list[int] = field(default_factory=list)  # arrival order, known ones included
    already_known: int = 0
    retried: int = 0

    def note(self, pk: int, disposition: str) -> None:
        self.counts[disposition] += 1
        if pk not in self.message_pks:
            self.message_pks.append(pk)

    def extend(self, other: IngestReport) -> None:
        self.counts.update(other.counts)
        self.new_inquiry_ids.extend(other.new_inquiry_ids)
        for iid in other.updated_inquiry_ids:
            if iid not in self.updated_inquiry_ids:
                self.updated_inquiry_ids.append(iid)
        for pk in other.message_pks:
            if pk not in self.message_pks:
                self.message_pks.append(pk)
        self.already_known += other.already_known
        self.retried += other.retried

    @property
    def processed(self) -> int:
        return sum(self.counts.values())

    def summary(self) -> str:
        """One line for the CLI and logs (Chinese first)."""
        parts = ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items()))
        return (
            f"处理邮件 {self.processed} 封，新询盘 {len(self.new_inquiry_ids)} 个，"
            f"已存在 {self.already_known} 封 / processed {self.processed}, "
            f"new inquiries {len(self.new_inquiry_ids)}, already known {self.already_known}"
            + (f" ({parts})" if parts else "")
        )


@dataclass
class Understanding:
    """The model's (or the rules') view of one message, or why there is none yet."""

    classification: Any = None
    extraction: Any = None
    error_reason: str | None = None  # schema | unavailable | error
    error_detail: str = ""


@dataclass(eq=False)
class _Job:
    """One message between admission and merge."""

    pk: int
    message_id: str
    parsed: ParsedMessage
    outgoing: bool
    customer_email: str | None
    body_text: str
    thread_ids: list[str]
    conversation_id: str | None
    deps: list[_Job] = field(default_factory=list)
    task: asyncio.Task[Understanding] | None = None
    done: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(eq=False)
class _Arrival:
    """One message between the source and its row: parsed, identified, then recorded."""

    raw: RawMessage
    parsed: ParsedMessage | None
    failure: str | None
    detail: str
    body_text: str
    message_id: str
    raw_path: str | None = None
    stored: list[records.StoredAttachment] = field(default_factory=list)
    outgoing: bool = False
    customer_email: str | None = None
    outcome: tuple[str, int, str] | None = None  # (inserted|known|raced, pk, disposition)
    same_as: _Arrival | None = None  # an identical message earlier in the same chunk


def _known_many(
    session: Session, pairs: list[tuple[str, str | None]]
) -> list[tuple[int, bool] | None]:
    """``IntakePipeline._known_pk`` for several identities: one ``IN`` query when (as usual)
    none is known, the exact per-message lookup only for those that matched."""
    mids = [m for m, _ in pairs]
    gids = [g for _, g in pairs if g]
    condition = Message.message_id.in_(mids)
    if gids:
        condition = or_(condition, Message.graph_id.in_(gids))
    hits = session.execute(select(Message.message_id, Message.graph_id).where(condition)).all()
    if not hits:
        return [None] * len(pairs)
    hit_ids = {m for m, _ in hits}
    hit_graph = {g for _, g in hits if g}
    return [
        IntakePipeline._known_pk(session, m, g) if m in hit_ids or (g and g in hit_graph) else None
        for m, g in pairs
    ]


@dataclass
class _Run:
    """In-flight state of one pump: jobs by identity, for dependency and duplicate checks."""

    report: IngestReport
    by_message_id: dict[str, _Job] = field(default_factory=dict)
    by_email: dict[str, _Job] = field(default_factory=dict)
    by_conversation: dict[str, _Job] = field(default_factory=dict)
    llm_down: str | None = None  # set after the first LLMUnavailable: skip further calls
    # the run's worker process (parsing, offline rules); inline-only unless the pump sets one
    parser: WorkerPool = field(default_factory=lambda: WorkerPool(0))


class IntakePipeline:
    """Runs messages through intake. One instance per Services; safe to reuse across runs.

    ``strip_quotes_enabled=False`` feeds the full decoded text to the model; it exists only so the
    benchmark can measure what quote stripping saves.
    """

    def __init__(
        self,
        services: Services,
        llm: Any | None,
        *,
        offline: bool = False,
        strip_quotes_enabled: bool = True,
    ) -> None:
        self.services = services
        self.llm = llm
        self.offline = offline or llm is None or not getattr(llm, "available", False)
        self.strip_quotes_enabled = strip_quotes_enabled
        settings = services.settings
        self.own_addresses = [
            str(a).strip().lower() for a in settings.get("general.owner_addresses") if a
        ]
        self.region = str(settings.get("general.phone_region") or "AU")
        self.max_attempts = max(1, int(settings.get("intake.max_attempts")))
        self.attachment_max_mb = int(settings.get("intake.attachment_max_mb"))
        concurrency = max(1, int(settings.get("llm.concurrency")))
        self.window = max(32, concurrency * 4)  # messages admitted but not yet merged
        # worker processes for parsing long runs (0: always on the event loop)
        self.parse_workers = max(1, min(2, (os.cpu_count() or 2) - 1))

    # ------------------------------------------------------------------------------ public API
    async def ingest(self, raw: RawMessage) -> int:
        """One message; returns its pk (the existing one when already known: a no-op)."""
        report = await self.ingest_batch([raw])
        return report.message_pks[0]

    async def ingest_batch(self, raws: Iterable[RawMessage]) -> IngestReport:
        """Messages in arrival order: recorded in order, understood concurrently, merged in order."""
        return await self._pump(lambda run: self._admit_all(_aiter(raws), run))

    async def ingest_source(
        self, source: MessageSource | AsyncIterable[RawMessage]
    ) -> IngestReport:
        """Everything a source yields, streamed (memory stays bounded by the in-flight window).

        Callers run ``retry_pending`` first (the CLI and the sync poller do), so messages a
        killed or failed earlier run left ``pending`` are handled before new mail.
        """
        return await self._pump(lambda run: self._admit_all(aiter(source), run))

    async def retry_pending(self) -> IngestReport:
        """Re-run every ``pending`` message from its saved raw bytes, oldest first."""

        def _pending(session: Session) -> list[tuple[int, str | None, str, str | None]]:
            rows = session.execute(
                select(Message.id, Message.raw_path, Message.direction, Message.conversation_id)
                .where(Message.disposition == PENDING)
                .order_by(Message.id)
            ).all()
            return [tuple(r) for r in rows]  # type: ignore[misc]

        rows = await self.services.store.read(_pending)
        report = await self._pump(lambda run: self._readmit_all(rows, run))
        report.retried = len(rows)
        return report

    async def aclose(self) -> None:
        """Close the model client's connections (end of a CLI run, a test, the app)."""
        close = getattr(self.llm, "aclose", None)
        if close is not None:
            await close()

    async def record_removed(self, graph_id: str) -> None:
        """Graph ``@removed``: the message is kept (nothing is lost), marked removed."""
        now = self._now()

        def _do(session: Session) -> tuple[int, str] | None:
            msg = session.scalars(select(Message).where(Message.graph_id == graph_id)).first()
            if msg is None or msg.removed_at is not None:
                return None
            msg.removed_at = now
            msg.updated_at = now
            return msg.id, msg.disposition

        found = await self.services.store.run(_do)
        if found is not None:
            self._publish([MessageRecorded(found[0], found[1])])

    # ------------------------------------------------------------------------------ the pump
    async def _pump(self, admit: Callable[[_Run], AsyncIterator[_Job | None]]) -> IngestReport:
        """Feed admitted jobs to the merge loop in order, with backpressure.

        ``admit(run)`` yields a ``_Job`` for each message that needs understanding/merging; the
        admission side has already recorded everything else in ``run.report``.
        """
        run = _Run(IngestReport(), parser=WorkerPool(self.parse_workers))
        try:
            return await self._pump_run(admit, run)
        finally:  # after the last merge: late offline-rules calls still use the worker
            await run.parser.close()

    async def _pump_run(
        self, admit: Callable[[_Run], AsyncIterator[_Job | None]], run: _Run
    ) -> IngestReport:
        queue: asyncio.Queue[_Job | None] = asyncio.Queue(maxsize=self.window)
        consumer = asyncio.create_task(self._merge_loop(queue, run))
        started: list[_Job] = []
        admitted = admit(run)
        try:
            async for job in admitted:
                if not isinstance(job, _Job):
                    continue
                started.append(job)
                job.task = asyncio.create_task(
                    budget.guarded(self._understand(job, run), _failed_understanding)
                )
                await _put(queue, job, consumer)
            await _put(queue, None, consumer)
            await consumer
        except BaseException:
            aclose = getattr(admitted, "aclose", None)
            if aclose is not None:
                await asyncio.gather(aclose(), return_exceptions=True)
            consumer.cancel()
            for job in started:
                if job.task is not None:
                    job.task.cancel()
            await asyncio.gather(
                consumer, *(j.task for j in started if j.task), return_exceptions=True
            )
            raise
        return run.report

    async def _admit_all(
        self, raws: AsyncIterator[RawMessage], run: _Run
    ) -> AsyncIterator[_Job | None]:
        """Admit in arrival order, several messages per round trip.

        A reader task pulls from the source and starts parsing ahead (in a worker process once
        the run is long enough, see ``WorkerPool``); admission takes whatever has arrived, up to
        ``ADMIT_CHUNK`` messages, and records them with one identity read, one file write hop
        and one writer transaction.
        """
        parser = run.parser
        arrivals: asyncio.Queue[Any] = asyncio.Queue(maxsize=PARSE_AHEAD)
        reader = asyncio.create_task(self._read_ahead(raws, arrivals, parser))
        try:
            finished = False
            while not finished:
                chunk: list[tuple[RawMessage, Any]] = []
                item = await arrivals.get()
                while True:
                    if item is _END:
                        finished = True
                        break
                    if isinstance(item, BaseException):
                        raise item
                    chunk.append(item)
                    if len(chunk) >= ADMIT_CHUNK or arrivals.empty():
                        break
                    item = arrivals.get_nowait()
                if chunk:
                    for job in await self._admit_chunk(chunk, parser, run):
                        yield job
        finally:
            reader.cancel()
            await asyncio.gather(reader, return_exceptions=True)

    @staticmethod
    async def _read_ahead(
        raws: AsyncIterator[RawMessage], out: asyncio.Queue[Any], parser: WorkerPool
    ) -> None:
        try:
            async for raw in raws:
                await out.put((raw, parser.submit(raw.raw)))
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # the source failed: admission re-raises it in order
            await out.put(exc)
            return
        await out.put(_END)

    async def _readmit_all(
        self, rows: list[tuple[int, str | None, str, str | None]], run: _Run
    ) -> AsyncIterator[_Job | None]:
        for pk, raw_path, direction, conversation_id in rows:
            yield await self._readmit(pk, raw_path, direction, conversation_id, run)

    # ------------------------------------------------------------------------------ admission
    def _now(self) -> datetime:
        return self.services.clock.now().replace(tzinfo=None)

    async def _admit_chunk(
        self, chunk: list[tuple[RawMessage, Any]], parser: WorkerPool, run: _Run
    ) -> list[_Job]:
        """Identify and record a few arrived messages; returns the jobs for the merge loop."""
        items: list[_Arrival] = []
        for raw, parsing in chunk:
            parsed, failure, detail, body_text = await parser.result(parsing, raw.raw)
            items.append(
                _Arrival(
                    raw=raw,
                    parsed=parsed,
                    failure=failure,
                    detail=detail,
                    body_text=body_text,
                    message_id=records.message_identity(
                        parsed.message_id if parsed else None, raw.raw
                    ),
                )
            )

        # one Message-ID, different content: a different message (core.intake.identity)
        await self._resolve_identities(items)

        # the same message twice in one run (in flight, or earlier in this chunk)
        fresh: list[_Arrival] = []
        first_of: dict[str, _Arrival] = {}
        for item in items:
            in_flight = run.by_message_id.get(item.message_id)
            if in_flight is not None:
                item.outcome = ("known", in_flight.pk, "")
                continue
            keys = [item.message_id] + ([f"graph:{item.raw.graph_id}"] if item.raw.graph_id else [])
            earlier = next((first_of[k] for k in keys if k in first_of), None)
            if earlier is not None:
                item.same_as = earlier
                continue
            for key in keys:
                first_of[key] = item
            fresh.append(item)

        if fresh:
            pairs = [(i.message_id, i.raw.graph_id) for i in fresh]
            known = await self.services.store.read(lambda s: _known_many(s, pairs))
            relink = [
                (i.message_id, i.raw.graph_id)
                for i, k in zip(fresh, known, strict=True)
                if k and k[1]
            ]
            if relink:  # same Message-ID under a new Graph id
                await self.services.store.run(
                    lambda s: [self._known(s, mid, gid) for mid, gid in relink]
                )
            new: list[_Arrival] = []
            for item, found in zip(fresh, known, strict=True):
                if found is not None:
                    item.outcome = ("known", found[0], "")
                else:
                    new.append(item)
            if new:
                await asyncio.to_thread(self._save_files, new)
                outcomes = await self.services.store.run(lambda s: self._insert_many(s, new))
                for item, outcome in zip(new, outcomes, strict=True):
                    item.outcome = outcome

        jobs: list[_Job] = []
        for item in items:
            outcome = item.outcome if item.same_as is None else item.same_as.outcome
            if outcome is None:  # defensive: nothing recorded for it
                continue
            kind, pk, disposition = outcome
            if kind == "known" or item.same_as is not None:
                run.report.already_known += 1
                if kind != "raced" and pk not in run.report.message_pks:
                    run.report.message_pks.append(pk)
                continue
            if kind == "raced":  # another writer got there first
                run.report.already_known += 1
                continue
            events: list[Event] = [MessageRecorded(pk, disposition)]
            if disposition != PENDING:
                run.report.note(pk, disposition)
                if disposition.startswith("failed:"):
                    events.append(NeedsAttention("failed", "message", pk, disposition))
                self._publish(events)
                continue
            self._publish(events)
            assert item.parsed is not None
            jobs.append(
                self._job(
                    pk,
                    item.message_id,
                    item.parsed,
                    item.outgoing,
                    item.customer_email,
                    item.body_text,
                    item.raw.conversation_id,
                    run,
                )
            )
        return jobs

    async def _resolve_identities(self, items: list[_Arrival]) -> None:
        keys = [(i.message_id, identity.fingerprint_of(i.parsed), i.raw.raw) for i in items]
        paths = self.services.paths
        resolved = await self.services.store.read(lambda s: identity.resolve_many(s, paths, keys))
        for item, message_id in zip(items, resolved, strict=True):
            item.message_id = message_id

    def _save_files(self, items: list[_Arrival]) -> None:
        """Raw bytes and attachment files, before the rows that point at them are committed."""
        for item in items:
            item.raw_path = records.save_raw(self.services.paths, item.raw.raw)
            if item.parsed is not None:
                item.stored = records.store_attachment_files(
                    self.services.paths, item.parsed.attachments, self.attachment_max_mb
                )

    def _insert_many(self, session: Session, items: list[_Arrival]) -> list[tuple[str, int, str]]:
        """The rows of a chunk of new messages, in order, with one flush: per message
        ``("inserted", pk, disposition)``, or ``("raced", pk, "")`` when another writer recorded
        it since the identity read.

        Why batched: identity re-check, the prefilter's known-customer test and the flush cost a
        few queries and a unit of work *per message* on the single writer thread otherwise. The
        chunk's identities are distinct (deduplicated by the caller) and a pending row never makes
        a customer "known" (that needs an inquiry), so batching changes no answer.
        """
        pairs = [(i.message_id, i.raw.graph_id) for i in items]
        known = _known_many(session, pairs) if items else []
        emails: list[str | None] = []
        for item, found in zip(items, known, strict=True):
            parsed = item.parsed
            if found is not None or parsed is None:
                continue
            outgoing = (
                item.raw.folder == "sent" or (parsed.from_addr or "").lower() in self.own_addresses
            )
            try:
                customer_email = self._customer_email(parsed, item.body_text)
            except Exception as exc:  # this message fails alone, raw bytes kept
                _fail_arrival(item, exc)
                continue
            item.outgoing, item.customer_email = outgoing, customer_email
            if not outgoing:
                emails.append(customer_email)
        customers = merge.known_customers(session, emails)
        rows: list[tuple[str, Message | int, str]] = []
        for item, found in zip(items, known, strict=True):
            if found is not None:
                rows.append(("raced", found[0], ""))
                continue
            try:
                msg, disposition = self._new_row(item, customers)
            except Exception as exc:  # this message fails alone, raw bytes kept
                _fail_arrival(item, exc)
                msg, disposition = self._new_row(item, customers)
            session.add(msg)
            rows.append(("inserted", msg, disposition))
        session.flush()
        return [
            (kind, row.id if isinstance(row, Message) else row, disposition)
            for kind, row, disposition in rows
        ]

    def _new_row(self, item: _Arrival, customers: set[str]) -> tuple[Message, str]:
        """The unsaved row of one new message and its first disposition."""
        raw, parsed, message_id = item.raw, item.parsed, item.message_id
        now = self._now()
        if parsed is None:
            disposition = f"failed:{item.failure or ''}"
            msg = Message(
                message_id=message_id,
                graph_id=raw.graph_id,
                source=raw.source,
                source_ref=raw.source_ref,
                folder=raw.folder,
                direction="in",
                conversation_id=raw.conversation_id,
                subject="",
                received_at=naive_utc(raw.received_at or self.services.clock.now()),
                raw_size=len(raw.raw),
                raw_path=item.raw_path,
                disposition=disposition,
                last_error=item.detail[:2000],
                created_at=now,
                updated_at=now,
            )
            return msg, disposition

        body_text = item.body_text
        outgoing, customer_email = item.outgoing, item.customer_email
        received = naive_utc(raw.received_at or parsed.date or self.services.clock.now())
        rule: str | None = None
        if not outgoing:
            known_customer = bool(customer_email) and customer_email.lower() in customers
            rule = prefilter(
                parsed, known_customer=known_customer, own_addresses=self.own_addresses
            )
        if outgoing:
            disposition = PENDING  # linked to its inquiry by the merge loop, in order
        elif rule:
            disposition = f"skipped:{rule}"
        elif not customer_email:
            disposition = "failed:no_sender"
        else:
            disposition = PENDING
        msg = Message(
            message_id=message_id,
            graph_id=raw.graph_id,
            source=raw.source,
            source_ref=raw.source_ref,
            folder=raw.folder,
            direction="out" if outgoing else "in",
            conversation_id=raw.conversation_id,
            in_reply_to=records.normalise_message_id(parsed.in_reply_to),
            references=[
                r for r in (records.normalise_message_id(x) for x in parsed.references) if r
            ],
            from_addr=(parsed.from_addr or None),
            from_name=parsed.from_name or None,
            reply_to=(parsed.reply_to or None),
            to_addrs=list(parsed.to),
            cc_addrs=list(parsed.cc),
            subject=parsed.subject or "",
            received_at=received,
            body_text=body_text,
            body_full=parsed.text or "",
            body_html=parsed.html,
            raw_size=len(raw.raw),
            raw_path=item.raw_path,
            parse_notes=list(parsed.notes),
            disposition=disposition,
            attempts=0,
            created_at=now,
            updated_at=now,
        )
        msg.attachments = records.attachment_rows(item.stored)
        return msg, disposition

    async def _readmit(
        self,
        pk: int,
        raw_path: str | None,
        direction: str,
        conversation_id: str | None,
        run: _Run,
    ) -> _Job | None:
        """A ``pending`` row from an earlier run: re-parse its saved bytes and queue it."""
        raw = await asyncio.to_thread(records.load_raw, self.services.paths, raw_path)
        failure: str | None = None
        parsed: ParsedMessage | None = None
        if raw is None:
            failure = "raw_missing"
        else:
            try:
                parsed = parse_message(raw)
            except MessageParseError as exc:
                failure = str(exc.params.get("reason") or "unparseable")
            except Exception:  # a parser bug on hostile bytes: this message only
                log.exception("re-parse of message %s failed", pk)
                failure = "parse_error"
        if parsed is None:
            disposition = f"failed:{failure}"
            await self.services.store.run(lambda s: self._set_disposition(s, pk, disposition))
            run.report.note(pk, disposition)
            self._publish(
                [
                    MessageRecorded(pk, disposition),
                    NeedsAttention("failed", "message", pk, disposition),
                ]
            )
            return None
        message_id = records.message_identity(parsed.message_id, raw or b"")
        outgoing = direction == "out"
        body_text = stripped_text(parsed.text or "")
        customer_email = self._customer_email(parsed, body_text)
        return self._job(
            pk, message_id, parsed, outgoing, customer_email, body_text, conversation_id, run
        )

    def _job(
        self,
        pk: int,
        message_id: str,
        parsed: ParsedMessage,
        outgoing: bool,
        customer_email: str | None,
        body_text: str,
        conversation_id: str | None,
        run: _Run,
    ) -> _Job:
        thread = merge.thread_ids(
            records.normalise_message_id(parsed.in_reply_to),
            [r for r in (records.normalise_message_id(x) for x in parsed.references) if r],
        )
        job = _Job(
            pk=pk,
            message_id=message_id,
            parsed=parsed,
            outgoing=outgoing,
            customer_email=customer_email,
            body_text=body_text,
            thread_ids=thread,
            conversation_id=conversation_id,
        )
        deps = [run.by_message_id[m] for m in thread if m in run.by_message_id]
        if customer_email and customer_email in run.by_email:
            deps.append(run.by_email[customer_email])
        if conversation_id and conversation_id in run.by_conversation:
            deps.append(run.by_conversation[conversation_id])
        job.deps = list(dict.fromkeys(deps))
        run.by_message_id[message_id] = job
        if customer_email and not outgoing:
            run.by_email[customer_email] = job
        if conversation_id:
            run.by_conversation[conversation_id] = job
        return job

    @staticmethod
    def _known_pk(
        session: Session, message_id: str, graph_id: str | None
    ) -> tuple[int, bool] | None:
        """(pk, graph id needs updating) of a stored message with this identity, if any."""
        msg = records.find_known(session, message_id, graph_id)
        if msg is None:
            return None
        return msg.id, bool(graph_id and msg.graph_id != graph_id)

    @staticmethod
    def _known(session: Session, message_id: str, graph_id: str | None) -> int | None:
        msg = records.find_known(session, message_id, graph_id)
        if msg is None:
            return None
        if graph_id and msg.graph_id != graph_id and msg.message_id == message_id:
            # Outlook can re-issue immutable ids when mail moves: keep the newest, dedup on the
            # Message-ID (STACK-NOTES); the unique constraint guarantees no other row has it.
            other = session.scalars(select(Message.id).where(Message.graph_id == graph_id)).first()
            if other is None:
                msg.graph_id = graph_id
        return msg.id

    def _set_disposition(self, session: Session, pk: int, disposition: str) -> None:
        msg = session.get(Message, pk)
        if msg is not None:
            msg.disposition = disposition
            msg.updated_at = self._now()

    # ------------------------------------------------------------------------------ understanding
    async def _understand(self, job: _Job, run: _Run) -> Understanding:
        """Classify (and extract) one message; never raises for model trouble."""
        if job.outgoing:
            return Understanding()
        # Earlier in-flight messages of the same thread/customer: wait for their *understanding*
        # (not their merge, which would serialise the whole run behind the merge loop) and fold
        # what they say into the context the DB does not have yet.
        earlier: list[tuple[_Job, Understanding]] = []
        for dep in job.deps:
            if dep.task is not None:
                earlier.append((dep, await asyncio.shield(dep.task)))
        thread_inquiry, known_customer = await self.services.store.read(
            lambda s: self._thread_context(s, job)
        )
        thread_inquiry, known_customer = _fold_in_flight(
            job, thread_inquiry, known_customer, earlier
        )
        view = self._view(job, thread_inquiry, known_customer)
        from core.intake import classify, extract  # the LLM helper's modules

        if self.offline:
            try:
                cls, ext = await budget.within(
                    extract.understand_by_rules, view, run_in=budget.worker_call(run.parser)
                )
            except TimeoutError:
                return _failed_understanding("timeout", f"over {budget.RULES_BUDGET_S:.0f} s")
            return Understanding(cls, ext)
        if run.llm_down is not None:
            return Understanding(error_reason="unavailable", error_detail=run.llm_down)
        try:
            cls = await classify.classify_llm(self.llm, view)
            ext = None
            if cls.primary != "C":
                ext = await extract.extract_llm(self.llm, view)
                cls = classify.settle_confidence(cls, ext)  # trust what survived grounding
            return Understanding(cls, ext)
        except LLMSchemaError as exc:
            return Understanding(error_reason="schema", error_detail=str(exc))
        except LLMUnavailable as exc:
            run.llm_down = str(exc) or "unavailable"
            return Understanding(error_reason="unavailable", error_detail=str(exc))
        except LLMError as exc:
            return Understanding(error_reason="error", error_detail=str(exc))

    def _thread_context(self, session: Session, job: _Job) -> tuple[dict[str, Any] | None, bool]:
        inquiry = merge.find_thread_inquiry(
            session,
            job.thread_ids[0] if job.thread_ids else None,
            list(reversed(job.thread_ids[1:])),
            job.conversation_id,
            exclude_pk=job.pk,
        )
        by_email = merge.find_email_inquiry(session, job.customer_email)
        if inquiry is None and _is_reply(job):
            inquiry = by_email
        context = None
        if inquiry is not None:
            context = {
                "id": inquiry.id,
                "classification": inquiry.classification,
                "customer_name": inquiry.customer_name,
                "customer_phone": inquiry.customer_phone,
                "address": inquiry.address,
                "suburb": inquiry.suburb,
                "products": list(inquiry.product_types or []),
                "stage": inquiry.stage,
            }
        return context, by_email is not None

    def _view(self, job: _Job, thread_inquiry: dict[str, Any] | None, known: bool) -> Any:
        from core.intake.view import view_from_parsed

        parsed = job.parsed
        return view_from_parsed(
            parsed,
            body_text=job.body_text if self.strip_quotes_enabled else (parsed.text or ""),
            known_customer=known,
            thread_inquiry=thread_inquiry,
            own_addresses=self.own_addresses,
            region=self.region,
            message_pk=job.pk,
            inquiry_id=(thread_inquiry or {}).get("id"),
        )

    def _customer_email(self, parsed: ParsedMessage, body_text: str) -> str | None:
        """The customer's address from the headers (From, or Reply-To of a website form)."""
        from core.intake.view import view_from_parsed

        view = view_from_parsed(
            parsed, body_text=body_text, own_addresses=self.own_addresses, region=self.region
        )
        email = view.customer_email
        return email if email and email not in self.own_addresses else None

    # ------------------------------------------------------------------------------ merging
    async def _merge_loop(self, queue: asyncio.Queue[_Job | None], run: _Run) -> None:
        """Apply understood jobs in arrival order; consecutive ready jobs share a transaction.

        Batching is what keeps the single SQLite writer from becoming the bottleneck when many
        model answers arrive together; a batch is still all-or-nothing, and a message whose
        merge raises is retried alone so it cannot take its neighbours down with it.
        """
        carry: _Job | object | None = _NOTHING
        while True:
            job = await queue.get() if carry is _NOTHING else carry
            carry = _NOTHING
            if job is None:
                return
            assert isinstance(job, _Job)
            if job.task is not None:
                await asyncio.shield(job.task)
            batch = [job]
            while len(batch) < MERGE_BATCH and not queue.empty():
                nxt = queue.get_nowait()
                if nxt is None or (nxt.task is not None and not nxt.task.done()):
                    carry = nxt
                    break
                batch.append(nxt)
            try:
                await self._finish_batch(batch, run)
            finally:
                for item in batch:
                    item.done.set()

    def _apply_one(self, session: Session, job: _Job, understanding: Understanding) -> Any:
        if job.outgoing:
            return self._apply_outgoing(session, job)
        if understanding.error_reason is not None:
            return self._apply_failure(session, job, understanding)
        return self._apply(session, job, understanding)

    def _apply_batch(
        self, session: Session, understood: list[tuple[_Job, Understanding]]
    ) -> list[Any]:
        """Apply a batch in order. The batch's message rows are loaded with one ``IN`` query
        first, so each ``session.get`` below is an identity-map hit instead of a query."""
        rows = session.scalars(select(Message).where(Message.id.in_([j.pk for j, _ in understood])))
        loaded = rows.all()  # held: the identity map only keeps weak references
        results = [self._apply_one(session, j, u) for j, u in understood]
        del loaded
        return results

    async def _finish_batch(self, batch: list[_Job], run: _Run) -> None:
        understood = [(j, j.task.result() if j.task else Understanding()) for j in batch]
        try:
            results = await self.services.store.run(lambda s: self._apply_batch(s, understood))
        except Exception:
            if len(batch) == 1:
                results = [await self._failed_internal(batch[0])]
            else:  # find the culprit: one transaction per message
                results = []
                for j, u in understood:
                    try:
                        results.append(
                            await self.services.store.run(
                                lambda s, j=j, u=u: self._apply_one(s, j, u)
                            )
                        )
                    except Exception:
                        results.append(await self._failed_internal(j))
        for job, result in zip(batch, results, strict=True):
            if result is None:  # another run finished this message meanwhile
                continue
            disposition, events, new_inquiry = result
            run.report.note(job.pk, disposition)
            if new_inquiry is not None:
                run.report.new_inquiry_ids.append(new_inquiry)
            for event in events:
                if (
                    isinstance(event, MessageMerged | InquiryUpdated)
                    and event.inquiry_id not in run.report.updated_inquiry_ids
                ):
                    run.report.updated_inquiry_ids.append(event.inquiry_id)
            self._publish(events)

    async def _failed_internal(self, job: _Job) -> tuple[str, list[Event], None]:
        """A bug must not stall the run or leave a silent ``pending``: record it, loudly."""
        log.exception("merge of message %s failed", job.pk)
        disposition = "failed:internal"
        detail = "see the log for the traceback"

        def _mark(session: Session) -> None:
            msg = session.get(Message, job.pk)
            if msg is not None and msg.disposition == PENDING:
                msg.disposition = disposition
                msg.last_error = detail
                msg.updated_at = self._now()

        await self.services.store.run(_mark)
        return (
            disposition,
            [
                MessageRecorded(job.pk, disposition),
                NeedsAttention("failed", "message", job.pk, disposition),
            ],
            None,
        )

    def _apply_outgoing(self, session: Session, job: _Job) -> tuple[str, list[Event], None] | None:
        msg = session.get(Message, job.pk)
        if msg is None or msg.disposition != PENDING:
            return None
        msg.direction = "out"
        inquiry = merge.record_outbound(
            session, msg, to_addrs=[*job.parsed.to, *job.parsed.cc], clock=self.services.clock
        )
        msg.disposition = OUTGOING
        msg.updated_at = self._now()
        events: list[Event] = [MessageRecorded(job.pk, OUTGOING)]
        if inquiry is not None:
            events.append(
                InquiryUpdated(inquiry.id, ("last_outbound_at", "owes_reply", "last_contact_at"))
            )
        return OUTGOING, events, None

    def _apply_failure(
        self, session: Session, job: _Job, understanding: Understanding
    ) -> tuple[str, list[Event], None] | None:
        msg = session.get(Message, job.pk)
        if msg is None or msg.disposition != PENDING:
            return None
        msg.attempts = (msg.attempts or 0) + 1
        msg.last_error = f"{understanding.error_reason}: {understanding.error_detail}"[:2000]
        msg.updated_at = self._now()
        if understanding.error_reason in budget.FINAL_REASONS:  # the same bytes fail again
            msg.disposition = f"failed:{understanding.error_reason}"
            kind = "failed"
        elif msg.attempts >= self.max_attempts:
            msg.disposition = f"failed:llm_{understanding.error_reason}"
            kind = "failed"
        else:
            kind = "llm_pending"
        detail = f"{msg.disposition} (attempt {msg.attempts}/{self.max_attempts})"
        return (
            msg.disposition,
            [
                MessageRecorded(job.pk, msg.disposition),
                NeedsAttention(kind, "message", job.pk, detail),
            ],
            None,
        )

    def _apply(
        self, session: Session, job: _Job, understanding: Understanding
    ) -> tuple[str, list[Event], int | None] | None:
        msg = session.get(Message, job.pk)
        if msg is None or msg.disposition != PENDING:
            return None
        cls, ext = understanding.classification, understanding.extraction
        msg.classification = cls.primary
        msg.confidence = cls.confidence
        msg.labels = list(getattr(cls, "labels", []) or [])
        msg.extracted = merge._extraction_dict(ext) if ext is not None else {}
        msg.updated_at = self._now()
        decision = merge.decide(
            session, msg, cls, ext, customer_email=job.customer_email, offline=self.offline
        )
        events: list[Event] = []
        new_id: int | None = None
        if decision.disposition == "new_inquiry":
            applied = merge.create_inquiry(
                session,
                msg,
                cls,
                ext,
                customer_email=job.customer_email,
                parent=decision.target,
                reason=decision.reason,
                clock=self.services.clock,
                region=self.region,
                language_hint=job.parsed.language,
            )
            new_id = applied.inquiry_id
            events.append(MessageRecorded(job.pk, "new_inquiry"))
            events.append(InquiryCreated(applied.inquiry_id or 0, job.pk))
            if applied.stage_change is not None:
                events.append(applied.stage_change.event())
            if applied.low_confidence:
                events.append(
                    NeedsAttention("low_confidence", "inquiry", applied.inquiry_id, cls.reason)
                )
        elif decision.disposition == "merged" and decision.target is not None:
            applied = merge.merge_into(
                session,
                decision.target,
                msg,
                cls,
                ext,
                customer_email=job.customer_email,
                clock=self.services.clock,
                region=self.region,
            )
            events.append(MessageRecorded(job.pk, "merged"))
            events.append(MessageMerged(decision.target.id, job.pk))
            events.append(InquiryUpdated(decision.target.id, applied.changed_fields))
        else:
            applied = merge.Applied("not_inquiry", None)
            events.append(MessageRecorded(job.pk, "not_inquiry"))
        msg.disposition = applied.disposition
        session.flush()  # the next message of the batch queries a clean session
        return applied.disposition, events, new_id

    # ------------------------------------------------------------------------------ events
    def _publish(self, events: Iterable[Event]) -> None:
        for event in events:
            self.services.bus.publish(event)


# ---------------------------------------------------------------------------------- helpers


def _fold_in_flight(
    job: _Job,
    context: dict[str, Any] | None,
    known_customer: bool,
    earlier: list[tuple[_Job, Understanding]],
) -> tuple[dict[str, Any] | None, bool]:
    """The thread context as it will be once the earlier in-flight messages are merged."""
    unmerged = [
        (dep, u)
        for dep, u in earlier
        if not dep.done.is_set()
        and u.classification is not None
        and u.classification.primary != "C"
    ]
    if not unmerged:
        return context, known_customer
    known_customer = known_customer or any(
        dep.customer_email == job.customer_email for dep, _ in unmerged
    )
    in_thread = [
        (dep, u)
        for dep, u in unmerged
        if dep.message_id in job.thread_ids
        or (job.conversation_id and dep.conversation_id == job.conversation_id)
        or (_is_reply(job) and dep.customer_email == job.customer_email)
    ]
    if not in_thread:
        return context, known_customer
    merged = dict(context or {"id": None, "products": []})
    for _dep, u in in_thread:
        ext = u.extraction
        if merged.get("classification") is None:
            merged["classification"] = u.classification.primary
        if ext is None:
            continue
        for key, value in (
            ("customer_name", ext.customer_name),
            ("customer_phone", ext.customer_phone),
            ("address", ext.address),
            ("suburb", ext.suburb),
        ):
            if value and not merged.get(key):
                merged[key] = value
        products = list(merged.get("products") or [])
        merged["products"] = products + [p for p in ext.product_types if p not in products]
    return merged, known_customer


def _failed_understanding(reason: str, detail: str) -> Understanding:
    return Understanding(error_reason=reason, error_detail=detail)


def _fail_arrival(item: _Arrival, exc: Exception) -> None:
    """Turn an arrival whose admission raised into a ``failed:internal`` row (raw bytes kept)."""
    log.exception("admission of %s failed", item.raw.source_ref or item.message_id)
    item.parsed, item.failure = None, "internal"
    item.detail = f"{type(exc).__name__}: {exc}"


def _is_reply(job: _Job) -> bool:
    subject = (job.parsed.subject or "").strip().lower()
    return bool(job.thread_ids) or subject.startswith(_REPLY_PREFIXES)


async def _aiter(items: Iterable[RawMessage]) -> AsyncIterator[RawMessage]:
    for item in items:
        yield item


async def _put(
    queue: asyncio.Queue[_Job | None], item: _Job | None, consumer: asyncio.Task[None]
) -> None:
    """``queue.put`` that fails fast when the consumer died instead of waiting forever."""
    if consumer.done():
        consumer.result()  # re-raises the consumer's exception
        raise RuntimeError("merge loop ended early")
    put = asyncio.ensure_future(queue.put(item))
    done, _ = await asyncio.wait({put, consumer}, return_when=asyncio.FIRST_COMPLETED)
    if put not in done:
        put.cancel()
        consumer.result()
        raise RuntimeError("merge loop ended early")


def build_pipeline(services: Services, offline: bool = False) -> IntakePipeline:
    """The pipeline of a data folder: with an ``LLMClient`` when ``llm.base_url`` is configured
    and ``offline`` is not requested; rules only otherwise."""
    llm = None
    if not offline and str(services.settings.get("llm.base_url") or "").strip():
        from core.llm.client import LLMClient

        llm = LLMClient(services.settings, services.secrets, services.store, services.clock)
    return IntakePipeline(services, llm, offline=offline)


__all__ = ["IngestReport", "IntakePipeline", "Understanding", "build_pipeline"]
