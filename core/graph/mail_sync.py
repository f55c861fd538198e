"""Mail sync by delta query: Inbox (and Sent Items) → the intake pipeline, nothing lost or doubled.

One round (``MailSync.run_once``):

1. For each watched folder follow ``@odata.nextLink`` from the stored ``@odata.deltaLink`` — or,
   the first time, from a fresh delta filtered on ``receivedDateTime ge now - first_sync_days``
   (Graph returns at most 5,000 messages for a filtered delta) — to the new ``@odata.deltaLink``.
   Only metadata is listed; this is cheap, and an idle poll is exactly one request per folder.
2. ``@removed`` entries go to ``pipeline.record_removed``.
3. Entries already in the store (same immutable id, or same ``internetMessageId`` — Outlook desktop
   can still change ids when it moves mail) are skipped without downloading; a changed id is
   recorded on the existing row. Read state is irrelevant: a message the owner opened in Outlook
   is ingested like any other.
4. New messages of *all* folders are sorted by ``receivedDateTime`` (a reply is ingested after the
   email it answers, whatever page it was on), their MIME is fetched from ``/me/messages/{id}/$value``
   — 20 at a time in one ``POST /$batch`` (``core.graph.batch``: one round trip instead of 20; a
   part throttled on its own is retried alone after its Retry-After) — and handed to
   ``pipeline.ingest_batch`` in batches, as ``RawMessage(source="graph", …)``. The listing asks
   each message's size; a big one (``core.graph.mime_stream``) is streamed alone to a file in the
   spool and handed over as its path, and an envelope carries at most ``BATCH_BYTES`` of MIME.
   Big mail is spooled within ``core.mail.spool_budget``'s round budget (the IMAP source's
   rule); past it the rest of the round, in order, is left for the next one (``deferred``).
5. Only after every batch is committed are the new delta links written to ``sync_cursors`` —
   with, in the same transaction, what the round left (``core.graph.mail_deferred``: a delta link
   cannot stop part-way, so those ids are kept in the store and planned first next round). A
   crash anywhere before that repeats the round; step 3 makes the repeat free of duplicates.

A 410 / ``SyncStateNotFound`` drops the cursor and starts a fresh (filtered) enumeration of that
folder in the same round; again step 3 keeps it clean.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sqlalchemy import select
from sqlalchemy.orm import Session

from core import tasks
from core.clock import Clock, naive_utc, utc
from core.db.models import Message, SyncCursor
from core.errors import GraphNotFound, SyncStateExpired
from core.graph import mail_deferred, mime_stream
from core.graph.batch import BATCH_MAX, SubRequest, SubResponse
from core.graph.client import GraphClient
from core.intake.identity import same_delivery
from core.intake.records import relink_source_id
from core.mail import spool as mail_spool
from core.mail.message_ids import normalise_message_id
from core.mail.ports import RemovalSink, recorded_here
from core.mail.source import RawMessage
from core.mail.spool_budget import DiskShort, RoundBudget

if TYPE_CHECKING:
    from core.config import Settings
    from core.db.store import Store

log = logging.getLogger(__name__)

# local folder name -> Graph well-known folder name
FOLDERS: dict[str, str] = {"inbox": "inbox", "sent": "sentitems"}
SELECT = (
    "id,internetMessageId,conversationId,receivedDateTime,isRead,subject,from,"
    "hasAttachments,categories,parentFolderId"
)
FILTER_CAP = 5000
# MIME (by listed size) in one $batch envelope: its JSON holds every part base64-encoded at once
BATCH_BYTES = mime_stream.STREAM_ABOVE
_CHUNK = 400  # ids per SQL IN (SQLite variable limits)


def cursor_name(folder: str) -> str:
    return f"graph:mail:{folder}"


@dataclass
class FolderListing:
    folder: str
    entries: list[dict[str, Any]] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    delta_link: str = ""
    requests: int = 0
    resynced: bool = False
    first_sync: bool = False


@dataclass
class MailRoundPlan:
    """What one round found, before anything is ingested or any cursor moves."""

    listings: list[FolderListing]
    new: list[dict[str, Any]]
    known: int
    id_changes: list[tuple[str, str]]  # (internetMessageId, new graph id)
    categories: dict[str, list[str]]  # graph id -> Outlook categories seen in the delta
    deferred: list[dict[str, Any]] = field(default_factory=list)  # left for the next round
    carried: int = 0  # entries an earlier round left, planned again in this one


@dataclass
class MailSyncReport:
    listed: int = 0
    new: int = 0
    known: int = 0
    removed: int = 0
    delta_requests: int = 0
    resynced: list[str] = field(default_factory=list)
    capped: list[str] = field(default_factory=list)
    vanished: int = 0  # listed, then gone before its MIME could be fetched
    deferred: int = 0  # left for the next round by the spool budget or a nearly full disk
    disk: DiskShort | None = None  # what the disk lacked when it was the reason

    def summary(self) -> str:
        parts = [
            f"new={self.new}",
            f"known={self.known}",
            f"removed={self.removed}",
            f"delta_requests={self.delta_requests}",
        ]
        if self.resynced:
            parts.append(f"resynced={','.join(self.resynced)}")
        if self.capped:
            parts.append(f"capped_at_{FILTER_CAP}={','.join(self.capped)}")
        if self.deferred:
            parts.append(f"deferred={self.deferred}")
        return " ".join(parts)


def _chunks(items: list[str], size: int = _CHUNK) -> Iterable[list[str]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _imid(entry: dict[str, Any]) -> str | None:
    """The entry's ``internetMessageId`` as the pipeline stores it (``core.mail.message_ids``)."""
    return normalise_message_id(entry.get("internetMessageId"))


