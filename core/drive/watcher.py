"""OneDrive watcher: drive delta → ``drive_items`` rows → stage changes of customers' inquiries.

The owner runs his pipeline in OneDrive folders (docs/contracts.md): one folder per customer inside a
stage folder (``未报价顾客/``, ``厂家已报价/``, ``已报价顾客/``, ``已确定并付定金顾客/`` by default,
configurable root and names). Dragging a customer folder to another stage folder *is* a stage
change; renaming it is not.

One round (``DriveWatcher.run_once``):
1. Page ``/me/drive/root/delta`` from the stored deltaLink (first time: a full enumeration). A 410
   carries a ``Location`` to restart from; the restart is a full enumeration, after which items it
   did not list are marked deleted.
2. Entries are applied by id, last one wins (an item can appear several times); a ``deleted`` facet
   marks the row deleted. Paths are rebuilt locally (``core.drive.paths``), because delta omits
   them and does not list the children of a moved folder.
3. For every folder in the round, the stage folder holding it *before* and *after* is compared. A
   move between two stage folders changes the linked inquiry's stage through ``change_stage``
   (audit ``triggered_by="onedrive"``) to the first stage of the target folder — unless the
   inquiry's stage is already one of that folder's stages (moving into 已确定并付定金顾客 while in
   ``production`` changes nothing).
4. Customer folders are linked to inquiries by the stored folder id, else by name/e-mail/phone
   (``match_folder``); the id is then stored on the inquiry so later renames keep the link.
5. Rows, stage changes and the new deltaLink commit in one transaction; events are published after.

The other direction (``core.drive.stage_move``): a stage changed in the app (not in OneDrive)
queued an owed move in the store with the change itself (``core.db.owed``), whichever process
made it; the folder is moved right away when this watcher saw the change published on its event
loop, else in the next round (before and after its listing: a first listing is what makes a move
plannable). Moves and rounds share one lock, so a move never lands between a delta listing and
its commit, and the mover writes the folder's new place into the rows this watcher compares: the
next round sees no move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import Clock, naive_utc
from core.db.models import CLOSED_STAGES, DriveItem, Inquiry, SyncCursor
from core.drive.paths import Candidate, Node, StageLayout, match_folder, stage_layout
from core.drive.stage_move import FolderMove, StageFolderMover
from core.errors import AmbiguousWriteError, GraphError, SyncStateExpired
from core.events import EventBus, InquiryCreated, InquiryUpdated, StageChanged
from core.graph.client import GraphClient
from core.inquiry.stages import STAGE_NAMES_ZH, StageChange, change_stage

if TYPE_CHECKING:
    from core.config import Settings
    from core.db.store import Store

log = logging.getLogger(__name__)

CURSOR = "graph:drive:root"
DELTA_START = "/me/drive/root/delta"


@dataclass
class DriveSyncReport:
    items: int = 0
    delta_requests: int = 0
    resynced: bool = False
    moved: int = 0
    renamed: int = 0
    deleted: int = 0
    matched: int = 0
    stage_changes: list[StageChange] = field(default_factory=list)
    folders_created: int = 0
    folders_moved: int = 0

    def summary(self) -> str:
        return (
            f"items={self.items} delta_requests={self.delta_requests} moved={self.moved} "
            f"renamed={self.renamed} deleted={self.deleted} matched={self.matched} "
            f"stage_changes={len(self.stage_changes)} folders_created={self.folders_created} "
            f"folders_moved={self.folders_moved}" + (" resynced" if self.resynced else "")
        )


def _tree(rows: dict[str, DriveItem]) -> dict[str, Node]:
    return {i: Node(r.name, r.parent_id, r.is_folder, r.deleted) for i, r in rows.items()}


def _parse_time(value: object) -> datetime | None:
    if not value:
        return None
    try:
        return naive_utc(datetime.fromisoformat(str(value).replace("Z", "+00:00")))
    except ValueError:
        return None


class DriveWatcher:
    """Keeps ``drive_items`` in step with OneDrive and turns folder moves into stage changes."""

    def __init__(
        self,
        client: GraphClient,
        store: Store,
        settings: Settings,
        bus: EventBus,
        clock: Clock,
        *,
        page_size: int = 200,
    ) -> None:
        self.client = client
        self.store = store
        self.settings = settings
        self.bus = bus
        self.clock = clock
        self.page_size = page_size
        self._want_folder: set[int] = set()
        self._unsubscribe: list[Callable[[], None]] = []
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[list[FolderMove]]] = set()
        self.mover = StageFolderMover(client, store, settings, clock)

    # ------------------------------------------------------------------ wiring
    @property
    def attached(self) -> bool:
        return bool(self._unsubscribe)

    def attach(self) -> None:
        """Subscribe to InquiryCreated (new inquiries get a folder, drive.create_customer_folders)
        and StageChanged (the folder follows a stage changed in the app)."""
        if not self._unsubscribe:
            self._unsubscribe = [
                self.bus.subscribe(InquiryCreated, self._on_created),
                self.bus.subscribe(StageChanged, self._on_stage_changed),
            ]

    def detach(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._unsubscribe = []

    def _on_created(self, event: InquiryCreated) -> None:
        self._want_folder.add(event.inquiry_id)

    def _on_stage_changed(self, event: StageChanged) -> None:
        """Move at once what the change queued, when it was published on the event loop (the
        queue row is committed before the event; without a loop the next round moves it)."""
        if event.triggered_by == "onedrive" or event.from_stage is None:
            return  # the folder already moved (or the inquiry is new: no folder to follow)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            log.info("inquiry %s: its OneDrive folder moves in the next round", event.inquiry_id)
            return
        task = loop.create_task(self.move_folders())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def move_folders(self) -> list[FolderMove]:
        """Do the owed folder moves queued in the store (under the round lock)."""
        async with self._lock:
            return await self._move_pending()

    async def _move_pending(self) -> list[FolderMove]:
        done = await self.mover.move_owed(drive_known=await self._cursor() is not None)
        for move in done:
            if move.moved:
                self.bus.publish(InquiryUpdated(move.inquiry_id, ("drive_folder_name",)))
        return done

    def _stage_folders(self) -> dict[str, list[str]]:
        return self.settings.string_lists("drive.stage_folders")

    # ------------------------------------------------------------------ listing
    async def _cursor(self) -> str | None:
        def look(session: Session) -> str | None:
            row = session.get(SyncCursor, CURSOR)
            return row.value if row and row.value else None

        return await self.store.read(look)

    async def _list(self, report: DriveSyncReport) -> tuple[list[dict[str, Any]], str, bool]:
        url = await self._cursor()
        full = url is None
        try:
            entries, link = await self._page_through(url or DELTA_START, report)
        except SyncStateExpired as exc:
            location = getattr(exc, "location", None)
            log.warning(
                "drive delta expired (410); resyncing from %s", "Location" if location else "start"
            )
            report.resynced = True
            full = True
            entries, link = await self._page_through(location or DELTA_START, report)
        return entries, link, full

    async def _page_through(
        self, url: str, report: DriveSyncReport
    ) -> tuple[list[dict[str, Any]], str]:
        entries: list[dict[str, Any]] = []
        headers = {"Prefer": f"odata.maxpagesize={self.page_size}"}
        next_url: str | None = url
        link = ""
        while next_url:
            report.delta_requests += 1
            page = await self.client.get_json(next_url, headers=headers)
            entries.extend(page.get("value", []))
            next_url = page.get("@odata.nextLink")
            if not next_url:
                link = str(page.get("@odata.deltaLink") or "")
        return entries, link

    # ------------------------------------------------------------------ applying
    def _apply(
        self, session: Session, entries: list[dict[str, Any]], link: str, full: bool
    ) -> tuple[DriveSyncReport, list[int]]:
        report = DriveSyncReport()
        now = naive_utc(self.clock.now())
        rows = {r.id: r for r in session.scalars(select(DriveItem))}
        before = _tree(rows)
        latest: dict[str, dict[str, Any]] = {}
        for entry in entries:
            latest[str(entry["id"])] = entry  # the same item can appear several times: last wins
        report.items = len(latest)
        for item_id, entry in latest.items():
            _apply_entry(session, rows, item_id, entry, now, report)
        if full:  # a fresh enumeration lists everything alive: anything else is gone
            for item_id, row in rows.items():
                if item_id not in latest and not row.deleted:
                    row.deleted = True
                    row.updated_at = now
                    report.deleted += 1
        folders = _FolderPass(self, session, rows, before, now, report)
        changed = folders.link(list(latest) if not full else list(rows))
        if link:
            cursor = session.get(SyncCursor, CURSOR)
            if cursor is None:
                session.add(SyncCursor(name=CURSOR, value=link, updated_at=now))
            else:
                cursor.value = link
                cursor.updated_at = now
        return report, changed

    def _candidates(self, session: Session) -> list[Candidate]:
        return [
            Candidate(
                inquiry_id=i.id,
                customer_name=i.customer_name,
                customer_email=i.customer_email,
                customer_phone=i.customer_phone,
                has_folder=bool(i.drive_folder_id),
                is_open=i.stage not in CLOSED_STAGES,
                updated_at=i.updated_at.isoformat() if i.updated_at else "",
            )
            for i in session.scalars(select(Inquiry).where(Inquiry.classification != "C"))
        ]

    # ------------------------------------------------------------------ one round
    async def run_once(self) -> DriveSyncReport:
        async with self._lock:
            moves = await self._move_pending()
            report = await self._round()
            moves += await self._move_pending()  # a first listing makes the queue plannable
        report.folders_moved = sum(1 for m in moves if m.moved)
        return report

    async def _round(self) -> DriveSyncReport:
        probe = DriveSyncReport()
        entries, link, full = await self._list(probe)
        report, changed = await self.store.run(lambda s: self._apply(s, entries, link, full))
        report.delta_requests = probe.delta_requests
        report.resynced = probe.resynced
        for change in report.stage_changes:
            self.bus.publish(change.event())
        for inquiry_id in changed:
            self.bus.publish(InquiryUpdated(inquiry_id, ("drive_folder_id", "drive_folder_name")))
        if self.settings.flag("drive.create_customer_folders") and self._want_folder:
            report.folders_created = await self.create_pending_folders()
        return report

    # ------------------------------------------------------------------ folders for new inquiries
    async def _layout_now(self) -> tuple[dict[str, Node], StageLayout]:
        tree = await self.store.read(
            lambda s: _tree({r.id: r for r in s.scalars(select(DriveItem))})
        )
        drive_root = self.settings.text("drive.root")
        return tree, stage_layout(tree, drive_root, self._stage_folders())

    async def create_pending_folders(self, limit: int = 20) -> int:
        """Create up to ``limit`` customer folders for inquiries created since the last round."""
        created = 0
        for inquiry_id in sorted(self._want_folder)[:limit]:
            self._want_folder.discard(inquiry_id)
            try:
                if await self.ensure_customer_folder(inquiry_id):
                    created += 1
            except AmbiguousWriteError:
                log.warning(
                    "folder creation for inquiry %s may have happened; next delta tells", inquiry_id
                )
            except GraphError as exc:
                log.warning("could not create a folder for inquiry %s: %s", inquiry_id, exc)
        return created

    async def ensure_customer_folder(self, inquiry_id: int) -> str | None:
        """The inquiry's folder id, creating ``<name> <suburb>`` in its stage folder if needed."""

        def look(session: Session) -> tuple[str | None, str, str] | None:
            """(its folder id, or None and the name and stage a new folder gets)"""
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is None or inquiry.classification == "C":
                return None
            if inquiry.drive_folder_id:
                return inquiry.drive_folder_id, "", ""
            return None, folder_name_for(inquiry), inquiry.stage

        found = await self.store.read(look)
        if found is None:
            return None
        if found[0]:
            return found[0]
        _, name, stage = found
        _, layout = await self._layout_now()
        if not layout.folders or not name:
            return None
        target = next(
            (
                fid
                for fid, fname in layout.folders.items()
                if stage in self._stage_folders().get(fname, [])
            ),
            next(iter(layout.folders)),
        )
        body = {"name": name, "folder": {}, "@microsoft.graph.conflictBehavior": "fail"}
        item: dict[str, Any] | None
        try:
            item = await self.client.post_json(
                f"/me/drive/items/{quote(target, safe='')}/children", body
            )
        except GraphError as exc:
            if exc.status != 409:
                raise
            children = await self.client.get_json(
                f"/me/drive/items/{quote(target, safe='')}/children"
            )
            item = next((c for c in children.get("value", []) if c.get("name") == name), None)
            if item is None:
                return None
        folder_id = str(item["id"])

        def _link(session: Session) -> None:
            now = naive_utc(self.clock.now())
            row = session.get(DriveItem, folder_id)
            if row is None:
                session.add(
                    DriveItem(
                        id=folder_id,
                        name=name,
                        parent_id=target,
                        is_folder=True,
                        inquiry_id=inquiry_id,
                        updated_at=now,
                        web_url=item.get("webUrl"),
                    )
                )
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is not None:
                inquiry.drive_folder_id = folder_id
                inquiry.drive_folder_name = name
                inquiry.updated_at = now

        await self.store.run(_link)
        self.bus.publish(InquiryUpdated(inquiry_id, ("drive_folder_id", "drive_folder_name")))
        return folder_id


