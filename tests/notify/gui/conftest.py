"""The Telegram settings page runs on the qasync loop, like in the app (scoped to this folder)."""

from __future__ import annotations

import asyncio
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
import qasync
from PySide6.QtWidgets import QApplication

from desktop.app import make_qapp
from desktop.i18n import LanguageManager


def pytest_asyncio_loop_factories(config, item):  # type: ignore[no-untyped-def]
    def factory() -> asyncio.AbstractEventLoop:
        return qasync.QEventLoop(QApplication.instance() or make_qapp())

    return {"qasync": factory}


@pytest.fixture
def zh(qapp, services):  # type: ignore[no-untyped-def]
    make_qapp()
    manager = LanguageManager(services.paths.cache)
    manager.apply("zh_CN")
    yield manager
