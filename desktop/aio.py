"""One way to run background work from widgets: coroutines on the qasync loop.

``spawn`` starts a coroutine as a task, keeps a reference (so it is not garbage collected
mid-flight) and routes a failure to the app's error reporter (logged + Chinese dialog) instead of
the "exception never retrieved" warning. Slow reads go through ``Store.read`` (a worker thread), so
the coroutine itself never blocks the UI thread.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from collections.abc import Coroutine
from typing import TypeVar

log = logging.getLogger(__name__)
T = TypeVar("T")

_tasks: set[object] = set()  # references only: a task is not collected mid-flight
_reporter: Callable[[BaseException], None] | None = None


def set_error_reporter(reporter: Callable[[BaseException], None] | None) -> None:
    global _reporter
    _reporter = reporter


def report(exc: BaseException) -> None:
    if _reporter is not None:
        _reporter(exc)
    else:
        log.error("background task failed", exc_info=exc)


def loop_running() -> bool:
    """Whether an event loop runs here now (a Qt timer can fire after the app's loop stopped)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def spawn(
    coro: Coroutine[object, None, T],
    *,
    on_error: Callable[[BaseException], None] | None = None,
) -> asyncio.Future[T]:
    try:
        task = asyncio.ensure_future(coro)
    except RuntimeError:  # the loop has closed (the app quit; a Qt timer fired after it)
        coro.close()  # nothing will ever run it: say so quietly, not as "never awaited"
        log.debug("spawn after the event loop closed: %s dropped", coro)
        dropped: asyncio.Future[T] = asyncio.Future(loop=asyncio.new_event_loop())
        dropped.get_loop().close()
        dropped.cancel()
        return dropped
    _tasks.add(task)

    def _done(t: asyncio.Future[T]) -> None:
        _tasks.discard(t)
        if t.cancelled():
            return
        exc = t.exception()
        if exc is not None:
            (on_error or report)(exc)

    task.add_done_callback(_done)
    return task


class Loads:
    """A view's loads: each ``start`` runs ``load`` again (the latest is what the view shows),
    and ``ready`` waits until none is running (tests and screenshots wait on it)."""

    def __init__(self, load: Callable[[], Coroutine[object, None, None]]) -> None:
        self._load = load
        self.task: asyncio.Future[None] | None = None

    def start(self) -> asyncio.Future[None]:
        self.task = spawn(self._load())
        return self.task

    async def ready(self) -> None:
        while self.task is not None and not self.task.done():
            await asyncio.shield(self.task)


def pending_tasks() -> int:
    return len(_tasks)