def folder_name_for(inquiry: Inquiry) -> str:
    """``Amy Lee - Ryde`` style: readable in Explorer and found again by ``match_folder``."""
    who = (inquiry.customer_name or inquiry.customer_email or inquiry.customer_phone or "").strip()
    if not who:
        return ""
    name = f"{who} - {inquiry.suburb}" if inquiry.suburb else who
    bad = '\\/:*?"<>|#%'
    return "".join("_" if ch in bad else ch for ch in name).strip(" .")[:120]


def _with_folder(c: Candidate) -> Candidate:
    return Candidate(
        c.inquiry_id,
        c.customer_name,
        c.customer_email,
        c.customer_phone,
        True,
        c.is_open,
        c.updated_at,
    )


def _apply_entry(
    session: Session,
    rows: dict[str, DriveItem],
    item_id: str,
    entry: dict[str, Any],
    now: datetime,
    report: DriveSyncReport,
) -> None:
    """One delta entry onto its ``DriveItem`` row (created, moved, renamed or deleted)."""
    row = rows.get(item_id)
    parent = (entry.get("parentReference") or {}).get("id")
    if "root" in entry:
        parent = None
    if row is None:
        row = DriveItem(id=item_id, name=str(entry.get("name") or ""), updated_at=now)
        session.add(row)
        rows[item_id] = row
    elif "deleted" not in entry:
        if row.parent_id != parent and row.parent_id is not None:
            report.moved += 1
        elif row.name != entry.get("name"):
            report.renamed += 1
    if "deleted" in entry:
        if not row.deleted:
            report.deleted += 1
        row.deleted = True
        row.updated_at = now
        return
    row.name = str(entry.get("name") or row.name)
    row.parent_id = parent
    row.is_folder = "folder" in entry or "root" in entry or (row.is_folder and "file" not in entry)
    row.deleted = False
    row.size = int(entry.get("size") or 0)
    row.mime_type = (entry.get("file") or {}).get("mimeType")
    row.web_url = entry.get("webUrl")
    row.etag = entry.get("eTag")
    row.last_modified = _parse_time(entry.get("lastModifiedDateTime"))
    row.updated_at = now


