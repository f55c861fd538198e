"""A customer's OneDrive files: list, download, open, and read as text for the assistant.

Listing works offline from ``drive_items`` (the watcher keeps them current); downloads go through
``/me/drive/items/{id}/content`` (a redirect to a pre-authenticated URL, which httpx follows
without our bearer token because it is another origin). Text extraction (``core.drive.extract``) uses one
maintained library per format — pypdf for PDF, openpyxl for Excel — in a worker process, within
time, memory and row limits, and caps the size handed to the model.
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from sqlalchemy import select

from core.db.models import DriveItem, Inquiry
from core.drive.paths import Node, path_of
from core.errors import InquiryBridgeError
from core.graph.client import GraphClient
from core.tempfiles import partial_file

if TYPE_CHECKING:
    from core.db.store import Store

MAX_DOWNLOAD_MB = 100


class DriveFileError(InquiryBridgeError):
    code = "not_found"


@dataclass(frozen=True)
class CustomerFile:
    item_id: str
    name: str
    path: str  # relative to the customer folder, e.g. "quotes/v2.pdf"
    size: int
    mime_type: str | None
    web_url: str | None
    last_modified: datetime | None


def list_customer_files(store: Store, inquiry_id: int) -> list[CustomerFile]:
    """Every live file below the inquiry's linked folder, by path."""
    with store.session() as session:
        inquiry = session.get(Inquiry, inquiry_id)
        if inquiry is None or not inquiry.drive_folder_id:
            return []
        rows = {
            r.id: r for r in session.scalars(select(DriveItem).where(DriveItem.deleted.is_(False)))
        }
    folder = inquiry.drive_folder_id
    tree = {i: Node(r.name, r.parent_id, r.is_folder, r.deleted) for i, r in rows.items()}
    # re-root the tree at the customer folder so paths come out relative to it
    rerooted = dict(tree)
    if folder in rerooted:
        rerooted[folder] = Node("", None, True)
    out: list[CustomerFile] = []
    for item_id, row in rows.items():
        if row.is_folder or item_id == folder:
            continue
        if not _below(tree, item_id, folder):
            continue
        rel = path_of(rerooted, item_id)
        if rel is None:
            continue
        out.append(
            CustomerFile(
                item_id,
                row.name,
                rel.lstrip("/"),
                row.size,
                row.mime_type,
                row.web_url,
                row.last_modified,
            )
        )
    return sorted(out, key=lambda f: f.path.casefold())


def _below(tree: dict[str, Node], item_id: str, ancestor: str, limit: int = 64) -> bool:
    current = tree.get(item_id)
    for _ in range(limit):
        if current is None or current.parent_id is None:
            return False
        if current.parent_id == ancestor:
            return True
        current = tree.get(current.parent_id)
    return False


async def download(
    client: GraphClient, item_id: str, dest_dir: Path, *, name: str | None = None
) -> Path:
    """Download a file into ``dest_dir`` (atomically) and return its path."""
    data = await client.get_bytes(f"/me/drive/items/{quote(item_id, safe='')}/content")
    if len(data) > MAX_DOWNLOAD_MB * 1024 * 1024:
        raise DriveFileError(f"{name or item_id}: larger than {MAX_DOWNLOAD_MB} MB")
    dest_dir.mkdir(parents=True, exist_ok=True)
    safe = "".join("_" if ch in '\\/:*?"<>|' else ch for ch in (name or item_id)) or item_id
    target = dest_dir / safe
    with partial_file(target) as tmp:
        tmp.write_bytes(data)
    return target


async def read_text(path: Path, *, max_chars: int = 20_000) -> str:
    """Readable text of a txt/csv/PDF/Excel file for the assistant ('' for other formats), read
    in a worker process within time, memory and row limits (``core.drive.extract``)."""
    from core.drive.extract import ExtractError, read_text_bounded

    try:
        return await read_text_bounded(path, max_chars)
    except ExtractError as exc:
        raise DriveFileError(str(exc)) from exc


def open_local(path: Path) -> None:
    """Open a downloaded file with the system's default application."""
    if sys.platform.startswith("win"):
        os.startfile(str(path))  # type: ignore[attr-defined]
    elif sys.platform == "darwin":
        subprocess.Popen(["open", str(path)])
    else:
        subprocess.Popen(["xdg-open", str(path)])
