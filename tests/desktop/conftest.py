"""GUI fixtures: real widgets offscreen on the qasync loop, over a real store.

Async tests run on a ``qasync.QEventLoop`` (pytest-asyncio's loop-factory hook, scoped to this
folder), so coroutines the widgets spawn and Qt's queued signals are served by the same loop.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Awaitable, Callable
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
import qasync
from PySide6.QtWidgets import QApplication

from desktop.app import make_qapp
from desktop.context import AppContext, build_context
from desktop.i18n import LanguageManager


def pytest_asyncio_loop_factories(config, item):  # type: ignore[no-untyped-def]
    """Every async test in tests/desktop runs on the qasync loop."""

    def factory() -> asyncio.AbstractEventLoop:
        return qasync.QEventLoop(QApplication.instance() or make_qapp())

    return {"qasync": factory}


@pytest.fixture
def app(qapp):  # type: ignore[no-untyped-def]
    return make_qapp()


@pytest.fixture
def languages(app, services):  # type: ignore[no-untyped-def]
    manager = LanguageManager(services.paths.cache)
    manager.apply("zh_CN")
    yield manager
    manager.apply("zh_CN")


@pytest.fixture
def ctx(app, services, languages):  # type: ignore[no-untyped-def]
    context: AppContext = build_context(services)
    yield context
    context.hub.detach()


async def settle(timeout: float = 10.0) -> None:
    """Wait until every other task on the loop has finished.

    Called at the end of each GUI test (``@settles``) while the loop still runs: a task parked
    on a worker-thread future when the test returns never wakes up again on qasync, and the
    runner's shutdown then waits for it forever.
    """
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


async def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Let the loop run until ``condition()`` holds (fails the test after ``timeout``)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


def pytest_collection_modifyitems(items):  # type: ignore[no-untyped-def]
    """The offscreen platform warns that it cannot propagate size hints of shown top-level
    windows; that is the test platform talking, not the app."""
    for item in items:
        if "tests/desktop" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_ignore("This plugin does not support"))