class _FolderPass:
    """After the rows changed: customer folders linked to inquiries, stage-folder moves applied."""

    def __init__(
        self,
        watcher: DriveWatcher,
        session: Session,
        rows: dict[str, DriveItem],
        before: dict[str, Node],
        now: datetime,
        report: DriveSyncReport,
    ) -> None:
        self.watcher = watcher
        self.session = session
        self.rows = rows
        self.now = now
        self.report = report
        self.stage_folders = watcher._stage_folders()
        drive_root = watcher.settings.text("drive.root")
        self.before = before
        self.layout_before = stage_layout(before, drive_root, self.stage_folders)
        self.after = _tree(rows)
        self.layout_after = stage_layout(self.after, drive_root, self.stage_folders)
        self.candidates: list[Candidate] | None = None
        self.by_folder = {
            i.drive_folder_id: i
            for i in session.scalars(select(Inquiry).where(Inquiry.drive_folder_id.is_not(None)))
        }

    def link(self, item_ids: list[str]) -> list[int]:
        changed: list[int] = []
        for item_id in item_ids:
            row = self.rows[item_id]
            if row.deleted or not row.is_folder:
                continue
            new_stage_folder = self.layout_after.stage_folder_of(self.after, item_id)
            if new_stage_folder is None:
                continue  # not (or no longer) a customer folder
            inquiry = self._inquiry_of(item_id, row)
            if inquiry is None:
                continue
            if inquiry.drive_folder_id != item_id or inquiry.drive_folder_name != row.name:
                inquiry.drive_folder_id = item_id
                inquiry.drive_folder_name = row.name
                inquiry.updated_at = self.now
                changed.append(inquiry.id)
            row.inquiry_id = inquiry.id
            self.by_folder[item_id] = inquiry
            self._stage_move(item_id, row, inquiry, new_stage_folder)
        return changed

    def _inquiry_of(self, item_id: str, row: DriveItem) -> Inquiry | None:
        """The folder's inquiry: already linked, or matched by name to one without a folder."""
        inquiry = self.by_folder.get(item_id)
        if inquiry is None and row.inquiry_id is not None:
            inquiry = self.session.get(Inquiry, row.inquiry_id)
        if inquiry is not None:
            return inquiry
        if self.candidates is None:
            self.candidates = self.watcher._candidates(self.session)
        match = match_folder(row.name, [c for c in self.candidates if not c.has_folder])
        if match is None:
            return None
        self.candidates = [c if c.inquiry_id != match else _with_folder(c) for c in self.candidates]
        self.report.matched += 1
        return self.session.get(Inquiry, match)

    def _stage_move(
        self, item_id: str, row: DriveItem, inquiry: Inquiry, new_stage_folder: str
    ) -> None:
        old_stage_folder = self.layout_before.stage_folder_of(self.before, item_id)
        if old_stage_folder is None or old_stage_folder == new_stage_folder:
            return  # first sight, or a rename inside the same stage folder
        from_name = self.layout_before.folders.get(old_stage_folder, "")
        to_name = self.layout_after.folders[new_stage_folder]
        stages = [s for s in self.stage_folders.get(to_name, []) if s]
        if not stages or inquiry.stage in stages:
            return
        change = change_stage(
            self.session,
            inquiry,
            stages[0],
            reason=(
                f"OneDrive: 客户文件夹「{row.name}」从「{from_name}」移到「{to_name}」"
                f" → {STAGE_NAMES_ZH.get(stages[0], stages[0])}"
            ),
            triggered_by="onedrive",
            clock=self.watcher.clock,
        )
        if change is not None:
            self.report.stage_changes.append(change)
