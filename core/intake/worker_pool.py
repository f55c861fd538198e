"""The intake's worker process: parsing and the offline rules, away from the event loop.

Why: parsing, quote stripping and the offline rules cost a few ms of pure-Python CPU per
message, which on the event loop's thread (the UI's, in the desktop) competes for the GIL with
everything else. A long run (first sync, ``ingest`` of a folder) starts a worker process after
``PARSE_IN_WORKER_AFTER`` messages and uses it as soon as it has warmed up (imports done), so
neither short runs nor the start of a long one ever wait for a process to spawn. ``spawn``
(not ``fork``: the process has threads); the worker exits by itself if this process is killed.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeAlias, TypeVar

from core import tasks
from core.mail.oversize import OVERSIZE_BYTES
from core.mail.parse import ParseBudget, ParseOutcome, parse_for_intake, stripped_text

log = logging.getLogger(__name__)
T = TypeVar("T")
# a message being parsed: the worker's future, or the outcome when it was parsed inline
Parsing: TypeAlias = "asyncio.Future[ParseOutcome] | ParseOutcome"

PARSE_IN_WORKER_AFTER = 24  # a run that reaches this many messages parses in a worker process
# (and a big mail, streamed from its file, always does: its parse would hold the GIL for seconds)


class WorkerPool:
    """One run's worker process (see the module docstring): ``submit`` parses a message,
    ``call`` runs any pure module-level function there; both run inline until it is warm."""

    def __init__(self, workers: int, budget: ParseBudget | None = None) -> None:
        self.workers = workers
        self.budget = budget or ParseBudget()
        self.seen = 0
        self.pool: ProcessPoolExecutor | None = None
        self.warm: asyncio.Future[str] | None = None

    def submit(self, raw: bytes | str) -> asyncio.Future[ParseOutcome] | ParseOutcome:
        """Start parsing ``raw`` (bytes, or the path of a big mail streamed from disk)."""
        self.seen += 1
        loop = asyncio.get_running_loop()
        big = isinstance(raw, str)  # a file: seconds of pure-Python line work
        if self.pool is None and self.workers > 0 and (big or self.seen >= PARSE_IN_WORKER_AFTER):
            self._start(loop)
        warm = self.warm
        ready = warm is not None and warm.done() and not warm.cancelled() and not warm.exception()
        if self.pool is not None and (ready or big):  # a big mail waits for the spawn, the loop not
            return loop.run_in_executor(self.pool, parse_for_intake, raw, self.budget)
        if big or len(raw) > OVERSIZE_BYTES:  # big bytes are not pickled over: a thread
            return asyncio.wrap_future(
                tasks.io_lane().submit(parse_for_intake, raw, self.budget), loop=loop
            )
        return parse_for_intake(raw, self.budget)

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        try:
            self.pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=watch_parent,
                initargs=(os.getpid(),),
            )
            self.warm = loop.run_in_executor(self.pool, stripped_text, "")
        except Exception:  # no processes allowed here: stay on the loop
            log.warning("cannot start a parser process; parsing inline", exc_info=True)
            self.workers = 0

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker process once it is warm, else here. ``fn`` must be a
        module-level pure function (it is pickled by name) -- the offline rules are."""
        warm, pool = self.warm, self.pool
        if pool is None or warm is None or not warm.done() or warm.cancelled() or warm.exception():
            return fn(*args)
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except Exception as exc:
            from concurrent.futures.process import BrokenProcessPool

            if not isinstance(exc, BrokenProcessPool | OSError):
                raise
            log.warning("worker process failed (%s); running %s inline", exc, fn.__name__)
            return fn(*args)

    async def result(
        self, parsing: asyncio.Future[ParseOutcome] | ParseOutcome, raw: bytes | str
    ) -> ParseOutcome:
        if not isinstance(parsing, asyncio.Future):
            return parsing
        try:
            return await parsing
        except Exception as exc:  # broken pool (worker killed …): parse here instead
            from concurrent.futures.process import BrokenProcessPool

            if not isinstance(exc, BrokenProcessPool | OSError):
                raise
            log.warning("parser process failed (%s); parsing inline", exc)
            return await tasks.io(parse_for_intake, raw, self.budget)

    async def close(self) -> None:
        if self.warm is not None and not self.warm.done():
            self.warm.cancel()
        if self.pool is not None:
            pool, self.pool = self.pool, None
            await tasks.io(pool.shutdown, wait=True, cancel_futures=True)


def watch_parent(parent_pid: int) -> None:
    """Worker-process initializer: exit when the parent dies (a killed ingest must not leave
    orphaned parser processes waiting forever on their task queue)."""
    import os
    import time

    from core import tasks

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent_pid:
                os._exit(0)

    tasks.daemon(watch, "parent-watch")
