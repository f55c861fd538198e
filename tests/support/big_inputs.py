"""Hostile inputs made on the spot, for tests and benchmarks (nothing big is committed).

``empty_rows_xlsx``: a real workbook (openpyxl) whose sheet is then given ``rows`` formatted empty
rows and the declared size ``A1:XFD1048576`` — what a spreadsheet looks like after someone
formatted whole columns: ~200 KB on disk, a million rows and 16,384 columns to a naive reader.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator
from pathlib import Path

MAX_ROWS = 1_048_576


def empty_rows_xlsx(path: Path, rows: int = MAX_ROWS) -> Path:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    sheet.title = "Quote"
    sheet.append(["Item", "Width", "Height", "Price"])
    sheet.append(["Sliding door", 2400, 2100, 1850])
    plain = path.with_name(path.name + ".plain.xlsx")
    book.save(plain)
    with (
        zipfile.ZipFile(plain) as source,
        zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as target,
    ):
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                with target.open(item.filename, "w") as sheet:  # streamed: no 60 MB string
                    for piece in _with_empty_rows(data.decode("utf-8"), rows):
                        sheet.write(piece.encode("utf-8"))
            else:
                target.writestr(item, data)
    plain.unlink()
    return path


def _with_empty_rows(xml: str, rows: int) -> Iterator[str]:
    xml = xml.replace('<dimension ref="A1:D2"/>', '<dimension ref="A1:XFD1048576"/>')
    head, tail = xml.split("</sheetData>", 1)
    yield head
    for start in range(3, rows + 1, 10_000):
        yield "".join(
            f'<row r="{n}" spans="1:16384" s="1" customFormat="1" ht="15"/>'
            for n in range(start, min(start + 10_000, rows + 1))
        )
    yield "</sheetData>" + tail
