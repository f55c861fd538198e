"""The other direction of the OneDrive ↔ stage link: a stage changed in the app moves the folder.

The owner's folders are organised by stage (docs/contracts.md), and the watcher turns a folder dragged in
OneDrive into a stage change. When the stage changes in the app instead (the owner on the board,
the assistant, a reminder's 流失 button, a confirmed appointment), the customer's folder follows:
it is moved into the stage folder that lists the new stage, that folder created first when the
owner has none, and a name already taken there resolved by Graph's ``conflictBehavior=rename``
(or, where a personal OneDrive ignores it, by our own `` (2)`` suffix) — never by overwriting.

Why the move is not read back as a new stage change: the move runs under the watcher's lock (never
between a delta listing and its commit) and writes the folder's new parent and name into the same
``drive_items`` rows the watcher compares, so the next delta round sees the folder where it
already is. The watcher's own guard (no change when the inquiry's stage is one of the target
folder's stages) is the second belt.

No move when the stage shares the folder (inquiry → measure), when no stage folder lists the stage
(``lost`` by default), or when the inquiry has no folder yet; each case is one log line.

What to move comes from the store, not from memory: ``change_stage`` queues an owed
``drive_move`` (``core.db.owed``) in the stage change's transaction, and ``move_owed`` claims
the queue, moves each folder and closes its row with what happened. An outage (offline, 5xx,
429, a lapsed sign-in, a write whose answer was lost) puts the row back for the next round;
any other refusal closes it as failed, with Graph's reason, in the audit.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import Clock, naive_utc
from core.db.models import DriveItem, Inquiry
from core.db.owed import DRIVE_MOVE, Claimed, claim, finish, retry_later
from core.drive.paths import Node, StageLayout, stage_layout
from core.errors import AmbiguousWriteError, GraphAuthError, GraphError, Throttled
from core.graph.client import GraphClient

if TYPE_CHECKING:
    from core.config import Settings
    from core.db.store import Store

log = logging.getLogger(__name__)

RENAME = {"@microsoft.graph.conflictBehavior": "rename"}
MAX_SUFFIX = 20


@dataclass(frozen=True)
class FolderMove:
    """What one move did: ``moved`` False with a ``why`` when nothing was sent."""

    inquiry_id: int
    moved: bool
    why: str = ""
    folder_id: str | None = None
    to_folder: str | None = None  # the stage folder's name
    name: str | None = None  # the customer folder's name after the move (a clash renames it)
    created_stage_folder: bool = False


def folder_for_stage(stage_folders: Mapping[str, list[str]], stage: str) -> str | None:
    """The configured stage folder name that lists ``stage`` (the first one), or None."""
    return next((name for name, stages in stage_folders.items() if stage in stages), None)


def _tree(session: Session) -> dict[str, Node]:
    return {
        r.id: Node(r.name, r.parent_id, r.is_folder, r.deleted)
        for r in session.scalars(select(DriveItem))
    }


@dataclass(frozen=True)
class _Plan:
    folder_id: str
    name: str
    stage: str
    target_name: str
    target_id: str | None  # None: the stage folder must be created under base_id
    base_id: str


class StageFolderMover:
    """Moves an inquiry's customer folder to the stage folder of its stage (see module doc)."""

    def __init__(self, client: GraphClient, store: Store, settings: Settings, clock: Clock) -> None:
        self.client = client
        self.store = store
        self.settings = settings
        self.clock = clock

    def _stage_folders(self) -> dict[str, list[str]]:
        return self.settings.string_lists("drive.stage_folders")

    def _plan(self, session: Session, inquiry_id: int) -> _Plan | str:
        inquiry = session.get(Inquiry, inquiry_id)
        if inquiry is None:
            return "no such inquiry"
        if not inquiry.drive_folder_id:
            return "the inquiry has no OneDrive folder"
        stage_folders = self._stage_folders()
        target_name = folder_for_stage(stage_folders, inquiry.stage)
        if target_name is None:
            return f"no stage folder lists {inquiry.stage!r}"
        tree = _tree(session)
        layout: StageLayout = stage_layout(tree, self.settings.text("drive.root"), stage_folders)
        if layout.base_id is None:
            return "the stage folders' parent is not in OneDrive"
        folder = tree.get(inquiry.drive_folder_id)
        if folder is None or folder.deleted:
            return "the customer folder is gone"
        current = layout.stage_folder_of(tree, inquiry.drive_folder_id)
        if current is None:
            return "the customer folder is not inside a stage folder"
        if layout.folders.get(current) == target_name:
            return f"already in {target_name}"
        target_id = next((i for i, n in layout.folders.items() if n == target_name), None)
        return _Plan(
            inquiry.drive_folder_id,
            folder.name,
            inquiry.stage,
            target_name,
            target_id,
            layout.base_id,
        )

    async def move(self, inquiry_id: int) -> FolderMove:
        """Move the folder of ``inquiry_id`` to its stage's folder (the caller holds the lock)."""
        plan = await self.store.read(lambda s: self._plan(s, inquiry_id))
        if isinstance(plan, str):
            log.info("OneDrive folder of inquiry %s not moved: %s", inquiry_id, plan)
            return FolderMove(inquiry_id, False, plan)
        created = False
        target_id = plan.target_id
        if target_id is None:
            target_id = await self._create_stage_folder(plan.base_id, plan.target_name)
            created = True
        item = await self._patch_move(plan.folder_id, plan.name, target_id)
        name = str(item.get("name") or plan.name)
        await self.store.run(lambda s: self._record(s, inquiry_id, plan, target_id, item))
        log.info(
            "OneDrive folder of inquiry %s moved to %s%s (stage %s)",
            inquiry_id,
            plan.target_name,
            f" as {name!r}" if name != plan.name else "",
            plan.stage,
        )
        return FolderMove(inquiry_id, True, "", plan.folder_id, plan.target_name, name, created)

    async def move_owed(self, *, drive_known: bool = True) -> list[FolderMove]:
        """Do the queued folder moves (each once: claimed, moved, closed). ``drive_known``
        False (OneDrive never listed yet): nothing can be planned, the rows wait."""
        if not drive_known:
            return []
        claimed = await self.store.run(lambda s: claim(s, DRIVE_MOVE, self.clock.now()))
        done: list[FolderMove] = []
        for owed in claimed:
            move = await self._move_one(owed)
            if move is not None:
                done.append(move)
        return done

    async def _move_one(self, owed: Claimed) -> FolderMove | None:
        if owed.inquiry_id is None:
            await self._close(owed, "no inquiry")
            return None
        try:
            move = await self.move(owed.inquiry_id)
        except (AmbiguousWriteError, GraphAuthError, Throttled) as exc:
            await self._later(owed, exc)
            return None
        except GraphError as exc:
            if exc.status is None or exc.status >= 500:
                await self._later(owed, exc)
            else:
                log.warning("could not move the folder of inquiry %s: %s", owed.inquiry_id, exc)
                await self._close(owed, f"Graph {exc.status}: {exc}", failed=True)
            return None
        await self._close(owed, f"moved to {move.to_folder}" if move.moved else move.why)
        return move

    async def _close(self, owed: Claimed, outcome: str, *, failed: bool = False) -> None:
        now = self.clock.now()
        await self.store.run(lambda s: finish(s, owed.id, outcome, now, failed=failed))

    async def _later(self, owed: Claimed, exc: Exception) -> None:
        log.warning(
            "moving the folder of inquiry %s waits for the next round: %s", owed.inquiry_id, exc
        )
        await self.store.run(lambda s: retry_later(s, owed.id, f"{type(exc).__name__}: {exc}"))

    async def _create_stage_folder(self, base_id: str, name: str) -> str:
        """Create the missing stage folder (a 409 means it appeared meanwhile: use that one)."""
        body = {"name": name, "folder": {}, "@microsoft.graph.conflictBehavior": "fail"}
        path = f"/me/drive/items/{quote(base_id, safe='')}/children"
        try:
            item = await self.client.post_json(path, body)
        except GraphError as exc:
            if exc.status != 409:
                raise
            children = await self.client.get_json(path)
            item = next((c for c in children.get("value", []) if str(c.get("name")) == name), {})
            if not item:
                raise
        folder_id = str(item["id"])
        now = naive_utc(self.clock.now())

        def _add(session: Session) -> None:
            if session.get(DriveItem, folder_id) is None:
                session.add(
                    DriveItem(
                        id=folder_id,
                        name=name,
                        parent_id=base_id,
                        is_folder=True,
                        updated_at=now,
                        web_url=item.get("webUrl"),
                    )
                )

        await self.store.run(_add)
        log.info("OneDrive stage folder %s created", name)
        return folder_id

    async def _patch_move(self, folder_id: str, name: str, target_id: str) -> dict[str, Any]:
        """PATCH the parent; a clash Graph did not rename gets our own `` (n)`` suffix."""
        path = f"/me/drive/items/{quote(folder_id, safe='')}"
        body: dict[str, Any] = {"parentReference": {"id": target_id}}
        for attempt in range(1, MAX_SUFFIX + 1):
            try:
                return await self.client.patch_json(path, body, params=RENAME)
            except AmbiguousWriteError:
                raise
            except GraphError as exc:
                if exc.status != 409:
                    raise
                body = {"parentReference": {"id": target_id}, "name": f"{name} ({attempt + 1})"}
        raise GraphError(f"no free name for {name!r} in the stage folder", status=409)

    def _record(
        self, session: Session, inquiry_id: int, plan: _Plan, target_id: str, item: dict[str, Any]
    ) -> None:
        """The watcher's rows now show the folder where it is (so the delta changes nothing)."""
        now = naive_utc(self.clock.now())
        row = session.get(DriveItem, plan.folder_id)
        name = str(item.get("name") or plan.name)
        if row is not None:
            row.parent_id = str((item.get("parentReference") or {}).get("id") or target_id)
            row.name = name
            row.etag = item.get("eTag", row.etag)
            row.web_url = item.get("webUrl", row.web_url)
            row.updated_at = now
        inquiry = session.get(Inquiry, inquiry_id)
        if inquiry is not None and inquiry.drive_folder_name != name:
            inquiry.drive_folder_name = name
