"""GUI fixtures of the drafting area: real widgets offscreen, async tests on the qasync loop
(shared plumbing in ``tests.support.qt``)."""

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
    return qasync_loop_factories("gui-test")


@pytest.fixture
def app(qapp):  # type: ignore[no-untyped-def]
    return make_qapp()


@pytest.fixture
def zh(app, services):  # type: ignore[no-untyped-def]
    manager = LanguageManager(services.paths.cache)
    manager.apply("zh_CN")
    yield manager
    manager.apply("zh_CN")


@pytest.fixture(autouse=True)
def collect_widgets_on_the_gui_thread(app):  # type: ignore[no-untyped-def]
    yield
    close_widgets_and_collect()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item, nextitem):  # type: ignore[no-untyped-def]
    yield
    collect_after_teardown()
