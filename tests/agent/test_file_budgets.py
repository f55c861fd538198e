"""The assistant reads a customer's spreadsheet or PDF within a budget, off the event loop.

A sheet that declares a million formatted empty rows (and 16,384 columns) is read up to its real
content and a long empty run, in a worker process, while the loop keeps running; a file that
takes longer than its time limit is stopped with a clear reason instead of holding the chat.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from core.drive.extract import EMPTY_RUN, ExtractError, read_text_bounded
from core.drive.files import DriveFileError, read_text
from tests.support.big_inputs import empty_rows_xlsx


@pytest.fixture(scope="module")
def hostile_xlsx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return empty_rows_xlsx(tmp_path_factory.mktemp("xlsx") / "quote.xlsx", rows=200_000)


async def test_a_sheet_of_empty_rows_is_read_to_its_content_while_the_loop_runs(
    hostile_xlsx: Path,
) -> None:
    ticks = 0
    stop = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            await asyncio.sleep(0.01)

    beat = asyncio.ensure_future(ticker())
    text = await read_text(hostile_xlsx, max_chars=4_000)
    stop.set()
    await beat
    assert "Sliding door | 2400 | 2100 | 1850" in text
    assert f"[stopped: {EMPTY_RUN} empty rows in a row]" in text
    assert ticks > 5  # the loop went on while the worker read


async def test_a_file_over_its_time_limit_is_stopped_with_the_reason(hostile_xlsx: Path) -> None:
    with pytest.raises(ExtractError, match="not read within"):
        await read_text_bounded(hostile_xlsx, 4_000, seconds=0.05)


async def test_a_broken_workbook_is_a_clear_file_error(tmp_path: Path) -> None:
    broken = tmp_path / "broken.xlsx"
    broken.write_bytes(b"PK\x03\x04 not really a workbook")
    with pytest.raises(DriveFileError, match="unreadable workbook"):
        await read_text(broken)
