"""The one shape in which mail enters the app, whatever it came from.

Every source (folder of ``.eml`` files, Microsoft Graph, the bundled demo mailbox) hands the
pipeline the same thing: raw RFC 5322 bytes plus where they came from. Keeping the bytes raw means
there is exactly one MIME parser in the app, so a Graph message and the same message saved as
``.eml`` always produce the same inquiry.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Literal, Protocol, runtime_checkable

SourceKind = Literal["eml", "graph", "imap", "demo"]
FolderKind = Literal["inbox", "sent"]


@dataclass(frozen=True)
class RawMessage:
    """Raw bytes of one message and its identity at the source.

    ``received_at`` (aware UTC) is authoritative when the source knows it (Graph's
    ``receivedDateTime``); otherwise the pipeline falls back to the ``Date`` header.
    ``folder`` is ``"sent"`` for the owner's own Sent Items, which the pipeline records as outgoing.
    A big mail comes as ``path`` (a file holding the bytes, ``raw`` left empty) so that it is
    streamed from disk and never held in memory whole.
    """

    raw: bytes
    source: str
    source_ref: str
    source_id: str | None = None  # the id at the source (Graph id, imap:<folder>:<V>:<uid>)
    folder: str = "inbox"
    conversation_id: str | None = None
    received_at: datetime | None = None
    is_read: bool | None = None
    path: Path | None = None

    @property
    def size(self) -> int:
        return self.path.stat().st_size if self.path is not None else len(self.raw)

    @functools.cached_property
    def sha256(self) -> str:
        """Hex digest of the bytes (read from ``path`` a MB at a time when it is set)."""
        if self.path is None:
            return hashlib.sha256(self.raw).hexdigest()
        digest = hashlib.sha256()
        with self.path.open("rb") as stream:
            while block := stream.read(1 << 20):
                digest.update(block)
        return digest.hexdigest()

    @property
    def parse_input(self) -> bytes | str:
        """What the parser takes: the bytes, or the path of the file that holds them."""
        return str(self.path) if self.path is not None else self.raw


@runtime_checkable
class MessageStream(Protocol):
    """Anything that can be iterated asynchronously for :class:`RawMessage` objects (a folder of
    ``.eml``, the demo). A mailbox read by rounds with cursors is ``core.mail.ports``'s
    ``MessageSource``."""

    def __aiter__(self) -> AsyncIterator[RawMessage]: ...
