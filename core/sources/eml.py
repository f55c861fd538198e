"""A folder of ``.eml`` files as a message source (``inquiry-bridge ingest --eml-dir``).

Files are yielded in name order so that a folder exported as ``001.eml``, ``002.eml`` … replays in
arrival order, which the merge step depends on (a reply must come after the inquiry it answers).
Files are read one at a time in a worker thread: a folder of large attachments never blocks the
event loop or sits in memory all at once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

from core import tasks
from core.mail.oversize import OVERSIZE_BYTES
from core.mail.source import RawMessage


class EmlFolderSource:
    """Yields every ``*.eml`` (case-insensitive) directly inside ``folder``, sorted by file name."""

    def __init__(self, folder: Path, *, sent_from: frozenset[str] = frozenset()) -> None:
        """``sent_from``: only for a labelled corpus exported from one mailbox (the eval), whose
        own mail came out of its Sent folder. A folder the owner ingests never says that: a
        ``From:`` header proves nothing (docs/provenance.md), so its mail is all inbox."""
        self.folder = Path(folder)
        self.sent_from = frozenset(a.lower() for a in sent_from)

    def files(self) -> list[Path]:
        """The files this source will yield, in order (also used for progress counts)."""
        if not self.folder.is_dir():
            raise FileNotFoundError(f"not a folder: {self.folder}")
        found = [p for p in self.folder.iterdir() if p.is_file() and p.suffix.lower() == ".eml"]
        return sorted(found, key=lambda p: p.name)

    async def __aiter__(self) -> AsyncIterator[RawMessage]:
        for path in self.files():
            raw = await tasks.io(read_eml, path, path.name)
            if self.sent_from and _sender(raw) in self.sent_from:
                raw = dataclasses.replace(raw, folder="sent")
            yield raw


def _sender(raw: RawMessage) -> str:
    """The ``From:`` address of a small file (a big one is never one of the corpus' own)."""
    from email.parser import BytesHeaderParser
    from email.utils import parseaddr

    if not raw.raw:
        return ""
    headers = BytesHeaderParser().parsebytes(raw.raw)
    return parseaddr(str(headers.get("From", "")))[1].lower()


def read_eml(path: Path, source_ref: str) -> RawMessage:
    """The file's bytes, or (a big mail) the file itself, streamed later without a whole copy."""
    if path.stat().st_size > OVERSIZE_BYTES:
        return RawMessage(raw=b"", source="eml", source_ref=source_ref, path=path)
    return RawMessage(raw=path.read_bytes(), source="eml", source_ref=source_ref)
