"""Admission: an arrived message becomes a stored row (and raw bytes on disk), in arrival order.

Principle 3 ("nothing is lost") is kept here: a message's raw bytes are written before its row is
committed, and the row is committed (``pending``) before any model is asked anything. A kill at
any point leaves either no row (the source offers the message again) or a ``pending`` row that
``retry_pending`` re-parses from the saved bytes (``readmit``).

Admission works a chunk at a time (``ADMIT_CHUNK``): one identity read, one file-write hop and
one writer transaction for several messages, which is what keeps the single SQLite writer off
the critical path. Outgoing mail and rule-skipped mail get their final disposition here and never
reach a model; everything else leaves as a ``Job`` for understanding.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from core import tasks
from core.errors import MessageParseError
from core.events import Event, MessageRecorded, NeedsAttention
from core.intake import identity, merge, records
from core.intake.admission_rows import RowFactory
from core.intake.jobs import PENDING, Arrival, Job, Run
from core.intake.pump import arrival_chunks, discard_parsings
from core.intake.view import view_from_parsed
from core.intake.worker_pool import WorkerPool
from core.mail.parse import ParsedMessage, parse_file, parse_message, stripped_text
from core.mail.source import RawMessage
from core.services import Services

if TYPE_CHECKING:
    from core.db.models import Message
    from core.db.send_journal import SendEntry
    from core.intake.worker_pool import Parsing

log = logging.getLogger(__name__)

PendingRow = tuple[int, str | None, str, str | None]  # pk, raw_path, direction, conversation_id


class Admission:
    """Records arrivals (new rows, known ones recognised) and hands on the jobs to understand."""

    def __init__(
        self,
        services: Services,
        *,
        own_addresses: list[str],
        region: str,
        attachment_max_mb: int,
        publish: Callable[[Iterable[Event]], None],
    ) -> None:
        self.services = services
        self.own_addresses = own_addresses
        self.region = region
        self.attachment_max_mb = attachment_max_mb
        self.publish = publish
        self.rows = RowFactory(services.clock, own_addresses)

    # ------------------------------------------------------------------ new arrivals
    async def admit_all(self, raws: AsyncIterator[RawMessage], run: Run) -> AsyncIterator[Job]:
        """Admit in arrival order, several messages per round trip (see ``arrival_chunks``)."""
        async with contextlib.aclosing(arrival_chunks(raws, run.parser)) as chunks:
            async for chunk in chunks:
                for job in await self.admit_chunk(chunk, run):
                    yield job

    async def admit_chunk(self, chunk: list[tuple[RawMessage, Parsing]], run: Run) -> list[Job]:
        """Identify and record a few arrived messages; returns the jobs for the merge loop."""
        items: list[Arrival] = []
        try:
            for index, (raw, parsing) in enumerate(chunk):
                try:
                    items.append(await self._identify(raw, parsing, run.parser))
                except BaseException:
                    await discard_parsings(chunk[index:])  # not identified: not ours yet
                    raise
            # one Message-ID, different content: a different message (core.intake.identity)
            await self._resolve_identities(items)
            fresh = _first_sightings(items, run)
            if fresh:
                await self._record(fresh)
        finally:  # a big mail's parts not stored by now never will be (known, raced, failed)
            await tasks.io(_discard_spools, items)
        jobs: list[Job] = []
        for item in items:
            job = self._settle(item, run)
            if job is not None:
                jobs.append(job)
        return jobs

    async def _identify(self, raw: RawMessage, parsing: Parsing, parser: WorkerPool) -> Arrival:
        parsed, failure, detail, body_text = await parser.result(parsing, raw.parse_input)
        digest = raw.sha256 if raw.path is None else await tasks.io(lambda: raw.sha256)
        return Arrival(
            raw=raw,
            parsed=parsed,
            failure=failure,
            detail=detail,
            body_text=body_text,
            message_id=records.identity_of(parsed.message_id if parsed else None, digest),
        )

    async def _resolve_identities(self, items: list[Arrival]) -> None:
        keys = [(i.message_id, identity.fingerprint_of(i.parsed), i.raw.sha256) for i in items]
        paths = self.services.paths
        resolved = await self.services.store.read(lambda s: identity.resolve_many(s, paths, keys))
        for item, message_id in zip(items, resolved, strict=True):
            item.message_id = message_id

    async def _record(self, fresh: list[Arrival]) -> None:
        """Known ones recognised (and relinked to a new Graph id), new ones written and inserted."""
        store = self.services.store
        pairs = [(i.message_id, i.raw.source_id) for i in fresh]
        known = await store.read(lambda s: records.known_many(s, pairs))
        relink = [
            (i.message_id, i.raw.source_id, i.raw.source)
            for i, k in zip(fresh, known, strict=True)
            if k and k[1]
        ]
        if relink:  # same Message-ID under a new Graph id
            await store.run(lambda s: _relink_all(s, relink))
        new: list[Arrival] = []
        for item, found in zip(fresh, known, strict=True):
            if found is not None:
                item.outcome = ("known", found[0], "")
            else:
                new.append(item)
        if new:
            await tasks.io(self._save_files, new)
            await tasks.io(self._mark_journalled, new)
            outcomes = await store.run(lambda s: self._insert_many(s, new))
            for item, outcome in zip(new, outcomes, strict=True):
                item.outcome = outcome

    def _settle(self, item: Arrival, run: Run) -> Job | None:
        """Report what admission did with one arrival; the job to understand, if any."""
        outcome = item.outcome if item.same_as is None else item.same_as.outcome
        if outcome is None:  # defensive: nothing recorded for it
            return None
        kind, pk, disposition = outcome
        report = run.report
        if kind == "known" or item.same_as is not None:
            report.already_known += 1
            if kind != "raced":
                report.known_pks.add(pk)
                if pk not in report.message_pks:
                    report.message_pks.append(pk)
            return None
        if kind == "raced":  # another writer got there first
            report.already_known += 1
            return None
        events: list[Event] = [MessageRecorded(pk, disposition)]
        if disposition != PENDING:
            report.note(pk, disposition)
            if disposition.startswith("failed:"):
                events.append(NeedsAttention("failed", "message", pk, disposition))
            self.publish(events)
            return None
        self.publish(events)
        assert item.parsed is not None
        return self.new_job(
            pk,
            item.message_id,
            item.parsed,
            item.outgoing,
            item.customer_email,
            item.body_text,
            item.raw.conversation_id,
            run,
        )

    def _save_files(self, items: list[Arrival]) -> None:
        """Raw bytes and attachment files, before the rows that point at them are committed."""
        paths = self.services.paths
        with paths.batch():  # on PostgreSQL: the chunk's files in one commit, before the rows
            for item in items:
                if item.raw.path is not None:  # a big mail: copied file to file
                    item.raw_path = records.save_raw_file(paths, item.raw.path, item.raw.sha256)
                else:
                    item.raw_path = records.save_raw(paths, item.raw.raw)
                if item.parsed is not None:
                    item.stored = records.store_attachment_files(
                        paths, item.parsed.attachments, self.attachment_max_mb
                    )

    def _mark_journalled(self, items: list[Arrival]) -> None:
        """Flag the arrivals outside Sent that are copies the app itself submitted.

        Read only when a message outside Sent says it is from the owner (mail he sent to
        himself, a Bcc to his own address — or a stranger spoofing his From:), so the journal
        file is not read for ordinary mail."""
        own = {a.lower() for a in self.own_addresses}
        asking = [
            i
            for i in items
            if i.parsed is not None
            and i.raw.folder != "sent"
            and (i.parsed.from_addr or "").lower() in own
        ]
        if not asking:
            return
        from core.db.send_journal import SendJournal

        entries = SendJournal.for_home(
            self.services.paths.home, self.services.paths.shared
        ).entries()
        for item in asking:
            assert item.parsed is not None
            item.journalled = own_copy(item.message_id, item.parsed, entries)

    def _insert_many(self, session: Session, items: list[Arrival]) -> list[tuple[str, int, str]]:
        """The rows of a chunk of new messages, in order, with one flush: per message
        ``("inserted", pk, disposition)``, or ``("raced", pk, "")`` when another writer recorded
        it since the identity read.

        Why batched: identity re-check, the prefilter's known-customer test and the flush cost a
        few queries and a unit of work *per message* on the single writer thread otherwise. The
        chunk's identities are distinct (deduplicated by the caller) and a pending row never makes
        a customer "known" (that needs an inquiry), so batching changes no answer.
        """
        known = records.known_many(session, [(i.message_id, i.raw.source_id) for i in items])
        emails: list[str | None] = []
        for item, found in zip(items, known, strict=True):
            parsed = item.parsed
            if found is not None or parsed is None:
                continue
            item.outgoing = is_ours(item)
            try:
                item.customer_email = self.customer_email(parsed, item.body_text)
            except Exception as exc:  # this message fails alone, raw bytes kept
                fail_arrival(item, exc)
                continue
            if not item.outgoing:
                emails.append(item.customer_email)
        customers = merge.known_customers(session, emails)
        rows: list[tuple[str, int | Message, str]] = []
        for item, found in zip(items, known, strict=True):
            if found is not None:
                rows.append(("raced", found[0], ""))
                continue
            try:
                msg, disposition = self.rows.new_row(item, customers)
            except Exception as exc:  # this message fails alone, raw bytes kept
                fail_arrival(item, exc)
                msg, disposition = self.rows.new_row(item, customers)
            session.add(msg)
            rows.append(("inserted", msg, disposition))
        session.flush()
        return [
            (kind, row if isinstance(row, int) else row.id, disposition)
            for kind, row, disposition in rows
        ]

    # ------------------------------------------------------------------ pending from earlier runs
    async def pending_rows(self) -> list[PendingRow]:
        return await self.services.store.read(self.rows.pending)

    async def readmit_all(self, rows: list[PendingRow], run: Run) -> AsyncIterator[Job | None]:
        for pk, raw_path, direction, conversation_id in rows:
            yield await self.readmit(pk, raw_path, direction, conversation_id, run)

    async def readmit(
        self, pk: int, raw_path: str | None, direction: str, conversation_id: str | None, run: Run
    ) -> Job | None:
        """A ``pending`` row from an earlier run: re-parse its saved bytes and queue it."""
        raw = await tasks.io(records.load_raw, self.services.paths, raw_path, big=True)
        failure: str | None = None
        parsed: ParsedMessage | None = None
        if raw is None:
            failure = "raw_missing"
        else:
            try:
                parsed = await tasks.io(self._reparse, raw, run)
            except MessageParseError as exc:
                failure = str(exc.params.get("reason") or "unparseable")
            except Exception:  # a parser bug on hostile bytes: this message only
                log.exception("re-parse of message %s failed", pk)
                failure = "parse_error"
        if parsed is None:
            disposition = f"failed:{failure}"
            await self.services.store.run(lambda s: self.rows.set_disposition(s, pk, disposition))
            run.report.note(pk, disposition)
            self.publish(
                [
                    MessageRecorded(pk, disposition),
                    NeedsAttention("failed", "message", pk, disposition),
                ]
            )
            return None
        digest = Path(raw_path or "").stem  # raw files are named by their sha256
        message_id = records.identity_of(parsed.message_id, digest)
        body_text = stripped_text(parsed.text or "")
        customer_email = self.customer_email(parsed, body_text)
        outgoing = direction == "out"
        return self.new_job(
            pk, message_id, parsed, outgoing, customer_email, body_text, conversation_id, run
        )

    @staticmethod
    def _reparse(raw: bytes | Path, run: Run) -> ParsedMessage:
        """Parse saved bytes again (a big mail: its file, streamed). Its attachments were
        stored when it was admitted, so no part is decoded to disk now."""
        budget = dataclasses.replace(run.parser.budget, spool_dir=None)
        return parse_file(raw, budget) if isinstance(raw, Path) else parse_message(raw, budget)

    # ------------------------------------------------------------------ shared
    def new_job(
        self,
        pk: int,
        message_id: str,
        parsed: ParsedMessage,
        outgoing: bool,
        customer_email: str | None,
        body_text: str,
        conversation_id: str | None,
        run: Run,
    ) -> Job:
        thread = merge.thread_ids(
            records.normalise_message_id(parsed.in_reply_to),
            records.normalise_many(parsed.references),
        )
        job = Job(
            pk=pk,
            message_id=message_id,
            parsed=parsed,
            outgoing=outgoing,
            customer_email=customer_email,
            body_text=body_text,
            thread_ids=thread,
            conversation_id=conversation_id,
        )
        run.register(job)
        return job

    def customer_email(self, parsed: ParsedMessage, body_text: str) -> str | None:
        """The customer's address from the headers (From, or Reply-To of a website form)."""
        view = view_from_parsed(
            parsed, body_text=body_text, own_addresses=self.own_addresses, region=self.region
        )
        email = view.customer_email
        return email if email and email not in self.own_addresses else None


