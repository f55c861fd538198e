"""Text of a customer's file for the assistant, within a budget of time, memory and rows.

Why: a 176 KB ``.xlsx`` whose sheet declares a million formatted empty rows (and 16,384 columns)
took 70 s and 1.85 GB inside an async call, so the chat (and the whole event loop) waited on it.
Now the work runs in a one-shot worker process (``read_text_bounded``): the loop only awaits it;
the worker has an address-space cap (``MEMORY_BYTES``, POSIX) and is killed after
``EXTRACT_SECONDS``; and the readers themselves stop early — a sheet after ``EMPTY_RUN`` empty
rows in a row or ``MAX_ROWS`` rows read, ``MAX_COLS`` columns, ``MAX_PDF_PAGES`` pages, and
``max_chars`` characters of text in all. What was cut is said in the text ("[stopped: …]"), so
the model never takes a part for the whole.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import multiprocessing
import sys
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from core import tasks

TEXT_SUFFIXES = {".txt", ".md", ".csv", ".log", ".json", ".eml"}
EXCEL_SUFFIXES = {".xlsx", ".xlsm"}
EXTRACT_SECONDS = 20.0
MEMORY_BYTES = 1_000_000_000  # address space of the worker (RSS stays well below it)
TEXT_BYTES = 4_000_000  # bytes of a text file read (the model sees max_chars of them anyway)
MAX_ROWS = 20_000
EMPTY_RUN = 500
MAX_COLS = 60
MAX_PDF_PAGES = 50


class ExtractError(Exception):
    """The file could not be read within its budget (the message says which)."""


def extract_text(path: str, max_chars: int) -> str:
    """Readable text of a txt/csv/PDF/Excel file ('' for other formats); bounded (module doc)."""
    file = Path(path)
    suffix = file.suffix.lower()
    if suffix in TEXT_SUFFIXES:
        return _plain_text(file, suffix, max_chars)
    if suffix == ".pdf":
        return _pdf_text(file, max_chars)
    if suffix in EXCEL_SUFFIXES:
        return _excel_text(file, max_chars)
    return ""


def _plain_text(file: Path, suffix: str, max_chars: int) -> str:
    with file.open("rb") as handle:
        raw = handle.read(TEXT_BYTES)
    text = ""
    for encoding in ("utf-8-sig", "gb18030", "latin-1"):
        try:
            text = raw.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    if suffix == ".csv":
        rows = csv.reader(io.StringIO(text))
        text = "\n".join(" | ".join(cell.strip() for cell in row[:MAX_COLS]) for row in rows)
    return text[:max_chars]


def _pdf_text(file: Path, max_chars: int) -> str:
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(str(file))
        parts: list[str] = []
        total = 0
        for number, page in enumerate(reader.pages, start=1):
            if number > MAX_PDF_PAGES:
                parts.append(f"[stopped: only the first {MAX_PDF_PAGES} pages were read]")
                break
            text = (page.extract_text() or "").strip()
            if text:
                parts.append(f"[page {number}]\n{text}")
                total += len(text)
            if total >= max_chars:
                break
        return "\n\n".join(parts)[:max_chars]
    except (PdfReadError, OSError, ValueError) as exc:
        raise ExtractError(f"{file.name}: unreadable PDF ({exc})") from exc


def _excel_text(file: Path, max_chars: int) -> str:
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(str(file), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many types for broken files
        raise ExtractError(f"{file.name}: unreadable workbook ({exc})") from exc
    parts: list[str] = []
    budget = [max_chars, MAX_ROWS]  # characters left, rows left
    try:
        for sheet in workbook.worksheets:
            parts.append(f"[sheet {sheet.title}]")
            _sheet_lines(sheet, parts, budget)
            if budget[0] <= 0 or budget[1] <= 0:
                break
    finally:
        workbook.close()
    return "\n".join(parts)[:max_chars]


def _sheet_lines(sheet: object, parts: list[str], budget: list[int]) -> None:
    """One sheet's non-empty rows into ``parts``, stopping at the budget or a long empty run."""
    # the declared size (A1:XFD1048576 in the hostile file) is not trusted: read what is there
    getattr(sheet, "reset_dimensions", lambda: None)()
    empty = 0
    rows = sheet.iter_rows(values_only=True, max_col=MAX_COLS)  # type: ignore[attr-defined]
    for row in rows:
        budget[1] -= 1
        cells = ["" if v is None else str(v) for v in row]
        while cells and not cells[-1]:
            cells.pop()
        if not cells:
            empty += 1
            if empty >= EMPTY_RUN:
                parts.append(f"[stopped: {EMPTY_RUN} empty rows in a row]")
                return
        else:
            empty = 0
            line = " | ".join(cells)
            parts.append(line)
            budget[0] -= len(line)
        if budget[0] <= 0:
            return
        if budget[1] <= 0:
            parts.append(f"[stopped: only the first {MAX_ROWS} rows were read]")
            return


def _limit_worker() -> None:
    """In the worker: cap its address space, so a hostile file fails instead of swapping."""
    if sys.platform != "win32":
        import resource

        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def _one_shot_pool() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=1, mp_context=multiprocessing.get_context("spawn"), initializer=_limit_worker
    )


async def read_text_bounded(path: Path, max_chars: int, *, seconds: float = EXTRACT_SECONDS) -> str:
    """``extract_text`` in a one-shot worker process; the event loop only waits for it."""
    # building the pool (the first time: multiprocessing's spawn machinery imported, 25 ms) and
    # its first submit (which starts the process) are done on a thread, not on the loop
    pool = await tasks.io(_one_shot_pool)
    try:
        # the first submit starts the process: do that on a thread, not on the loop
        future = await tasks.io(pool.submit, extract_text, str(path), max_chars)
        return await asyncio.wait_for(asyncio.wrap_future(future), seconds)
    except TimeoutError:
        raise ExtractError(f"{path.name}: not read within {seconds:g} s (stopped)") from None
    except (MemoryError, BrokenProcessPool) as exc:
        raise ExtractError(f"{path.name}: too large to read ({type(exc).__name__})") from exc
    finally:
        for process in list(getattr(pool, "_processes", {}).values()):
            with contextlib.suppress(Exception):
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
