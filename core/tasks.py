"""The task runner: every blocking call leaves the event loop through one of its named lanes.

Why: offloads used to be ad hoc -- ``asyncio.to_thread`` here, ``run_in_executor(None, …)`` there,
a private ``ThreadPoolExecutor`` or a bare ``threading.Thread`` elsewhere -- so nobody could say
which threads the process runs, how many, or what waits for them at close. Two lanes, as Anki's
``taskman`` has (docs/architecture.md, `tasks.py`):

- the **database lane**: ``db_lane()``, one named thread per store (``Store`` owns it; every
  write of ``Store.run`` runs there, so writes to one database are serialised);
- the **I/O lane**: ``io(fn, …)``, a bounded pool for blocking file, network and parse work
  (IMAP/SMTP calls, file reads, fsync, the short parses that used the default executor). Its size
  is asyncio's default executor's, so nothing that ran concurrently before now waits.

Work that needs a thread of its own keeps one, but through ``Lane`` (Whisper's single thread,
the notification worker) or ``daemon`` (warm-ups nothing waits for), so the names and counts are
here. ``tests/foundation/test_task_lanes.py`` fails on an offload anywhere else.

Semantics are ``asyncio.to_thread``'s: the call sees the caller's context variables, its
exception is raised in the awaiting coroutine, and cancelling the await cancels a call not yet
started (one already running finishes on its thread; its result is dropped). ``shutdown()``
joins the I/O lane (``App.close`` passes ``wait=False``: an IMAP IDLE in flight may take minutes);
a later ``io`` starts a fresh one (tests, another data folder's App, a second command).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import ParamSpec, TypeVar

T = TypeVar("T")
P = ParamSpec("P")

DB_LANE = "store-writer"
IO_LANE = "io"
IO_WORKERS = min(32, (os.cpu_count() or 1) + 4)  # asyncio's default executor: same concurrency


class Lane:
    """A named pool of ``workers`` threads (``<name>_0``, ``<name>_1`` …), started on first use.

    ``run`` awaits a call from a coroutine; ``submit`` hands one over from any thread and returns
    its ``concurrent.futures.Future``. After ``close`` both raise ``RuntimeError``.
    """

    def __init__(self, name: str, workers: int = 1) -> None:
        if workers < 1:
            raise ValueError(f"lane {name}: needs at least one worker, not {workers}")
        self.name = name
        self.workers = workers
        self._pool: ThreadPoolExecutor | None = None
        self._closed = False
        self._lock = threading.Lock()

    @property
    def closed(self) -> bool:
        return self._closed

    def _executor(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._closed:
                raise RuntimeError(f"lane {self.name} is closed")
            if self._pool is None:
                self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix=self.name)
            return self._pool

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Start ``fn(*args, **kwargs)`` on this lane; for callers that are not coroutines."""
        return self._executor().submit(fn, *args, **kwargs)

    async def run(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """``fn(*args, **kwargs)`` on this lane, awaited without blocking the loop (``to_thread``
        semantics: context variables copied, exceptions raised here, cancellation as above)."""
        loop = asyncio.get_running_loop()
        call = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
        return await loop.run_in_executor(self._executor(), call)

    def close(self, *, wait: bool = True, cancel_futures: bool = False) -> None:
        """Refuse new work; with ``wait``, join the threads after the queued calls finish
        (``cancel_futures`` drops the calls not yet started)."""
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def db_lane() -> Lane:
    """The database lane of one store: a single writer thread (SQLite allows one writer)."""
    return Lane(DB_LANE, 1)


_io: Lane | None = None
_io_lock = threading.Lock()


def io_lane() -> Lane:
    """The process's I/O lane (a new one after ``shutdown``)."""
    global _io
    with _io_lock:
        if _io is None or _io.closed:
            _io = Lane(IO_LANE, IO_WORKERS)
        return _io


async def io(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """``fn(*args, **kwargs)`` on the I/O lane: the way blocking work leaves the event loop.

    Closing one data folder's ``App`` shuts the process's lane down while another folder's
    App (the real one beside the demo) goes on: a call that took the old lane just then is
    handed to the fresh one instead of failing."""
    return await io_started(fn, *args, **kwargs)


def io_started(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> asyncio.Future[T]:
    """``io``, already on the I/O lane when this returns rather than when first awaited: a
    caller with more to do on the loop first (a window still being built) has the work run
    meanwhile. Needs the running loop."""
    loop = asyncio.get_running_loop()
    call = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
    for _attempt in range(3):
        lane = io_lane()
        try:
            return loop.run_in_executor(lane._executor(), call)
        except RuntimeError:  # that lane was shut down under us: take the next one
            if not lane.closed:
                raise
            continue
    raise RuntimeError("the I/O lane keeps closing")


async def gather_or_cancel(*aws: Awaitable[T]) -> list[T]:
    """``asyncio.gather``, except that the first failure cancels the others and waits for them
    before it is raised (as itself, not wrapped in an ``ExceptionGroup`` as ``TaskGroup`` would).

    Why: a plain gather leaves the siblings of a failed request running. When a mail round's
    folder listing got a 401, the other folder's request went on connecting against a client
    its caller closed next, and its loop ended with that connection attempt never run."""
    futures = [asyncio.ensure_future(a) for a in aws]
    try:
        return list(await asyncio.gather(*futures))
    except BaseException:
        for future in futures:
            future.cancel()
        await asyncio.gather(*futures, return_exceptions=True)
        raise


def daemon(fn: Callable[[], object], name: str) -> threading.Thread:
    """Start ``fn`` on a named daemon thread: fire-and-forget work nothing may wait for at exit
    (a warm-up, a watchdog); prefer ``io`` for anything whose result matters."""
    thread = threading.Thread(target=fn, name=name, daemon=True)
    thread.start()
    return thread


def shutdown(*, wait: bool = True) -> None:
    """Close the I/O lane (finishing what it runs, with ``wait``); the store closes its own."""
    global _io
    with _io_lock:
        lane, _io = _io, None
    if lane is not None:
        lane.close(wait=wait)


__all__ = [
    "DB_LANE",
    "IO_LANE",
    "IO_WORKERS",
    "Lane",
    "daemon",
    "db_lane",
    "gather_or_cancel",
    "io",
    "io_lane",
    "shutdown",
]
