"""OneDrive as the assistant may use it: a customer's files, one file's text, his folder.

Why a class of its own: the tools need Graph for OneDrive, and the Graph runtime also holds the
mailer. ``CustomerDrive`` holds only the data folder's services and the Graph client it is lent
for the length of one call (``App.customer_drive``: the runtime's), so nothing reachable from a ``ToolContext`` can send mail, write the
calendar or approve a draft — the rule holds because those methods are not there.

Listing is offline (``drive_items``, kept by the watcher); reading downloads through
``core.drive.files`` and its extractors (text, CSV, PDF, Excel); a folder is made by the
watcher's own ``ensure_customer_folder`` so its name and place match what sync expects.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from core import tasks
from core.clock import naive_utc
from core.db.models import Inquiry
from core.drafts.attachments import copy_owner_file, owner_file_row
from core.drive.files import CustomerFile, download, list_customer_files, read_text
from core.drive.watcher import DriveWatcher
from core.errors import NotFound, NotSignedIn
from core.graph.calendar import CalendarReader
from core.graph.client import GraphClient
from core.rhythm.outlook import has_account

if TYPE_CHECKING:
    from core.services import Services

READ_CHARS = 6_000  # what one file may put in front of the model (a session budgets 32,000)


def _not_lent(services: Services) -> GraphClient:
    """The factory of a drive built without the ``App``'s Graph client: OneDrive is not
    reachable from there (a test's bare context), said the way the tools word it."""
    raise NotSignedIn("ONEDRIVE_NOT_CONNECTED: no Graph client was handed to this drive")


def signed_in(services: Services) -> None:
    """``NotSignedIn`` (which the tools word for the owner) when no Microsoft account is set."""
    if not has_account(services):
        raise NotSignedIn("ONEDRIVE_NOT_CONNECTED: no Microsoft account is signed in")


class CustomerDrive:
    """List, read, fetch and create customers' OneDrive items — nothing else."""

    def __init__(
        self,
        services: Services,
        client_factory: Callable[[Services], GraphClient] = _not_lent,
        *,
        shared: bool = False,
    ) -> None:
        """``client_factory``: the Graph client for one call, handed down by the composition
        root (``App.customer_drive``: its runtime's one client, ``shared``); without it OneDrive
        answers "not connected". ``shared``: the factory hands out a client someone else owns (the App's Graph
        runtime's one client, with its per-mailbox request limit), so it is not closed here."""
        self._services = services
        self._client_factory = client_factory
        self._shared = shared

    def _client(self) -> GraphClient:
        """The Graph client for one call; ``NotSignedIn`` first when no account is set up,
        whatever the factory (so every drive words a missing sign-in the same way)."""
        signed_in(self._services)
        return self._client_factory(self._services)

    @contextlib.asynccontextmanager
    async def calendar(self) -> AsyncIterator[CalendarReader | None]:
        """His Outlook calendar, read only, over the lent client (None: no Microsoft account,
        or no client lent) -- what a proposed visit time is checked against."""
        if not has_account(self._services):
            yield None
            return
        try:
            client = self._client_factory(self._services)
        except NotSignedIn:
            yield None
            return
        try:
            yield CalendarReader(client)
        finally:
            await self._release(client)

    async def _release(self, client: GraphClient) -> None:
        if not self._shared:
            await client.aclose()

    async def files(self, inquiry_id: int) -> list[CustomerFile]:
        """Every file below the inquiry's linked folder (offline, from the last sync)."""
        return await tasks.io(list_customer_files, self._services.store, inquiry_id)

    async def folder_of(self, inquiry_id: int) -> tuple[str | None, str | None]:
        """(folder id, folder name) linked to the inquiry; NotFound for an unknown inquiry."""

        def look(session: Session) -> tuple[str | None, str | None]:
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is None:
                raise NotFound(f"no inquiry {inquiry_id}")
            return inquiry.drive_folder_id, inquiry.drive_folder_name

        found: tuple[str | None, str | None] = await self._services.store.read(look)
        return found

    async def file(self, inquiry_id: int, item_id: str) -> CustomerFile:
        for found in await self.files(inquiry_id):
            if found.item_id == item_id or found.path == item_id or found.name == item_id:
                return found
        raise NotFound(f"no file {item_id!r} in the OneDrive folder of inquiry {inquiry_id}")

    async def _download(self, found: CustomerFile) -> Path:
        client = self._client()
        try:
            folder = self._services.paths.cache / "drive" / found.item_id.replace("/", "_")
            return await download(client, found.item_id, folder, name=found.name)
        finally:
            await self._release(client)

    async def read(self, inquiry_id: int, item_id: str) -> tuple[CustomerFile, str]:
        """The file and its text ('' when its format has no text extractor)."""
        found = await self.file(inquiry_id, item_id)
        path = await self._download(found)
        text = await read_text(path, max_chars=READ_CHARS + 1)
        if len(text) > READ_CHARS:
            text = text[:READ_CHARS] + "… [truncated: the file is longer]"
        return found, text

    async def attach(self, inquiry_id: int, item_id: str, now: datetime) -> int:
        """Download a customer file and make it one of the inquiry's attachable files (its
        ``Attachment`` id), so a draft can carry it through the usual approval."""
        found = await self.file(inquiry_id, item_id)
        path = await self._download(found)
        copied = await tasks.io(copy_owner_file, self._services.paths, path)

        def do(session: Session) -> int:
            row = owner_file_row(session, inquiry_id, copied, naive_utc(now))
            row.added_by = "onedrive"
            return row.id

        result: int = await self._services.store.run(do)
        return result

    async def ensure_folder(self, inquiry_id: int) -> tuple[str | None, bool]:
        """(folder id, created now) — None when no stage folder is known or the inquiry is
        not a customer (class C, no name)."""
        before, _name = await self.folder_of(inquiry_id)
        if before:
            return before, False
        services = self._services
        client = self._client()
        try:
            watcher = DriveWatcher(
                client, services.store, services.settings, services.bus, services.clock
            )
            folder = await watcher.ensure_customer_folder(inquiry_id)
        finally:
            await self._release(client)
        return folder, folder is not None
