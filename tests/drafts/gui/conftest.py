"""GUI fixtures of the drafting area: real widgets offscreen, async tests on the qasync loop."""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
import qasync
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

from desktop.app import make_qapp
from desktop.i18n import LanguageManager


def pytest_asyncio_loop_factories(config, item):  # type: ignore[no-untyped-def]
    def factory() -> asyncio.AbstractEventLoop:
        loop = qasync.QEventLoop(QApplication.instance() or make_qapp())
        # Plain threads as the default executor: qasync's QThread workers outlive the loop and,
        # collected later from some other thread, make Qt warn inside unrelated tests.
        loop.set_default_executor(ThreadPoolExecutor(max_workers=4, thread_name_prefix="gui-test"))
        return loop

    return {"qasync": factory}


@pytest.fixture
def app(qapp):  # type: ignore[no-untyped-def]
    return make_qapp()


@pytest.fixture
def zh(app, services):  # type: ignore[no-untyped-def]
    manager = LanguageManager(services.paths.cache)
    manager.apply("zh_CN")
    yield manager
    manager.apply("zh_CN")


async def wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


@pytest.fixture(autouse=True)
def collect_widgets_on_the_gui_thread(app):  # type: ignore[no-untyped-def]
    """Collect each test's widget cycles here, on the GUI thread; left to chance, the cyclic GC
    may run in a store worker thread and destroy Qt timers there."""
    yield
    for widget in QApplication.topLevelWidgets():
        widget.close()
        widget.deleteLater()
    QApplication.processEvents()
    # deleteLater is not honoured by processEvents() outside a running loop: flush it here
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):  # type: ignore[no-untyped-def]
    """After every fixture (the per-test qasync loop included) is gone, collect its Qt objects
    on this, the GUI thread — otherwise a later test's worker thread may collect them and Qt
    warns "Timers cannot be stopped from another thread" inside an unrelated test."""
    yield
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
