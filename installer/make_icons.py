"""Render the application icon to resources/icons/: app.ico (16–256 px) and app-<size>.png.

The drawing is the one the running app paints for its window and tray (``desktop.look.app_icon``:
a blue rounded square, a four-pane window and a bridge arch), rendered by Qt at each size rather
than scaled from one bitmap, so the 16 px icon stays crisp. The .ico is written here (Qt's ico
plugin writes a single image): the 256 px image as PNG, the smaller ones as 32-bit BMP with an
alpha channel and an AND mask, the layout Windows Explorer, PyInstaller and Inno Setup all read.

    python installer/make_icons.py          # rewrite the files (commit them)
    python installer/make_icons.py --check  # exit 1 when the committed files differ
"""

from __future__ import annotations

import argparse
import os
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ICONS = ROOT / "resources" / "icons"
SIZES = (16, 20, 24, 32, 40, 48, 64, 128, 256)
PNG_SIZES = (16, 32, 48, 64, 128, 256)


def render(size: int) -> tuple[bytes, bytes]:
    """(PNG bytes, premultiplication-free BGRA rows bottom-up) of the icon at ``size`` px."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize
    from PySide6.QtGui import QImage

    from desktop.look import app_icon

    image = app_icon().pixmap(QSize(size, size)).toImage()
    image = image.convertToFormat(QImage.Format.Format_ARGB32)  # little-endian memory: B, G, R, A
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    rows = [bytes(image.constScanLine(y))[: size * 4] for y in range(size)]
    return bytes(data), b"".join(reversed(rows))


def _bmp_entry(size: int, bgra: bytes) -> bytes:
    header = struct.pack("<IiiHHIIiiII", 40, size, size * 2, 1, 32, 0, len(bgra), 0, 0, 0, 0)
    mask_row = ((size + 31) // 32) * 4  # 1 bit per pixel, rows padded to 32 bits; alpha rules
    return header + bgra + bytes(mask_row * size)


def ico_bytes(images: dict[int, tuple[bytes, bytes]]) -> bytes:
    entries, blobs = [], []
    offset = 6 + 16 * len(images)
    for size, (png, bgra) in sorted(images.items()):
        blob = png if size >= 256 else _bmp_entry(size, bgra)
        dim = 0 if size >= 256 else size  # 0 means 256 in an ICONDIRENTRY
        entries.append(struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(blob), offset))
        blobs.append(blob)
        offset += len(blob)
    return struct.pack("<HHH", 0, 1, len(images)) + b"".join(entries) + b"".join(blobs)


def build() -> dict[Path, bytes]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    _app = QApplication.instance() or QApplication([sys.argv[0]])
    images = {size: render(size) for size in SIZES}
    files = {ICONS / "app.ico": ico_bytes(images)}
    for size in PNG_SIZES:
        files[ICONS / f"app-{size}.png"] = images[size][0]
    return files


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    files = build()
    if args.check:
        stale = [p.name for p, data in files.items() if not p.exists() or p.read_bytes() != data]
        if stale:
            print("icons out of date (run installer/make_icons.py):", ", ".join(stale))
            return 1
        print(f"icons up to date: {len(files)} files")
        return 0
    ICONS.mkdir(parents=True, exist_ok=True)
    for path, data in files.items():
        path.write_bytes(data)
        print(f"{path.relative_to(ROOT)}  {len(data):,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
