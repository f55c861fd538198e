"""An IMAP mailbox as a ``MessageSource``: INBOX and Sent by UID, nothing lost or doubled.

One round (``ImapSync.run_once``), over one connection, folder by folder:

1. ``EXAMINE`` the folder (read-only: nothing we do can clear ``\\Recent`` or set ``\\Seen``)
   and read its ``UIDVALIDITY``. The cursor (``sync_cursors`` row ``imap:mail:<folder>``) holds
   ``{"uidvalidity": V, "uid": U}``. A different V means every UID was renumbered: the folder
   is listed from the start again (``resynced``).
2. List the UIDs after U — or, the first time, those that arrived in the last
   ``graph.first_sync_days`` days (``UID SEARCH SINCE``) — with their ``INTERNALDATE`` and
   ``Message-ID`` header only (``BODY.PEEK``: reading never marks mail read).
3. A message whose Message-ID is stored with the same delivery time is known and not downloaded
   (``core.intake.identity``: an id is trusted only with its delivery, and the pipeline tells
   apart a reused id by a content fingerprint). After a UIDVALIDITY change this is what keeps
   the resync free of duplicates; the new UID is written onto the stored row.
4. The rest are fetched (``BODY.PEEK[]``) in batches, oldest first over both folders, and handed
   to the pipeline as ``RawMessage(source="imap", source_id="imap:<folder>:<V>:<uid>")``. The
   listing reads ``RFC822.SIZE``: a message over 16 MB is fetched in partial pieces to a file in
   the spool (``core.mailbox.imap_big``) and handed over as its path, alone in its batch; such a
   file lives until the next batch is fetched or the round ends. Past the round's spool budget
   (``core.mail.spool_budget``: spooled bytes, or no room on the disk for the next big mail) the
   rest of the round (big or not, to keep the order) is left for the next round (``deferred``;
   ``disk`` says what a nearly full disk needs, for the owner's alert).
5. Only after every batch is committed do the cursors move (to the highest UID listed, or to
   just before the lowest UID a folder left for the next round). A crash or a dropped
   connection before that repeats the round; step 3 makes the repeat free.
"""

from __future__ import annotations

import email.utils
import json
import logging
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import select
from sqlalchemy.orm import Session

from core import tasks
from core.clock import Clock, naive_utc, utc
from core.db.models import Message, SyncCursor
from core.errors import MailServerMisbehaves
from core.intake.identity import same_delivery
from core.intake.records import relink_source_id
from core.mail import spool as mail_spool
from core.mail.message_ids import normalise_message_id
from core.mail.ports import IntakeSink, run_round
from core.mail.source import RawMessage
from core.mail.spool_budget import DiskShort, RoundBudget
from core.mailbox import imap_big
from core.mailbox.folders import Folder, find_sent, inbox, list_folders
from core.mailbox.imap_session import MB, ImapSession

if TYPE_CHECKING:
    from core.config import Settings
    from core.db.store import Store

log = logging.getLogger(__name__)

LIST_CHUNK = 200  # UIDs per listing FETCH
BATCH_BYTES = 32 * MB  # a batch fetched whole stays under this (by the listed sizes)
_UID = re.compile(rb"UID (\d+)")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_DATE = re.compile(rb'INTERNALDATE "([^"]+)"')


def _number(values: list[bytes]) -> int | None:
    return int(values[0]) if values and values[0].strip().isdigit() else None


def selected_mark(imap: ImapSession) -> tuple[int | None, int | None]:
    """(UIDVALIDITY, UIDNEXT) the last SELECT/EXAMINE reported; either None when the server
    left it out (RFC 3501 requires both; a few servers still omit them)."""
    return _number(imap.response("UIDVALIDITY")), _number(imap.response("UIDNEXT"))


def cursor_name(folder: str) -> str:
    return f"imap:mail:{folder}"


def source_id(folder: str, uidvalidity: int, uid: int) -> str:
    return f"imap:{folder}:{uidvalidity}:{uid}"


@dataclass
class Listed:
    """One message as listed (no body yet)."""

    folder: str  # inbox | sent
    uid: int
    received_at: datetime | None
    message_id: str | None
    uidvalidity: int
    size: int | None = None  # RFC822.SIZE

    @property
    def source_id(self) -> str:
        return source_id(self.folder, self.uidvalidity, self.uid)


