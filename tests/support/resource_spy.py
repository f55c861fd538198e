"""Witnesses that a view loaded nothing: a loopback HTTP server that records every request, and
a watch (Linux inotify) on a folder that records every file opened in it.

Why both: Qt's rich text fetches ``file:`` and UNC images itself, below Python, so no Python
hook sees the read; the kernel does. ``FileOpenSpy`` is skipped cleanly where inotify is not
available (the tests that use it say so).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
import sys
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType

IN_OPEN = 0x00000020
IN_NONBLOCK = 0o4000


class FileOpenSpy:
    """Records the names of files opened inside ``folder`` while it is active."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.fd = -1
        self._libc: ctypes.CDLL | None = None

    @staticmethod
    def available() -> bool:
        return sys.platform.startswith("linux") and ctypes.util.find_library("c") is not None

    def __enter__(self) -> FileOpenSpy:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        self.fd = libc.inotify_init1(IN_NONBLOCK)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        if libc.inotify_add_watch(self.fd, os.fsencode(self.folder), IN_OPEN) < 0:
            raise OSError(ctypes.get_errno(), "inotify_add_watch")
        self._libc = libc
        return self

    def opened(self) -> list[str]:
        """File names opened since the last call."""
        names: list[str] = []
        while True:
            try:
                data = os.read(self.fd, 65536)
            except BlockingIOError:
                return names
            offset = 0
            while offset < len(data):
                _wd, _mask, _cookie, length = struct.unpack_from("iIII", data, offset)
                raw = data[offset + 16 : offset + 16 + length]
                names.append(raw.rstrip(b"\0").decode())
                offset += 16 + length

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.fd >= 0:
            os.close(self.fd)


def write_png(path: Path, width: int = 300, height: int = 600) -> Path:
    """A real grey PNG (large, so a label that loaded it would be tall)."""
    row = b"\x00" + b"\x80" * width
    raw = zlib.compress(row * height)

    def chunk(kind: bytes, body: bytes) -> bytes:
        crc = zlib.crc32(kind + body) & 0xFFFFFFFF
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")
    )
    return path


class HitServer:
    """A loopback HTTP server that answers every GET with a tiny PNG and records the path."""

    def __init__(self) -> None:
        hits: list[str] = []
        self.hits = hits

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                hits.append(self.path)
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> HitServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
