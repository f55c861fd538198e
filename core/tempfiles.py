"""Write a file through a temporary sibling that never outlives a failure.

Why: a write that fails half-way (disk full, the folder turned read-only, a killed copy) must
leave either the old file or the new one, never a 0-byte ``*.part`` that a later listing or
restore could mistake for data. Every writer of a whole file goes through ``partial_file``:
the sibling becomes the target on success and is deleted on any error.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def partial_file(target: Path, suffix: str = ".part") -> Iterator[Path]:
    """Yield ``<target><suffix>`` to write; it replaces ``target`` when the block succeeds."""
    tmp = target.with_name(f"{target.name}{suffix}")
    try:
        yield tmp
        os.replace(tmp, target)
    except BaseException:
        for leftover in (tmp, *(tmp.with_name(tmp.name + s) for s in _SQLITE_SIDES)):
            with contextlib.suppress(OSError):
                leftover.unlink()
        raise


# what SQLite may create beside a database file it was writing (a backup's copy)
_SQLITE_SIDES = ("-wal", "-shm", "-journal")
