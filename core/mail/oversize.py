"""An oversized message read as a stream: headers and text kept, every other part sent to disk.

Why: the stdlib parser holds a message several times over while it decodes it (a 283 MB mail
peaked at 2.5 GB). Intake needs the headers and the first text and HTML parts, not a 250 MB
attachment. Above ``OVERSIZE_BYTES`` the message is read line by line from its file (or from
the bytes a mailbox handed over, without a copy) and rebuilt with every header and MIME boundary
and the text parts up to ``TEXT_KEEP_BYTES`` in all. Every other part's body is decoded in
chunks (base64, quoted-printable) into a file of its own under ``spool_dir`` while it is within
``keep_max`` bytes -- the attachment the owner opens -- and only counted past that; in the rebuilt
message its headers carry ``X-Inquiry-Bridge-Omitted: <token> <index>``. The token is new for
every trim, so a mail cannot forge the marker and point the app at a file of its choosing.

Memory stays at one line, one 1 MB decode buffer and the rebuilt headers and text, whatever the
size of the mail. The raw message on disk stays whole; the message carries a note that it was
read this way.
"""

from __future__ import annotations

import binascii
import contextlib
import email
import os
import secrets
import tempfile
from dataclasses import dataclass, field
from email import policy
from pathlib import Path
from typing import IO, BinaryIO

from core.mail.charsets import add_note

OVERSIZE_BYTES = 16_000_000  # up to here the stdlib parser reads the mail whole (~8x its size)
TEXT_KEEP_BYTES = 2_000_000
HEAD_KEEP_BYTES = 256_000  # of one part's header block
PREAMBLE_KEEP = 1_000
MAX_DEPTH = 8
LINE_PIECE = 1 << 16  # a line longer than this is read in pieces
DECODE_CHUNK = 1 << 20
OMITTED = b"X-Inquiry-Bridge-Omitted"
_WHITESPACE = b" \t\r\n\x0b\x0c"


@dataclass(frozen=True)
class OmittedPart:
    """One part left out of the rebuilt message: its decoded size and, when it was within the
    keep cap and a spool folder was given, the file holding its decoded bytes."""

    size: int
    spooled: str | None


@dataclass
class Trimmed:
    raw: bytes
    token: str
    parts: list[OmittedPart] = field(default_factory=list)

    def discard(self) -> None:
        """Delete the spooled files (the message was not stored after all)."""
        for part in self.parts:
            if part.spooled:
                with contextlib.suppress(OSError):
                    os.unlink(part.spooled)


@dataclass(frozen=True)
class _Stop:
    """The delimiter line that ended an entity: its boundary's level and whether it closes."""

    level: int
    close: bool
    piece: bytes


def trim_stream(
    stream: BinaryIO, notes: list[str], *, spool_dir: Path | None, keep_max: int, total: int
) -> Trimmed:
    """The rebuilt message of ``stream`` (module doc); spooled files are removed on any error."""
    trim = _Trim(stream, spool_dir, keep_max)
    try:
        trim.entity(0)
    except BaseException:
        trim.result.discard()
        raise
    omitted = trim.result.parts
    add_note(
        notes,
        f"message of {total / 1_000_000:.0f} MB: headers and text read, {len(omitted)} "
        f"part(s) ({sum(p.size for p in omitted) / 1_000_000:.0f} MB) read to disk "
        "(raw mail kept whole)",
    )
    trim.result.raw = bytes(trim.out)
    return trim.result


