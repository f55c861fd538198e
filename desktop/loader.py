"""The load/refresh pattern views share: the newest load wins, and ``ready`` waits for it.

A view (the board, the inquiry detail) reloads when the owner changes what it shows and when a
hub signal says its data changed. Loads overlap: a slow answer for an older query must not
overwrite a newer one. ``Loader.start`` numbers each load and hands the number to the coroutine;
the coroutine applies its answer only while ``is_current(number)`` holds. Tests and benchmarks
await ``ready`` to know the view shows the latest data.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from collections.abc import Coroutine

from desktop.aio import spawn


class Loader:
    def __init__(self) -> None:
        self.generation = 0
        self._task: asyncio.Future[None] | None = None

    def start(self, load: Callable[[int], Coroutine[object, None, None]]) -> asyncio.Future[None]:
        """Start ``load(generation)``, superseding every earlier load; returns its task."""
        self.generation += 1
        self._task = spawn(load(self.generation))
        return self._task

    def is_current(self, generation: int) -> bool:
        """No newer load was started since ``generation``."""
        return generation == self.generation

    @property
    def busy(self) -> bool:
        return self._task is not None and not self._task.done()

    async def ready(self) -> None:
        """Wait until the newest load has finished (loads started meanwhile included)."""
        while self._task is not None and not self._task.done():
            await asyncio.wait({self._task})
