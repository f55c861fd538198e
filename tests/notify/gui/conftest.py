"""The Telegram settings page runs on the qasync loop, like in the app (scoped to this folder).

Qt objects must die on the GUI thread: left to the cyclic GC, they may be collected later in a
worker thread of an unrelated test (the store writer, Whisper's worker), where Qt warns "Timers
cannot be stopped from another thread" or crashes. So the loop's default executor is plain
threads (qasync's QThread workers outlive the loop), and every test ends with its widgets closed,
deferred deletes flushed and a collection here.
"""

from __future__ import annotations

import asyncio
import gc
import os
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
        loop.set_default_executor(ThreadPoolExecutor(max_workers=2, thread_name_prefix="tg-gui"))
        return loop

    return {"qasync": factory}


@pytest.fixture
def zh(qapp, services):  # type: ignore[no-untyped-def]
    make_qapp()
    manager = LanguageManager(services.paths.cache)
    manager.apply("zh_CN")
    yield manager


@pytest.fixture(autouse=True)
def collect_widgets_on_the_gui_thread(qapp):  # type: ignore[no-untyped-def]
    yield
    for widget in QApplication.topLevelWidgets():
        widget.close()
        widget.deleteLater()
    QApplication.processEvents()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):  # type: ignore[no-untyped-def]
    """After every fixture (the per-test qasync loop included) is gone, collect on this thread."""
    yield
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.collect()
