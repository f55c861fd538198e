"""Appending to the data folder's journals (``sends.journal``, ``owner.journal``) durably.

One ``write`` per append on an ``O_APPEND`` descriptor (so lines from several processes never
interleave), then ``fsync`` of the file, and of its folder when the file is new (so the name
survives a power cut too; POSIX only). Files are owner-only (0600).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def append_fsynced(path: Path, data: bytes) -> None:
    """Append ``data`` to ``path`` and make it durable before returning (OSError propagates)."""
    created = not path.exists()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    if created and os.name == "posix":
        with contextlib.suppress(OSError):
            folder = os.open(path.parent, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)


__all__ = ["append_fsynced"]
