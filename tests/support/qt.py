"""Shared plumbing for the GUI tests (tests/desktop, tests/drafts/gui, tests/notify/gui).

Async GUI tests run on a ``qasync.QEventLoop`` so coroutines the widgets spawn and Qt's queued
signals are served by one loop, as in the app. Two rules keep Qt quiet and alive:

* Qt objects must die on the GUI thread. Left to the cyclic GC they may be collected later in
  a worker thread of an unrelated test (the store writer, Whisper's worker), where Qt warns
  "Timers cannot be stopped from another thread" or crashes. So the loop's default executor is
  plain threads (qasync's QThread workers outlive the loop), and every test ends with its
  widgets closed, deferred deletes flushed and a collection on this thread.
* A task parked on a worker-thread future when a test returns never wakes up again on qasync,
  and the runner's shutdown then waits for it forever: ``settles`` waits for every task first.

A GUI folder's conftest imports ``collect_widgets_on_the_gui_thread`` (an autouse fixture)
and ``pytest_runtest_teardown`` (a hook) from here -- pytest registers both from the conftest's
namespace -- and answers ``pytest_asyncio_loop_factories`` with ``qasync_loop_factories``.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import os
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
import qasync
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from desktop.app import make_qapp


def qasync_loop_factories(thread_prefix: str, workers: int = 4) -> dict[str, Any]:
    """The ``pytest_asyncio_loop_factories`` answer: a qasync loop over the one QApplication."""

    def factory() -> asyncio.AbstractEventLoop:
        loop: asyncio.AbstractEventLoop = qasync.QEventLoop(QApplication.instance() or make_qapp())
        loop.set_default_executor(
            ThreadPoolExecutor(max_workers=workers, thread_name_prefix=thread_prefix)
        )
        return loop

    return {"qasync": factory}


def close_widgets_and_collect() -> None:
    """End of a test: close every top-level widget and collect it here, on the GUI thread."""
    for widget in QApplication.topLevelWidgets():
        widget.close()
        widget.deleteLater()
    QApplication.processEvents()
    # deleteLater is not honoured by processEvents() outside a running loop: flush it here
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def collect_after_teardown() -> None:
    """After every fixture (the per-test qasync loop included) is gone: collect on this thread."""
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()


@pytest.fixture(autouse=True)
def collect_widgets_on_the_gui_thread(qapp):  # type: ignore[no-untyped-def]
    """Every GUI test ends with its widgets closed and collected on this thread."""
    yield
    close_widgets_and_collect()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):  # type: ignore[no-untyped-def]
    """After every fixture (the per-test qasync loop included) is gone: collect on this thread."""
    yield
    collect_after_teardown()


async def wait_until(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    """Let the loop run until ``condition()`` holds (fails the test after ``timeout``).

    The timeout only bounds a failure: a condition that holds returns at once, so it is
    generous for a loaded CI machine rather than tuned to this one."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


async def settle(timeout: float = 10.0) -> None:
    """Wait until every other task on the loop has finished (see the module docstring)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    current = asyncio.current_task()
    while loop.time() < deadline:
        if all(t.done() or t is current for t in asyncio.all_tasks()):
            return
        await asyncio.sleep(0.01)
    pending = [t for t in asyncio.all_tasks() if not t.done() and t is not current]
    raise AssertionError(f"tasks still running after the test: {pending}")


def settles(test: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    """Decorator for async GUI tests: settle the loop before the test returns."""

    @functools.wraps(test)
    async def wrapper(*args: Any, **kwargs: Any) -> None:
        try:
            await test(*args, **kwargs)
        finally:
            await settle()

    return wrapper


def read_next_message_box() -> list[tuple[str, list[str]]]:
    """Read and dismiss the next modal QMessageBox once it opens (a dialog shown with
    ``exec()`` blocks the test): its text and button labels land in the returned list."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QMessageBox

    shown: list[tuple[str, list[str]]] = []

    def read_and_close() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, read_and_close)
            return
        shown.append((box.text(), [b.text() for b in box.buttons()]))
        box.reject()

    QTimer.singleShot(0, read_and_close)
    return shown


class QuitRecorder:
    """Stands in for the QApplication when a test calls ``DesktopApp.quit()``.

    The real ``quit()`` ends ``app.exec()``, which is the qasync loop the test itself runs on:
    if the test then awaits anything that yields (closing its HTTP clients), pytest-asyncio
    fails it with "Event loop stopped before Future completed" -- only when a connection was
    still open, so now and then. The recorder counts the call and forwards everything else."""

    def __init__(self, app: Any) -> None:
        self._app = app
        self.quit_calls = 0

    def quit(self) -> None:
        self.quit_calls += 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self._app, name)