def is_ours(item: Arrival) -> bool:
    """Whether an arrival is the owner's own mail (outgoing): the mailbox holds it as sent
    (Graph Sent Items, the IMAP Sent folder) or it is a copy the app submitted and journalled.

    Never because ``From:`` names his address: anyone can write that header, and a stranger's
    Inbox mail "from" the owner would otherwise become the owner's words (evidence for payment
    details) and mark the inquiry answered by us. Such mail stays a stranger's (provenance
    ``CUSTOMER`` at most; see docs/provenance.md)."""
    return item.raw.folder == "sent" or item.journalled


def own_copy(message_id: str, parsed: ParsedMessage, entries: Iterable[SendEntry]) -> bool:
    """Whether the send journal holds this message as one the app submitted: the same
    Message-ID, subject and recipients on a ``submitting``/``submitted`` line.

    The subject and recipients are compared too because a Message-ID is no secret: every
    recipient of our mail has it, and could send a different text under it."""
    from core.db.send_journal import NOT_SENT, subject_hash

    wanted = records.normalise_message_id(message_id)
    people = {a.lower() for a in [*parsed.to, *parsed.cc]}
    for entry in entries:
        if entry.phase == NOT_SENT or not entry.message_id:
            continue
        if records.normalise_message_id(entry.message_id) != wanted:
            continue
        same_subject = not entry.subject_hash or entry.subject_hash == subject_hash(
            parsed.subject or ""
        )
        if same_subject and {a.lower() for a in entry.recipients} <= people:
            return True
    return False


