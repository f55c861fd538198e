"""The Telegram settings page runs on the qasync loop, like in the app (scoped to this folder;
shared plumbing in ``tests.support.qt``)."""

from __future__ import annotations

import pytest

from desktop.app import make_qapp
from desktop.i18n import LanguageManager
from tests.support.qt import (
    close_widgets_and_collect,
    collect_after_teardown,
    qasync_loop_factories,
)


def pytest_asyncio_loop_factories(config, item):  # type: ignore[no-untyped-def]
    return qasync_loop_factories("tg-gui", workers=2)


@pytest.fixture
def zh(qapp, services):  # type: ignore[no-untyped-def]
    make_qapp()
    manager = LanguageManager(services.paths.cache)
    manager.apply("zh_CN")
    yield manager


@pytest.fixture(autouse=True)
def collect_widgets_on_the_gui_thread(qapp):  # type: ignore[no-untyped-def]
    yield
    close_widgets_and_collect()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):  # type: ignore[no-untyped-def]
    yield
    collect_after_teardown()
