"""One writer at a time on a data folder, across processes: a short-held file lock per write.

Why a file lock beside SQLite's own: SQLite serialises writers, but only for the statements of
one transaction. Two processes that each *check* (a Message-ID not yet known, no schema yet) and
then *write* race between the two: the second dies with ``UNIQUE constraint failed`` or ``table
app_state already exists``. Holding ``<data folder>/.writer.lock`` around every write transaction
(``Store.write``) and around schema creation and migrations makes the check and the write one
step for every process on the folder. Readers never take it (WAL lets them read beside a writer).

The lock is held per operation, never for a process's lifetime: the tray app and a CLI
``ingest`` on one folder take turns, transaction by transaction, and both finish. A process that
has to wait longer than ``NOTICE_AFTER`` says so once on stderr (``等待另一个询盘桥进程…``) and
then keeps waiting; a holder that dies releases the lock with its file descriptor (fcntl/msvcrt).

``filelock`` (tox-dev) does the platform part: fcntl ``flock`` on POSIX, ``msvcrt.locking`` on
Windows, re-entrant per thread. It was already installed with the voice stack
(huggingface_hub); it is declared as a dependency of its own.
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from core.errors import DatabaseBusy

log = logging.getLogger(__name__)

LOCK_NAME = ".writer.lock"
NOTICE_AFTER = 1.0  # seconds of waiting before the owner is told why nothing moves
GIVE_UP_AFTER = 600.0  # a writer that holds the folder this long is stuck: busy, not broken
WAITING_LINE = "inquiry-bridge: 等待另一个询盘桥进程… / waiting for another Inquiry Bridge process…"

_noticed = threading.Event()


def _print_notice() -> None:
    """The default notice: one line on stderr, once per process."""
    if _noticed.is_set():
        return
    _noticed.set()
    with contextlib.suppress(Exception):  # no console (windowed app): the log has it
        print(WAITING_LINE, file=sys.stderr, flush=True)


class WriterLock:
    """The folder's writer lock. ``hold()`` is re-entrant on one thread; other threads and
    processes wait for it."""

    def __init__(self, home: Path, *, on_wait: Callable[[], None] | None = None) -> None:
        self.path = home / LOCK_NAME
        self._lock = FileLock(str(self.path), mode=0o600)
        self._on_wait = on_wait or _print_notice

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        """Hold the lock for one write (or one migration), waiting visibly if another process
        has it. Raises ``DatabaseBusy`` after ``GIVE_UP_AFTER`` seconds."""
        try:
            self._lock.acquire(timeout=NOTICE_AFTER)
        except Timeout:
            log.info("data folder is being written by another process; waiting")
            self._on_wait()
            try:
                self._lock.acquire(timeout=GIVE_UP_AFTER)
            except Timeout as exc:
                raise DatabaseBusy(str(self.path.parent)) from exc
        try:
            yield
        finally:
            self._lock.release()


__all__ = ["LOCK_NAME", "WAITING_LINE", "WriterLock"]
