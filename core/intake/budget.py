"""One message's budget: a bug or a runaway message costs that message, never the run.

Why: hostile mail once stopped intake for good (an exception escaped the understanding step and
ended the run; a 5 MB body held every later message for minutes). Understanding a message runs
inside ``guarded``: an exception becomes the final disposition ``failed:internal`` and going over
the time budget becomes ``failed:timeout`` -- both recorded with the raw bytes kept, while the
run goes on. Reasons in ``FINAL_REASONS`` are not retried (the same bytes would fail again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from core import tasks

log = logging.getLogger(__name__)
T = TypeVar("T")

if TYPE_CHECKING:
    from core.intake.worker_pool import WorkerPool


class RunIn(Protocol):
    """Where ``within`` runs ``fn(*args)`` instead of a thread (the run's worker process)."""

    def __call__(self, fn: Callable[..., T], /, *args: Any) -> Awaitable[T]: ...


# Wall-clock seconds one message may spend in the offline rules (parsing is bounded by the size
# caps in core.mail.limits; a model call has its own timeouts and retries in LLMClient).
RULES_BUDGET_S = 30.0
FINAL_REASONS = ("internal", "timeout")


async def guarded(
    work: Awaitable[T], failure: Callable[[str, str], T], *, what: str = "message"
) -> T:
    """``await work``; any exception becomes ``failure("internal", detail)`` (logged)."""
    try:
        return await work
    except asyncio.CancelledError:
        raise
    except Exception as exc:
        log.exception("understanding %s failed", what)
        return failure("internal", f"{type(exc).__name__}: {exc}"[:500])


async def within(
    fn: Callable[..., T],
    *args: Any,
    run_in: RunIn | None = None,
    seconds: float = RULES_BUDGET_S,
) -> T:
    """``fn(*args)`` off the event loop (``run_in``: e.g. the run's worker process, else a
    thread), raising ``TimeoutError`` after ``seconds`` without waiting for it to finish."""
    if run_in is not None:
        work: Awaitable[T] = run_in(fn, *args)
    else:
        work = tasks.io(fn, *args)
    return await asyncio.wait_for(work, timeout=seconds)


__all__ = ["FINAL_REASONS", "RULES_BUDGET_S", "guarded", "within", "worker_call"]


def worker_call(pool: WorkerPool) -> RunIn | None:
    """The run's worker-process ``call`` when its process is up and warm, else None (then
    ``within`` uses a thread: code running inline on the loop could not be timed out)."""
    warm = getattr(pool, "warm", None)
    if getattr(pool, "pool", None) is None or warm is None or not warm.done():
        return None
    if warm.cancelled() or warm.exception() is not None:
        return None
    return pool.call