@dataclass
class FolderState:
    folder: str  # inbox | sent
    box: Folder
    uidvalidity: int
    last_uid: int
    listed: list[Listed] = field(default_factory=list)
    resynced: bool = False
    first_sync: bool = False

    @property
    def high_uid(self) -> int:
        return max([self.last_uid, *(m.uid for m in self.listed)])


@dataclass
class ImapSyncReport:
    listed: int = 0
    new: int = 0
    known: int = 0
    vanished: int = 0
    resynced: list[str] = field(default_factory=list)
    keywords: int = 0  # messages whose class/stage keywords were written back
    deferred: int = 0  # left for the next round by the spool budget or a nearly full disk
    disk: DiskShort | None = None  # what the disk lacked when it was the reason
    refused: int = 0  # messages the server sent beyond the caps (skipped, see ImapRound)

    def summary(self) -> str:
        parts = [f"new={self.new}", f"known={self.known}", f"listed={self.listed}"]
        if self.resynced:
            parts.append(f"resynced={','.join(self.resynced)}")
        if self.vanished:
            parts.append(f"vanished={self.vanished}")
        if self.deferred:
            parts.append(f"deferred={self.deferred}")
        if self.keywords:
            parts.append(f"keywords={self.keywords}")
        if self.refused:
            parts.append(f"refused={self.refused}")
        return " ".join(parts)


def _internaldate(meta: bytes) -> datetime | None:
    match = _DATE.search(meta)
    if match is None:
        return None
    try:
        return utc(email.utils.parsedate_to_datetime(match.group(1).decode()))
    except (TypeError, ValueError):
        return None


def _header_message_id(block: bytes) -> str | None:
    text = block.decode("latin-1")
    match = re.search(r"^message-id:\s*(.+?)\s*$", text, re.IGNORECASE | re.MULTILINE)
    return normalise_message_id(match.group(1)) if match else None


def _fetched(data: list[object]) -> list[tuple[bytes, bytes]]:
    """imaplib's FETCH answer → [(meta line, literal)] (strings between them dropped)."""
    return [(item[0], item[1]) for item in data if isinstance(item, tuple) and len(item) >= 2]


def _uid_set(uids: list[int]) -> str:
    return ",".join(str(u) for u in uids)