class _Trim:
    def __init__(self, stream: BinaryIO, spool_dir: Path | None, keep_max: int) -> None:
        self.stream = stream
        self.spool_dir = spool_dir
        self.keep_max = keep_max
        self.out = bytearray()
        self.bounds: list[bytes] = []
        self.at_start = True
        self.text_left = TEXT_KEEP_BYTES
        self.result = Trimmed(raw=b"", token=secrets.token_hex(8))

    # ------------------------------------------------------------------ lines
    def _line(self) -> tuple[bytes, _Stop | None]:
        """The next piece of a line (b"" at the end) and the delimiter it is, if it is one."""
        starts = self.at_start
        piece = self.stream.readline(LINE_PIECE)
        self.at_start = piece.endswith(b"\n")
        if not starts or not self.bounds or not piece.startswith(b"--"):
            return piece, None
        core = piece.rstrip(_WHITESPACE)
        for level in range(len(self.bounds) - 1, -1, -1):
            bound = self.bounds[level]
            if core == bound:
                return piece, _Stop(level, False, piece)
            if core == bound + b"--":
                return piece, _Stop(level, True, piece)
        return piece, None

    def _skip(self, keep: int) -> tuple[_Stop | None, int]:
        """Read to the next delimiter (None at the end), copying up to ``keep`` bytes."""
        kept = 0
        while True:
            piece, stop = self._line()
            if not piece or stop is not None:
                return stop, kept
            if kept < keep:
                take = piece[: keep - kept]
                self.out += take
                kept += len(take)

    # ------------------------------------------------------------------ entities
    def entity(self, depth: int) -> _Stop | None:
        """Copy or spool one entity; returns the delimiter that ended it (None at the end)."""
        head = bytearray()
        while True:
            piece, stop = self._line()
            if stop is not None:  # a part with headers only
                self.out += head
                return stop
            if not piece:
                self.out += head
                return None
            if len(head) < HEAD_KEEP_BYTES:
                head += piece
            if piece in (b"\r\n", b"\n"):
                break
        info = email.message_from_bytes(bytes(head), policy=policy.compat32)
        kind = info.get_content_type()
        boundary = info.get_boundary()
        if kind.startswith("multipart/") and boundary and depth < MAX_DEPTH:
            self.out += head
            return self._multipart(boundary.encode("latin-1", "replace"), depth)
        disposition = info.get_content_disposition()
        named_txt = kind == "text/plain" and disposition is not None and info.get_filename()
        is_text = kind in ("text/plain", "text/html") and disposition != "attachment"
        no_parts = kind.startswith("multipart/") and not boundary  # the parser reads it as text
        if (is_text and not named_txt) or no_parts:
            self.out += head
            stop, kept = self._skip(self.text_left)
            self.text_left -= kept
            if not self.out.endswith(b"\n"):
                self.out += b"\n"
            return stop
        stop, part = self._spool(str(info.get("content-transfer-encoding", "")).strip().lower())
        index = len(self.result.parts)
        self.result.parts.append(part)
        marker = f": {self.result.token} {index}\n\n".encode()
        self.out += bytes(head).rstrip(b"\r\n") + b"\n" + OMITTED + marker
        return stop

    def _multipart(self, boundary: bytes, depth: int) -> _Stop | None:
        self.bounds.append(b"--" + boundary)
        mine = len(self.bounds) - 1
        stop, _ = self._skip(PREAMBLE_KEEP)
        while stop is not None and stop.level == mine and not stop.close:
            self.out += stop.piece
            stop = self.entity(depth + 1)
        self.bounds.pop()
        if stop is not None and stop.level == mine:  # the closing delimiter; then the epilogue
            self.out += stop.piece
            stop, _ = self._skip(0)
        return stop

    def _spool(self, encoding: str) -> tuple[_Stop | None, OmittedPart]:
        sink = _Sink(self.spool_dir, self.keep_max)
        decoder = _Decoder(encoding, sink)
        try:
            while True:
                piece, stop = self._line()
                if not piece or stop is not None:
                    break
                decoder.feed(piece)
            decoder.finish()
        except BaseException:
            sink.drop()
            raise
        return stop, sink.close()


class _Decoder:
    """Content-Transfer-Encoding undone a chunk at a time into a ``_Sink``."""

    def __init__(self, encoding: str, sink: _Sink) -> None:
        self.encoding = encoding
        self.sink = sink
        self.buf = bytearray()
        self.held = b""  # the line end before a delimiter belongs to the delimiter

    def feed(self, piece: bytes) -> None:
        if self.encoding == "base64":
            self.buf += piece.translate(None, _WHITESPACE)
            if len(self.buf) >= DECODE_CHUNK:
                cut = len(self.buf) // 4 * 4
                self._b64(bytes(self.buf[:cut]))
                del self.buf[:cut]
        elif self.encoding == "quoted-printable":
            self.sink.write(binascii.a2b_qp(piece))
        else:
            body = piece.rstrip(b"\r\n")
            self.sink.write(self.held + body)
            self.held = piece[len(body) :]

    def _b64(self, chunk: bytes) -> None:
        if self.sink.counting_only():  # past the keep cap: count, do not decode
            self.sink.count(len(chunk) * 3 // 4 - chunk[-2:].count(b"="))
            return
        try:
            self.sink.write(binascii.a2b_base64(chunk))
        except binascii.Error:
            self.sink.count(len(chunk) * 3 // 4)

    def finish(self) -> None:
        if self.buf:
            tail = bytes(self.buf)
            self._b64(tail + b"=" * (-len(tail) % 4))


class _Sink:
    """Decoded bytes into a spool file while within ``keep_max``; only counted after that."""

    def __init__(self, spool_dir: Path | None, keep_max: int) -> None:
        self.size = 0
        self.keep_max = keep_max
        self.file: IO[bytes] | None = None
        self.name = ""
        if spool_dir is not None and keep_max > 0:
            spool_dir.mkdir(parents=True, exist_ok=True)
            fd, self.name = tempfile.mkstemp(prefix="part-", suffix=".spool", dir=spool_dir)
            self.file = os.fdopen(fd, "wb")

    def counting_only(self) -> bool:
        return self.file is None

    def count(self, size: int) -> None:
        self.size += max(0, size)
        if self.size > self.keep_max:
            self.drop()

    def write(self, data: bytes) -> None:
        self.count(len(data))
        if self.file is not None:
            self.file.write(data)

    def drop(self) -> None:
        if self.file is not None:
            handle, self.file = self.file, None
            handle.close()
            with contextlib.suppress(OSError):
                os.unlink(self.name)

    def close(self) -> OmittedPart:
        if self.file is None:
            return OmittedPart(self.size, None)
        self.file.close()
        self.file = None
        return OmittedPart(self.size, self.name)