def _received(entry: dict[str, Any]) -> datetime | None:
    value = entry.get("receivedDateTime")
    if not value:
        return None
    try:
        return utc(datetime.fromisoformat(str(value).replace("Z", "+00:00")))
    except ValueError:
        return None


class MailSync:
    """Delta sync of the watched mail folders into a ``RemovalSink``."""

    def __init__(
        self,
        client: GraphClient,
        sink: RemovalSink,
        store: Store,
        settings: Settings,
        clock: Clock,
        *,
        batch_size: int = BATCH_MAX,
        page_size: int = 50,
        spool: Path | None = None,
    ) -> None:
        self.client = client
        self.sink = sink
        self.store = store
        self.settings = settings
        self.clock = clock
        self.batch_size = max(1, batch_size)
        self.page_size = page_size
        self.spool = spool  # where big MIME is streamed to; None: everything through $batch
        self.downloaded: set[Path] = set()  # streamed files not yet deleted (see ``commit``)

    def folders(self) -> list[str]:
        return ["inbox", "sent"] if self.settings.flag("graph.sync_sent_items") else ["inbox"]

    # ------------------------------------------------------------------ listing
    @staticmethod
    def _load_cursor(session: Session, folder: str) -> str | None:
        row = session.get(SyncCursor, cursor_name(folder))
        return row.value if row and row.value else None

    def _initial_params(self) -> dict[str, str]:
        since = self.clock.now() - timedelta(days=self.settings.number("graph.first_sync_days"))
        return {
            "$select": SELECT,
            "$expand": mime_stream.SIZE_EXPAND,  # the size, so a big mail is streamed
            "$filter": f"receivedDateTime ge {utc(since).strftime('%Y-%m-%dT%H:%M:%SZ')}",
        }

    async def list_folder(self, folder: str) -> FolderListing:
        """Page through one folder's delta to its new deltaLink (metadata only)."""
        listing = FolderListing(folder)
        url = await self.store.read(lambda s: self._load_cursor(s, folder))  # not on the loop
        try:
            await self._page_through(listing, url)
        except SyncStateExpired:
            log.warning("mail delta for %s expired (410); starting a fresh sync", folder)
            listing = FolderListing(folder, resynced=True, requests=listing.requests)
            await self._page_through(listing, None)
        return listing

    async def _page_through(self, listing: FolderListing, url: str | None) -> None:
        params: dict[str, str] | None = None
        if url is None:
            listing.first_sync = True
            url = f"/me/mailFolders/{FOLDERS[listing.folder]}/messages/delta"
            params = self._initial_params()
        headers = {"Prefer": f"odata.maxpagesize={self.page_size}"}
        while url:
            listing.requests += 1
            page = await self.client.get_json(url, params=params, headers=headers)
            params = None  # next/delta links carry their own query
            for entry in page.get("value", []):
                if "@removed" in entry:
                    listing.removed.append(str(entry["id"]))
                else:
                    listing.entries.append(entry)
            next_link = page.get("@odata.nextLink")
            if next_link:
                url = next_link
                continue
            listing.delta_link = str(page.get("@odata.deltaLink") or "")
            url = None

    # ------------------------------------------------------------------ planning
    def _plan(self, listings: list[FolderListing]) -> MailRoundPlan:
        with self.store.session() as session:
            carried = mail_deferred.load(session, [lst.folder for lst in listings])
        # what the last round left first: the delta's fresh copy of an entry replaces it, and
        # one the delta reports removed is dropped (record_removed runs for it as for any)
        removed = {gid for lst in listings for gid in lst.removed}
        latest = {str(e["id"]): e for e in carried if str(e["id"]) not in removed}
        for listing in listings:
            for entry in listing.entries:
                latest[str(entry["id"])] = {**entry, "_folder": listing.folder}  # last wins
        ids = list(latest)
        imids = [m for m in (_imid(e) for e in latest.values()) if m]
        known_gids: set[str] = set()
        known_imids: dict[str, tuple[str | None, datetime | None]] = {}
        with self.store.session() as session:
            for chunk in _chunks(ids):
                known_gids.update(
                    session.scalars(select(Message.source_id).where(Message.source_id.in_(chunk)))
                )
            for chunk in _chunks(imids):
                for mid, gid, received in session.execute(
                    select(Message.message_id, Message.source_id, Message.received_at).where(
                        Message.message_id.in_(chunk)
                    )
                ):
                    known_imids[mid] = (gid, received)
        new: list[dict[str, Any]] = []
        id_changes: list[tuple[str, str]] = []
        seen_imids: set[tuple[str, str]] = set()
        known = 0
        for gid, entry in latest.items():
            imid = _imid(entry)
            # a Message-ID is trusted only with its delivery time: web forms reuse one id
            # (core.intake.identity); a different time is downloaded and told apart by content
            seen = (imid or "", str(entry.get("receivedDateTime") or ""))
            if gid in known_gids:
                known += 1
            elif (
                imid
                and imid in known_imids
                and same_delivery(known_imids[imid][1], _received(entry))
            ):
                known += 1
                if known_imids[imid][0] != gid:
                    id_changes.append((imid, gid))
            elif imid and seen in seen_imids:
                known += 1  # the same message listed twice in this round (e.g. sent to self)
            else:
                new.append(entry)
                if imid:
                    seen_imids.add(seen)
        new.sort(key=lambda e: (str(e.get("receivedDateTime") or ""), str(e["id"])))
        categories = {gid: list(e.get("categories") or []) for gid, e in latest.items()}
        return MailRoundPlan(listings, new, known, id_changes, categories, carried=len(carried))

    async def plan_round(self) -> MailRoundPlan:
        listings = await tasks.gather_or_cancel(*(self.list_folder(f) for f in self.folders()))
        return await tasks.io(self._plan, list(listings))

    # ------------------------------------------------------------------ fetching
    @staticmethod
    def _value_url(entry: dict[str, Any]) -> str:
        return f"/me/messages/{quote(str(entry['id']), safe='')}/$value"

    async def fetch_raw(self, entry: dict[str, Any]) -> RawMessage | None:
        """One message's MIME as a RawMessage; None if it vanished since it was listed."""
        try:
            raw = await self.client.get_bytes(self._value_url(entry))
        except GraphNotFound:
            return None
        return self._raw_message(entry, raw)

    def _raw_message(
        self, entry: dict[str, Any], raw: bytes, path: Path | None = None
    ) -> RawMessage:
        gid = str(entry["id"])
        return RawMessage(
            raw=raw,
            path=path,
            source="graph",
            source_ref=f"graph:{FOLDERS[entry['_folder']]}",
            source_id=gid,
            folder=entry["_folder"],
            conversation_id=entry.get("conversationId"),
            received_at=_received(entry),
            is_read=entry.get("isRead"),
        )

    def streams(self, entry: dict[str, Any]) -> bool:
        """Whether ``entry`` is fetched alone to a file rather than inside a ``$batch``."""
        return self.spool is not None and mime_stream.is_big(entry)

    def batches(self, entries: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
        """``entries`` in order, cut at ``batch_size`` and at ``BATCH_BYTES`` of ``$batch`` MIME;
        a streamed message is a batch of its own (at most two big files wait on disk: the one
        being ingested and the next one downloading)."""
        out: list[list[dict[str, Any]]] = []
        current: list[dict[str, Any]] = []
        weight = 0
        for entry in entries:
            if self.streams(entry):
                out += [current, [entry]] if current else [[entry]]
                current, weight = [], 0
                continue
            size = mime_stream.listed_size(entry) or 0
            if current and (len(current) >= self.batch_size or weight + size > BATCH_BYTES):
                out.append(current)
                current, weight = [], 0
            current.append(entry)
            weight += size
        if current:
            out.append(current)
        return out

    async def fetch_batch(self, entries: list[dict[str, Any]]) -> list[RawMessage]:
        """The MIME of ``entries`` via ``$batch`` (≤ 20 per envelope), in ``entries`` order.

        A big message is streamed to a file on its own (``core.graph.mime_stream``). A message
        deleted since it was listed (404) is skipped; any other failure raises its mapped error,
        like a single request would, so the round stops before its cursor moves — and the files
        already downloaded for this batch are deleted.
        """
        if not entries:
            return []
        small = [e for e in entries if not self.streams(e)]
        big = [e for e in entries if self.streams(e)]
        tasks = [asyncio.ensure_future(self._download(e)) for e in big]
        try:
            answers: list[SubResponse] = (
                await self.client.batch([SubRequest("GET", self._value_url(e)) for e in small])
                if small
                else []
            )
            files = dict(zip((id(e) for e in big), await asyncio.gather(*tasks), strict=True))
        except BaseException:
            for task in tasks:
                task.cancel()
            done = await asyncio.gather(*tasks, return_exceptions=True)
            self.discard_files([r for r in done if isinstance(r, RawMessage)])
            raise
        by_small = dict(zip((id(e) for e in small), answers, strict=True))
        raws: list[RawMessage] = []
        for entry in entries:
            if id(entry) in files:
                raw = files[id(entry)]
                if raw is not None:
                    raws.append(raw)
                continue
            answer = by_small[id(entry)]
            if isinstance(answer.error, GraphNotFound):
                continue
            if answer.error is not None:
                self.discard_files([r for r in files.values() if r is not None])
                raise answer.error
            raws.append(self._raw_message(entry, answer.content))
        return raws

    async def _download(self, entry: dict[str, Any]) -> RawMessage | None:
        """A big message streamed to the spool; None if it vanished since it was listed."""
        assert self.spool is not None
        try:
            path, digest = await mime_stream.download_mime(
                self.client, self._value_url(entry), self.spool
            )
        except GraphNotFound:
            return None
        self.downloaded.add(path)
        raw = self._raw_message(entry, b"", path)
        raw.__dict__["sha256"] = digest  # RawMessage.sha256's cache: the file is not read again
        return raw

    def discard_files(self, raws: list[RawMessage]) -> None:
        """Delete the spool files of streamed messages (``RawMessage.path``)."""
        paths = [raw.path for raw in raws if raw.path is not None]
        self.downloaded.difference_update(paths)
        mail_spool.discard(paths)

    # ------------------------------------------------------------------ the port
    def new_items(self, plan: MailRoundPlan) -> list[dict[str, Any]]:
        """``core.mail.ports.MessageSource``: the round's messages to download, oldest first."""
        return plan.new

    async def fetch(self, plan: MailRoundPlan, items: Sequence[dict[str, Any]]) -> list[RawMessage]:
        return await self.fetch_batch(list(items))

    # ------------------------------------------------------------------ committing
    def _commit(self, session: Session, plan: MailRoundPlan) -> None:
        now = naive_utc(self.clock.now())
        for imid, gid in plan.id_changes:
            relink_source_id(session, imid, gid, "graph")
        for chunk in _chunks(list(plan.categories)):
            for row in session.scalars(select(Message).where(Message.source_id.in_(chunk))):
                cats = plan.categories.get(row.source_id or "", [])
                if list(row.categories or []) != cats:
                    row.categories = cats
        mail_deferred.save(session, plan.deferred, now)  # with the links: none lost, none twice
        for listing in plan.listings:
            if not listing.delta_link:
                continue
            cursor = session.get(SyncCursor, cursor_name(listing.folder))
            if cursor is None:
                session.add(
                    SyncCursor(
                        name=cursor_name(listing.folder), value=listing.delta_link, updated_at=now
                    )
                )
            else:
                cursor.value = listing.delta_link
                cursor.updated_at = now

    async def commit(self, plan: MailRoundPlan) -> None:
        """Advance the cursors — call only once every message of ``plan`` is ingested. Files
        streamed for it (a port consumer such as ``GraphMessageSource``) are deleted now."""
        await self.store.run(lambda s: self._commit(s, plan))
        if self.downloaded:
            left, self.downloaded = list(self.downloaded), set()
            await tasks.io(mail_spool.discard, left)

    # ------------------------------------------------------------------ one round
    def _start(
        self,
        plan: MailRoundPlan,
        cuts: list[list[dict[str, Any]]],
        index: int,
        budget: RoundBudget | None,
        beside: list[dict[str, Any]],
    ) -> asyncio.Future[list[RawMessage]] | None:
        """Batch ``index``'s download, or None: the round ends there — every batch done, or a
        big mail over the round's spool budget (then it and the rest go to ``plan.deferred``).
        ``beside``: the batch still being ingested, whose big file has yet to be stored."""
        if index >= len(cuts):
            return None
        batch = cuts[index]
        if budget is not None and self.streams(batch[0]):
            storing = beside[0] if beside and self.streams(beside[0]) else {}
            size = mime_stream.listed_size(batch[0])
            if not budget.admit(size, beside=mime_stream.listed_size(storing) or 0):
                plan.deferred = [entry for cut in cuts[index:] for entry in cut]
                return None
        return asyncio.ensure_future(self.fetch_batch(batch))

    async def _ingest_all(self, plan: MailRoundPlan, report: MailSyncReport) -> None:
        """Fetch and ingest ``plan.new`` batch by batch, within the round's spool budget."""
        cuts = self.batches(plan.new)
        budget = RoundBudget(self.spool) if self.spool is not None else None
        # Download batch k+1 while the pipeline works on batch k (ingest order is unchanged).
        pending = self._start(plan, cuts, 0, budget, [])
        index = 0
        try:
            while pending is not None:
                raws = await pending
                batch = cuts[index]
                pending = self._start(plan, cuts, index + 1, budget, batch)
                report.vanished += len(batch) - len(raws)
                try:
                    if raws:
                        recorded = recorded_here(raws, await self.sink.ingest_batch(raws))
                        report.new += recorded  # what this process recorded, not fetched
                        report.known += len(raws) - recorded  # another process was first
                finally:  # a streamed mail's file: its raw copy is stored by now, or never
                    await tasks.io(self.discard_files, raws)
                index += 1
        finally:
            if pending is not None:
                if not pending.done():
                    pending.cancel()
                await asyncio.gather(pending, return_exceptions=True)
                if not pending.cancelled() and pending.exception() is None:
                    self.discard_files(pending.result())  # fetched for a round that stopped
        report.deferred = len(plan.deferred)
        report.disk = budget.short(len(plan.deferred)) if budget is not None else None

    async def run_once(self) -> MailSyncReport:
        plan = await self.plan_round()
        report = MailSyncReport(
            listed=sum(len(lst.entries) for lst in plan.listings),
            known=plan.known,
            delta_requests=sum(lst.requests for lst in plan.listings),
            resynced=[lst.folder for lst in plan.listings if lst.resynced],
            capped=[
                lst.folder
                for lst in plan.listings
                if lst.first_sync and len(lst.entries) >= FILTER_CAP
            ],
        )
        for listing in plan.listings:
            for gid in listing.removed:
                await self.sink.record_removed(gid)
                report.removed += 1
        if self.spool is not None:
            await tasks.io(
                mail_spool.sweep, self.spool, mime_stream.PREFIX, self.clock.now().timestamp()
            )
        await self._ingest_all(plan, report)
        await self.commit(plan)
        if report.capped:
            log.warning(
                "first mail sync hit Graph's %d-message cap for %s", FILTER_CAP, report.capped
            )
        return report


async def list_attachments(client: GraphClient, source_id: str) -> list[dict[str, Any]]:
    """Attachment metadata of a message (name, type, size, id) without the content."""
    data = await client.get_json(
        f"/me/messages/{quote(source_id, safe='')}/attachments",
        params={"$select": "id,name,contentType,size,isInline"},
    )
    return list(data.get("value", []))


async def fetch_attachment(
    client: GraphClient, source_id: str, attachment_id: str, *, max_mb: int
) -> bytes | None:
    """An attachment's bytes on demand; None when it is over ``intake.attachment_max_mb``."""
    for meta in await list_attachments(client, source_id):
        if meta.get("id") == attachment_id and int(meta.get("size") or 0) > max_mb * 1024 * 1024:
            return None
    return await client.get_bytes(
        f"/me/messages/{quote(source_id, safe='')}/attachments/{quote(attachment_id, safe='')}/$value"
    )
