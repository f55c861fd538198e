"""Hostile inputs made on the spot, for tests and benchmarks (nothing big is committed).

``empty_rows_xlsx``: a real workbook (openpyxl) whose sheet is then given ``rows`` formatted empty
rows and the declared size ``A1:XFD1048576`` — what a spreadsheet looks like after someone
formatted whole columns: ~200 KB on disk, a million rows and 16,384 columns to a naive reader.

``plans_mail``: a customer mail of ``megabytes`` MB (a short text and one base64 PDF of plans)
written to a file a MB at a time; returns the PDF's sha256 to compare the stored copy with.
"""

from __future__ import annotations

import base64
import hashlib
import zipfile
from collections.abc import Iterator
from datetime import datetime
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


def plans_mail(path: Path, megabytes: int, received: datetime) -> bytes:
    """A customer mail with a ``megabytes`` MIME: a short text and one PDF of plans (base64),
    written to ``path`` a MB at a time; returns the PDF's sha256."""
    block = bytes(range(256)) * 3 * 1024  # 786,432 bytes: base64 lines without padding
    count = megabytes * 1_000_000 * 3 // 4 // len(block)
    digest = hashlib.sha256()
    when = received.strftime("%a, %d %b %Y %H:%M:%S +0000")
    with path.open("wb") as out:
        out.write(
            b"From: Amy Lee <amy@example.com>\r\nTo: sales@aurorawindows.com.au\r\n"
            b"Subject: Plans for 5 George St\r\nMessage-ID: <plans-1@example.com>\r\n"
            b"Date: " + when.encode() + b"\r\nMIME-Version: 1.0\r\n"
            b'Content-Type: multipart/mixed; boundary="b1"\r\n\r\n'
            b"--b1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
            b"Hi, please quote the windows for 5 George St, Ryde. Plans attached.\r\n"
            b"--b1\r\nContent-Type: application/pdf; name=plans.pdf\r\n"
            b"Content-Disposition: attachment; filename=plans.pdf\r\n"
            b"Content-Transfer-Encoding: base64\r\n\r\n"
        )
        for index in range(count):
            chunk = block[:-1] + bytes([index % 256])  # no two MB alike
            digest.update(chunk)
            out.write(base64.encodebytes(chunk).replace(b"\n", b"\r\n"))
        out.write(b"--b1--\r\n")
    return digest.digest()