class ImapSync:
    """UID-incremental sync of INBOX and Sent into an ``IntakeSink``.

    ``connect`` opens a logged-in ``ImapSession`` (blocking; run in a worker thread here).
    """

    def __init__(
        self,
        connect: Callable[[], ImapSession],
        sink: IntakeSink,
        store: Store,
        settings: Settings,
        clock: Clock,
        *,
        batch_size: int = 20,
        spool: Path | None = None,
    ) -> None:
        self.connect = connect
        self.sink = sink
        self.store = store
        self.settings = settings
        self.clock = clock
        self.batch_size = max(1, batch_size)
        self._open: list[ImapSession] = []  # connections of rounds in progress
        self.spool = spool  # where big messages are fetched to; None: all in memory
        self.downloaded: list[Path] = []  # files of the last fetch (deleted by the next one)
        # INBOX's (UIDVALIDITY, UIDNEXT) when the last round listed it: mail that lands after
        # the listing and before the watch's IDLE begins is seen by comparing, not missed
        self.inbox_mark: tuple[int, int] | None = None

    def folders(self) -> list[str]:
        return ["inbox", "sent"] if self.settings.flag("graph.sync_sent_items") else ["inbox"]

    # ------------------------------------------------------------------ cursors
    def _load_cursors(self, session: Session) -> dict[str, tuple[int, int]]:
        out = {}
        for folder in ("inbox", "sent"):
            row = session.get(SyncCursor, cursor_name(folder))
            if row is not None and row.value:
                try:
                    value = json.loads(row.value)
                    out[folder] = (int(value["uidvalidity"]), int(value["uid"]))
                except (ValueError, KeyError, TypeError):
                    log.warning("unreadable IMAP cursor for %s; listing it again", folder)
        return out

    def _commit(
        self,
        session: Session,
        states: list[FolderState],
        relinks: list[Listed],
        deferred: Sequence[Listed] = (),
    ) -> None:
        now = naive_utc(self.clock.now())
        for listed in relinks:
            if listed.message_id:
                relink_source_id(session, listed.message_id, listed.source_id, "imap")
        for state in states:
            left = [m.uid for m in deferred if m.folder == state.folder]
            # not past what waits for the next round (UIDs above it taken now are then known)
            uid = max(state.last_uid, min(left) - 1) if left else state.high_uid
            value = json.dumps({"uidvalidity": state.uidvalidity, "uid": uid})
            cursor = session.get(SyncCursor, cursor_name(state.folder))
            if cursor is None:
                session.add(SyncCursor(name=cursor_name(state.folder), value=value, updated_at=now))
            else:
                cursor.value = value
                cursor.updated_at = now

    # ------------------------------------------------------------------ listing (blocking)
    def _boxes(self, imap: ImapSession) -> dict[str, Folder]:
        boxes = {"inbox": inbox()}
        if "sent" in self.folders():
            sent = find_sent(list_folders(imap))
            if sent is None:
                log.warning("no Sent folder found on %s; only INBOX is read", imap.endpoint.host)
            else:
                boxes["sent"] = sent
        return boxes

    def _list_folder(
        self, imap: ImapSession, folder: str, box: Folder, cursor: tuple[int, int] | None
    ) -> FolderState:
        imap.call("select", box.quoted, True)  # EXAMINE
        valid, uidnext = selected_mark(imap)
        if valid is None:
            # RFC 3501 2.3.1.1: without UIDVALIDITY no UID may be kept past this session. The
            # folder is listed as on a first sync every round (the recent days), and what is
            # stored already is known by its Message-ID and delivery time, not by its UID.
            log.warning("%s: the server gave no UIDVALIDITY; listing it afresh", box.name)
            cursor = None
        uidvalidity = valid or 0
        if folder == "inbox":
            self.inbox_mark = (uidvalidity, uidnext) if uidnext and valid else None
        state = FolderState(folder, box, uidvalidity, 0)
        if cursor is None:
            state.first_sync = True
            days = self.settings.number("graph.first_sync_days")
            since = (self.clock.now() - timedelta(days=days)).strftime("%d-%b-%Y")
            found = imap.call("uid", "SEARCH", "SINCE", since)
        else:
            if cursor[0] == uidvalidity:
                state.last_uid = cursor[1]
            else:
                state.resynced = True
                log.warning("UIDVALIDITY of %s changed; listing it again", box.name)
            found = imap.call("uid", "SEARCH", "UID", f"{state.last_uid + 1}:*")
        uids = sorted(int(u) for x in found if isinstance(x, bytes) for u in x.split())
        uids = [u for u in uids if u > state.last_uid]  # "n:*" always names the highest UID
        for start in range(0, len(uids), LIST_CHUNK):
            chunk = uids[start : start + LIST_CHUNK]
            data = imap.call(
                "uid",
                "FETCH",
                _uid_set(chunk),
                "(UID INTERNALDATE RFC822.SIZE BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])",
            )
            for meta, block in _fetched(data):
                uid = _UID.search(meta)
                if uid is None:
                    continue
                state.listed.append(
                    Listed(
                        folder,
                        int(uid.group(1)),
                        _internaldate(meta),
                        _header_message_id(block),
                        uidvalidity,
                        imap_big.listed_size(meta),
                    )
                )
        return state

    def _list_all(
        self, imap: ImapSession, cursors: dict[str, tuple[int, int]]
    ) -> list[FolderState]:
        return [
            self._list_folder(imap, folder, box, cursors.get(folder))
            for folder, box in self._boxes(imap).items()
        ]

    def _fetch(
        self, imap: ImapSession, state: FolderState, items: list[Listed]
    ) -> list[RawMessage]:
        imap.call("select", state.box.quoted, True)
        raws: dict[int, RawMessage] = {}
        big = [m for m in items if self.big(m)]
        for m in big:
            assert self.spool is not None
            got = imap_big.download(imap, m.uid, self.spool)
            if got is not None:
                self.downloaded.append(got[0])
                raws[m.uid] = self._raw(state, m, b"", got[0])
                raws[m.uid].__dict__["sha256"] = got[1]  # RawMessage.sha256's cache
        by_uid = {m.uid: m for m in items if m not in big}
        data = (
            imap.call("uid", "FETCH", _uid_set(sorted(by_uid)), "(UID BODY.PEEK[])")
            if by_uid
            else []
        )
        for meta, body in _fetched(data):
            uid = _UID.search(meta)
            if uid is None or int(uid.group(1)) not in by_uid:
                continue
            m = by_uid[int(uid.group(1))]
            raws[m.uid] = self._raw(state, m, bytes(body))
        return [raws[m.uid] for m in items if m.uid in raws]

    @staticmethod
    def _raw(state: FolderState, m: Listed, raw: bytes, path: Path | None = None) -> RawMessage:
        return RawMessage(
            raw=raw,
            path=path,
            source="imap",
            source_ref=f"imap:{state.box.name}",
            source_id=m.source_id,
            folder=state.folder,
            received_at=m.received_at,
        )

    def _discard(self) -> None:
        left, self.downloaded = self.downloaded, []
        mail_spool.discard(left)

    # ------------------------------------------------------------------ planning
    def _plan(
        self, session: Session, states: list[FolderState]
    ) -> tuple[list[Listed], list[Listed], int]:
        """(new, relinks, known): known by source id, or by Message-ID with the same delivery."""
        listed = [m for st in states for m in st.listed]
        ids = [m.source_id for m in listed]
        mids = [m.message_id for m in listed if m.message_id]
        known_ids: set[str] = set()
        known_mids: dict[str, datetime | None] = {}
        for start in range(0, len(ids), 400):
            chunk = ids[start : start + 400]
            known_ids.update(
                s
                for s in session.scalars(
                    select(Message.source_id).where(Message.source_id.in_(chunk))
                )
                if s
            )
        for start in range(0, len(mids), 400):
            rows = session.execute(
                select(Message.message_id, Message.received_at).where(
                    Message.message_id.in_(mids[start : start + 400])
                )
            )
            known_mids.update({mid: at for mid, at in rows})
        new, relinks, known, seen = [], [], 0, set()
        for m in listed:
            key = (m.message_id or "", m.received_at)
            if m.source_id in known_ids:
                known += 1
            elif (
                m.message_id
                and m.message_id in known_mids
                and same_delivery(known_mids[m.message_id], m.received_at)
            ):
                known += 1
                relinks.append(m)
            elif m.message_id and key in seen:
                known += 1  # the same message in INBOX and Sent (mail to oneself)
            else:
                new.append(m)
                if m.message_id:
                    seen.add(key)
        new.sort(key=lambda m: (m.received_at or _EPOCH, m.folder, m.uid))
        return new, relinks, known

    # ------------------------------------------------------------------ the port
    async def plan_round(self) -> ImapRound:
        """List INBOX and Sent since the cursors over one connection (kept for the round)."""
        cursors = await self.store.read(self._load_cursors)
        imap = await tasks.io(self.connect)
        due = imap.start_round()  # the round's bytes and deadline (``ImapLimits``)
        try:
            states = await tasks.io(self._list_all, imap, cursors)
            new, relinks, known = await self.store.read(lambda s: self._plan(s, states))
        except BaseException:
            await tasks.io(imap.close)
            raise
        self._open.append(imap)  # closed by run_once (or the caller) after commit
        budget = RoundBudget(self.spool) if self.spool is not None else None
        return ImapRound(imap, states, new, relinks, known, budget=budget, due=due)

    def new_items(self, plan: ImapRound) -> list[Listed]:
        return plan.new

    def big(self, m: Listed) -> bool:
        """Whether ``m`` is fetched in pieces to the spool rather than in memory."""
        return self.spool is not None and imap_big.is_big(m.size)

    def batches(self, plan: ImapRound, items: list[Listed]) -> Iterator[list[Listed]]:
        """``items`` in order, ``batch_size`` at a time, a big one alone (one big file on disk at
        a time). Lazy: ``run_round`` asks for a batch once the last one is ingested, so the spool
        budget and the free disk are judged then; past them the rest goes to ``plan.deferred``."""
        current: list[Listed] = []
        for index, m in enumerate(items):
            if not self.big(m):
                if current and sum(x.size or 0 for x in current) + (m.size or 0) > BATCH_BYTES:
                    yield current  # one FETCH brings at most BATCH_BYTES of honest sizes
                    current = []
                current.append(m)
                if len(current) >= self.batch_size:
                    yield current
                    current = []
                continue
            if current:
                yield current
                current = []
            assert plan.budget is not None  # a big one means a spool, so a budget
            if not plan.budget.admit(m.size):
                plan.deferred = items[index:]
                return
            yield [m]
        if current:
            yield current

    async def fetch(self, plan: ImapRound, items: Sequence[Listed]) -> list[RawMessage]:
        """The bytes of ``items`` (``BODY.PEEK[]``), in ``items`` order; a message expunged
        since it was listed is left out."""
        # run_round ingests each batch before it fetches the next: the last files are done with
        await tasks.io(self._discard)
        by_folder = {st.folder: st for st in plan.states}
        raws: list[RawMessage] = []
        for folder in ("inbox", "sent"):
            part = [m for m in items if m.folder == folder]
            if part:
                raws += await self._fetch_bounded(plan, by_folder[folder], part)
        order = {m.source_id: i for i, m in enumerate(items)}
        raws.sort(key=lambda r: order[r.source_id or ""])
        return raws

    async def _fetch_bounded(
        self, plan: ImapRound, state: FolderState, part: list[Listed]
    ) -> list[RawMessage]:
        """``_fetch``, skipping a message whose data passes the caps (a server that states
        1 KB and sends 1.2 GB): the connection is dropped, the batch is fetched again one by
        one over a new one, and the message that trips the cap alone is left out
        (``plan.refused``; the cursor moves past it). Other misbehaviour ends the round."""
        pending, raws = [part], []
        while pending:
            chunk = pending.pop(0)
            try:
                raws += await tasks.io(self._fetch, plan.imap, state, chunk)
            except MailServerMisbehaves as exc:
                if not exc.literal:
                    raise
                await self._reconnect(plan)
                bad = [m for m in chunk if m.uid == exc.uid] or (chunk if len(chunk) == 1 else [])
                if not bad:
                    pending[:0] = [[m] for m in chunk]
                    continue
                log.warning("%s: message UID %s skipped: %s", state.box.name, bad[0].uid, exc)
                plan.refused.append(bad[0])
                rest = [m for m in chunk if m is not bad[0]]
                if rest:
                    pending.insert(0, rest)
        order = {m.uid: i for i, m in enumerate(part)}
        return sorted(raws, key=lambda r: order.get(_uid_of(r), 0))

    async def _reconnect(self, plan: ImapRound) -> None:
        """A new connection for the rest of the round (the old one may still be sending)."""
        old = plan.imap
        if old in self._open:
            self._open.remove(old)
        await tasks.io(old.close)
        plan.imap = await tasks.io(self.connect)
        self._open.append(plan.imap)
        plan.imap.start_round(plan.due)

    async def commit(self, plan: ImapRound) -> None:
        """Relink renumbered messages and move the cursors (after everything is ingested)."""
        await self.store.run(lambda s: self._commit(s, plan.states, plan.relinks, plan.deferred))

    # ------------------------------------------------------------------ one round
    async def run_once(self) -> ImapSyncReport:
        """``run_round`` over this source, the round's connection closed whatever happens."""
        if self.spool is not None:
            spool, now = self.spool, self.clock.now().timestamp()
            await tasks.io(mail_spool.sweep, spool, imap_big.PREFIX, now)
        try:
            plan, ingested, raced, vanished = await run_round(
                self, self.sink, batch_size=self.batch_size, batches=self.batches
            )
        finally:
            await tasks.io(self._discard)
            while self._open:
                await tasks.io(self._open.pop().close)
        return ImapSyncReport(
            listed=sum(len(st.listed) for st in plan.states),
            new=ingested,
            known=plan.known + raced,
            vanished=vanished - len(plan.refused),  # a refused one was not expunged
            resynced=[st.folder for st in plan.states if st.resynced],
            deferred=len(plan.deferred),
            disk=plan.budget.short(len(plan.deferred)) if plan.budget else None,
            refused=len(plan.refused),
        )


@dataclass
class ImapRound:
    """One round's plan: the open connection, what each folder listed, what is new."""

    imap: ImapSession
    states: list[FolderState]
    new: list[Listed]
    relinks: list[Listed]
    known: int
    deferred: list[Listed] = field(default_factory=list)  # left for the next round (disk)
    budget: RoundBudget | None = None  # big mail this round may spool (None: no spool)
    due: float | None = None  # the round's deadline (``time.monotonic()``), kept on reconnect
    refused: list[Listed] = field(default_factory=list)  # over the caps: skipped for good


def _uid_of(raw: RawMessage) -> int:
    return int((raw.source_id or "0").rpartition(":")[2] or 0)
