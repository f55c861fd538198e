"""GUI fixtures of the rhythm's windows: real widgets offscreen on the qasync loop, real store
(the desktop's language manager and app context, scoped to this folder)."""

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
    return qasync_loop_factories("rhythm-gui")


@pytest.fixture
def languages(qapp, services):  # type: ignore[no-untyped-def]
    make_qapp()
    manager = LanguageManager(services.paths.cache)
    manager.apply("zh_CN")
    yield manager
    manager.apply("zh_CN")


@pytest.fixture
def ctx(qapp, languages, services):  # type: ignore[no-untyped-def]
    """The folder's context. The app keeps running when a rhythm window closes (in the real
    app the main window or the tray is always there), as ``DesktopApp`` sets it up."""
    quits = qapp.quitOnLastWindowClosed()
    qapp.setQuitOnLastWindowClosed(False)
    context: AppContext = build_context(App(services))
    yield context
    context.hub.detach()
    assert context.notifications is not None
    context.notifications.detach()
    qapp.setQuitOnLastWindowClosed(quits)


def pytest_collection_modifyitems(items):  # type: ignore[no-untyped-def]
    for item in items:
        if "tests/rhythm/gui" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_ignore("This plugin does not support"))
