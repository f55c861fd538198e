"""A backup owed after every change, taken debounced while a process runs and when it ends.

Why: backups used to be taken at most once an hour, when a store closed; ``repair`` then brought
back an hour-old copy and the owner's decisions, notes and edits since were gone (and a draft
sent since came back ``approved``). Now each committed write makes a backup *owed*; it is taken
``QUIET`` seconds after the last write, or ``CAP`` seconds after the first owed one if the writes
never pause (an ingest), on a timer thread (SQLite's online backup reads beside the writer, so no
write waits), and in ``close`` when the store closes with one still owed. The cost is one copy of
the database per burst of work (``benchmarks/backup_cost.py`` prints it).
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

from core.db.backup import backup_database

log = logging.getLogger(__name__)

QUIET = 3.0
CAP = 60.0


class OwedBackup:
    """``owe()`` after each write; ``close()`` takes the owed one. Thread-safe."""

    def __init__(
        self, database: Path, folder: Path, *, quiet: float = QUIET, cap: float = CAP
    ) -> None:
        self.database = database
        self.folder = folder
        self.quiet = quiet
        self.cap = cap
        self._lock = threading.Lock()  # the owed state; never held while copying
        self._copying = threading.Lock()  # one copy at a time
        self._first: float | None = None
        self._timer: threading.Timer | None = None
        self._closed = False
        self.taken = 0

    @property
    def owed(self) -> bool:
        return self._first is not None

    def owe(self) -> None:
        with self._lock:
            if self._closed:
                return
            now = time.monotonic()
            if self._first is None:
                self._first = now
            delay = max(0.0, min(self.quiet, self._first + self.cap - now))
            if self._timer is not None:
                self._timer.cancel()
            self._timer = threading.Timer(delay, self.take)
            self._timer.daemon = True
            self._timer.start()

    def take(self) -> Path | None:
        """Take the owed backup now (nothing when none is owed)."""
        with self._copying:
            with self._lock:
                if self._first is None:
                    return None
                self._first = None
                if self._timer is not None:
                    self._timer.cancel()
                    self._timer = None
            try:  # writes go on meanwhile: a write during the copy owes the next one
                path = backup_database(self.database, self.folder, reason="auto")
            except Exception:  # a failed backup must not fail the work it protects
                log.warning("backup of %s failed", self.database, exc_info=True)
                return None
            self.taken += int(path is not None)
            return path

    def close(self) -> Path | None:
        path = self.take()
        with self._lock:
            self._closed = True
        return path


__all__ = ["CAP", "QUIET", "OwedBackup"]
