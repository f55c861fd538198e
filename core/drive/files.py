"""A customer's OneDrive files: list, download, open, and read as text for the assistant.

Listing works offline from ``drive_items`` (the watcher keeps them current); downloads go through
``/me/drive/items/{id}/content`` (a redirect to a pre-authenticated URL, which httpx follows
without our bearer token because it is another origin). Text extraction uses one maintained
library per format — pypdf for PDF, openpyxl for Excel — and caps the size handed to the model.
"""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from sqlalchemy import select

from core.db.models import DriveItem, Inquiry
from core.drive.paths import Node, path_of
from core.errors import InquiryBridgeError
from core.graph.client import GraphClient
from core.tempfiles import partial_file

TEXT_SUFFIXES = {".txt", ".md", ".csv", ".log", ".json", ".eml"}
EXCEL_SUFFIXES = {".xlsx", ".xlsm"}
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
    last_modified: Any


def list_customer_files(store: Any, inquiry_id: int) -> list[CustomerFile]:
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


def read_text(path: Path, *, max_chars: int = 20_000) -> str:
    """Readable text of a txt/csv/PDF/Excel file for the assistant ('' for other formats)."""
    suffix = path.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        raw = path.read_bytes()
        text = ""
        for encoding in ("utf-8-sig", "gb18030", "latin-1"):
            try:
                text = raw.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        if suffix == ".csv":
            rows = csv.reader(io.StringIO(text))
            text = "\n".join(" | ".join(cell.strip() for cell in row) for row in rows)
        return text[:max_chars]
    if suffix == ".pdf":
        return _pdf_text(path, max_chars)
    if suffix in EXCEL_SUFFIXES:
        return _excel_text(path, max_chars)
    return ""


def _pdf_text(path: Path, max_chars: int) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(str(path))
        parts: list[str] = []
        total = 0
        for number, page in enumerate(reader.pages, start=1):
            text = (page.extract_text() or "").strip()
            if text:
                parts.append(f"[page {number}]\n{text}")
                total += len(text)
            if total >= max_chars:
                break
        return "\n\n".join(parts)[:max_chars]
    except (PdfReadError, OSError, ValueError) as exc:
        raise DriveFileError(f"{path.name}: unreadable PDF ({exc})") from exc


def _excel_text(path: Path, max_chars: int) -> str:
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(str(path), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many types for broken files
        raise DriveFileError(f"{path.name}: unreadable workbook ({exc})") from exc
    parts: list[str] = []
    total = 0
    try:
        for sheet in workbook.worksheets:
            parts.append(f"[sheet {sheet.title}]")
            for row in sheet.iter_rows(values_only=True):
                cells = ["" if v is None else str(v) for v in row]
                while cells and not cells[-1]:
                    cells.pop()
                if not cells:
                    continue
                line = " | ".join(cells)
                parts.append(line)
                total += len(line)
                if total >= max_chars:
                    break
            if total >= max_chars:
                break
    finally:
        workbook.close()
    return "\n".join(parts)[:max_chars]


def open_local(path: Path) -> None:
    """Open a downloaded file with the system's default application."""
    if sys.platform.startswith("win"):
        os.startfile(str(path))  # type: ignore[attr-defined]
    elif sys.platform == "darwin":
        subprocess.Popen(["open", str(path)])
    else:
        subprocess.Popen(["xdg-open", str(path)])
