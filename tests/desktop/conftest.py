"""GUI fixtures: real widgets offscreen on the qasync loop, over a real store.

The loop, widget clean-up and waiting helpers are shared with the other GUI folders
(``tests.support.qt``); this file adds the desktop's language manager and app context.
"""

from __future__ import annotations

import pytest

from core.app import App
from desktop.app import make_qapp
from desktop.context import AppContext, build_context
from desktop.i18n import LanguageManager
from tests.support.qt import (
    collect_widgets_on_the_gui_thread,  # noqa: F401 (an autouse fixture)
    pytest_runtest_teardown,  # noqa: F401 (a hook)
    qasync_loop_factories,
)


def pytest_asyncio_loop_factories(config, item):  # type: ignore[no-untyped-def]
    """Every async test in tests/desktop runs on the qasync loop."""
    return qasync_loop_factories("desktop-gui")


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
    """The folder's context. The loop keeps running when a test closes its last window (in
    the real app ``DesktopApp`` decides that: the tray keeps it, else the app quits); a window
    closed while its reads were still on their way stopped the test's loop under it."""
    quits = app.quitOnLastWindowClosed()
    app.setQuitOnLastWindowClosed(False)
    context: AppContext = build_context(App(services))
    yield context
    context.hub.detach()
    assert context.notifications is not None
    context.notifications.detach()
    app.setQuitOnLastWindowClosed(quits)


def pytest_collection_modifyitems(items):  # type: ignore[no-untyped-def]
    """The offscreen platform warns that it cannot propagate size hints of shown top-level
    windows; that is the test platform talking, not the app."""
    for item in items:
        if "tests/desktop" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_ignore("This plugin does not support"))
