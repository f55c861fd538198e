"""One writer at a time on a data folder, across processes: a short-held file lock per write.

Why a file lock beside SQLite's own: SQLite serialises writers, but only for the statements of
one transaction. Two processes that each *check* (a Message-ID not yet known, no schema yet) and
then *write* race between the two: the second dies with ``UNIQUE constraint failed`` or ``table
app_state already exists``. Holding ``<data folder>/.writer.lock`` around every write transaction
(``Store.write``) and around schema creation and migrations makes the check and the write one
step for every process on the folder. Readers never take it (WAL lets them read beside a writer).

The lock is held per operation, never for a process's lifetime: the tray app and a CLI
``ingest`` on one folder take turns, transaction by transaction, and both finish. A process that
finds the lock held by another process says so at once, once, on stderr (``等待另一个询盘桥进程…``)
and then keeps waiting: a wait of any length is explained while it happens (it used to be said
only after a second, so the shorter waits an owner sees most went unexplained). A wait for another
thread of this process is no other process and says nothing. A holder that dies releases the
lock with its file descriptor (fcntl/msvcrt).

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
GIVE_UP_AFTER = 600.0  # a writer that holds the folder this long is stuck: busy, not broken
WAITING_LINE = "inquiry-bridge: 等待另一个询盘桥进程… / waiting for another Inquiry Bridge process…"

_noticed = threading.Event()
_held_here: dict[str, int] = {}  # lock path -> holds by this process's threads, now
_held_guard = threading.Lock()


def _count(path: str, step: int) -> None:
    with _held_guard:
        _held_here[path] = _held_here.get(path, 0) + step


def _held_by_this_process(path: str) -> bool:
    with _held_guard:
        return _held_here.get(path, 0) > 0


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
        key = str(self.path)
        try:
            self._lock.acquire(blocking=False)  # one try: free, or ours already (re-entrant)
        except Timeout:
            if not _held_by_this_process(key):  # another thread of ours: no other process
                log.info("data folder is being written by another process; waiting")
                self._on_wait()
            try:
                self._lock.acquire(timeout=GIVE_UP_AFTER)
            except Timeout as exc:
                raise DatabaseBusy(str(self.path.parent)) from exc
        _count(key, 1)
        try:
            yield
        finally:
            _count(key, -1)
            self._lock.release()


__all__ = ["LOCK_NAME", "WAITING_LINE", "WriterLock"]
