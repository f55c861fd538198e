"""An oversized message trimmed to what intake reads, before the MIME parser sees it.

Why: the stdlib parser holds a message several times over while it decodes it (a 283 MB mail
peaked at 2.5 GB). Intake needs the headers and the first text and HTML parts, not a 250 MB
attachment: above ``OVERSIZE_BYTES`` the bytes are walked with ``bytes.find`` (no copy of the
whole) and rebuilt with every header and MIME boundary, the text parts up to ``TEXT_KEEP_BYTES``
in all, and each other part's body left out, its headers marked ``X-Inquiry-Bridge-Omitted``
with its size. The raw message on disk stays whole (the attachment is still there to open), and
the message carries a note saying it was trimmed.
"""

from __future__ import annotations

import email
from email import policy

from core.mail.charsets import add_note

OVERSIZE_BYTES = 64_000_000  # up to here the parser extracts attachments whole (tested)
TEXT_KEEP_BYTES = 2_000_000
MAX_DEPTH = 8
OMITTED = b"X-Inquiry-Bridge-Omitted"


def trim_oversized(raw: bytes, notes: list[str], limit: int = OVERSIZE_BYTES) -> bytes:
    """``raw`` itself when it is within ``limit``, else its trimmed copy (module doc)."""
    if len(raw) <= limit:
        return raw
    trim = _Trim(raw)
    trim.entity(0, len(raw), 0)
    add_note(
        notes,
        f"message of {len(raw) / 1_000_000:.0f} MB: headers and text read, {trim.omitted} "
        f"part(s) ({trim.omitted_bytes / 1_000_000:.0f} MB) left in the raw mail on disk",
    )
    return bytes(trim.out)


class _Trim:
    def __init__(self, raw: bytes) -> None:
        self.raw = raw
        self.out = bytearray()
        self.text_left = TEXT_KEEP_BYTES
        self.omitted = 0
        self.omitted_bytes = 0

    def _split(self, start: int, end: int) -> tuple[int, int]:
        """(end of the header block, start of the body) of the entity at ``start``."""
        raw = self.raw
        if raw.startswith((b"\r\n", b"\n"), start):  # no headers at all
            return start, start + (2 if raw.startswith(b"\r\n", start) else 1)
        crlf = raw.find(b"\r\n\r\n", start, end)
        lf = raw.find(b"\n\n", start, end)
        if crlf >= 0 and (lf < 0 or crlf <= lf):
            return crlf + 2, crlf + 4
        if lf >= 0:
            return lf + 1, lf + 2
        return end, end

    def entity(self, start: int, end: int, depth: int) -> None:
        head_end, body = self._split(start, end)
        head = self.raw[start:head_end]
        info = email.message_from_bytes(head + b"\n", policy=policy.compat32)
        boundary = info.get_boundary()
        kind = info.get_content_type()
        if kind.startswith("multipart/") and boundary and depth < MAX_DEPTH:
            self.out += self.raw[start:body]
            self._parts(body, end, boundary.encode("latin-1", "replace"), depth)
        elif kind.startswith("text/") and info.get_content_disposition() != "attachment":
            keep = min(end - body, max(0, self.text_left))
            self.text_left -= keep
            self.out += self.raw[start:body] + self.raw[body : body + keep]
            if keep < end - body:
                self.out += b"\n"
        else:
            size = end - body
            self.omitted += 1
            self.omitted_bytes += size
            self.out += head.rstrip(b"\r\n") + b"\n" + OMITTED + f": {size} bytes\n\n".encode()

    def _parts(self, body: int, end: int, boundary: bytes, depth: int) -> None:
        raw = self.raw
        delimiter = b"--" + boundary
        cut = self._delimiter(delimiter, body, end)
        if cut < 0:  # no part at all: keep a little of the body
            self.out += raw[body : min(end, body + 1000)]
            return
        self.out += raw[body:cut][:1000]  # the preamble
        while cut >= 0:
            line_end = raw.find(b"\n", cut, end)
            line_end = end if line_end < 0 else line_end + 1
            self.out += raw[cut:line_end]
            if raw.startswith(delimiter + b"--", cut):
                return
            following = self._delimiter(delimiter, line_end, end)
            part_end = end if following < 0 else following
            self.entity(line_end, part_end, depth + 1)
            cut = following

    def _delimiter(self, delimiter: bytes, start: int, end: int) -> int:
        """The next line that starts with ``delimiter`` in [start, end), or -1."""
        raw = self.raw
        at = start
        while True:
            found = raw.find(delimiter, at, end)
            if found < 0:
                return -1
            if found == start or raw[found - 1 : found] == b"\n":
                return found
            at = found + 1