def fail_arrival(item: Arrival, exc: Exception) -> None:
    """Turn an arrival whose admission raised into a ``failed:internal`` row (raw bytes kept)."""
    log.exception("admission of %s failed", item.raw.source_ref or item.message_id)
    item.parsed, item.failure = None, "internal"
    item.detail = f"{type(exc).__name__}: {exc}"


def _discard_spools(items: list[Arrival]) -> None:
    for item in items:
        if item.parsed is not None:
            records.discard_spooled(item.parsed.attachments)


def _relink_all(session: Session, pairs: list[tuple[str, str | None, str]]) -> None:
    for message_id, source_id, source in pairs:
        if source_id:
            records.relink_source_id(session, message_id, source_id, source)


def _first_sightings(items: list[Arrival], run: Run) -> list[Arrival]:
    """The arrivals to look up: not in flight in this run, not a repeat earlier in the chunk."""
    fresh: list[Arrival] = []
    first_of: dict[str, Arrival] = {}
    for item in items:
        in_flight = run.by_message_id.get(item.message_id)
        if in_flight is not None:
            item.outcome = ("known", in_flight.pk, "")
            continue
        keys = [item.message_id] + ([f"graph:{item.raw.source_id}"] if item.raw.source_id else [])
        earlier = next((first_of[k] for k in keys if k in first_of), None)
        if earlier is not None:
            item.same_as = earlier
            continue
        for key in keys:
            first_of[key] = item
        fresh.append(item)
    return fresh
