"""GUI fixtures of the drafting area: real widgets offscreen, async tests on the qasync loop
(shared plumbing in ``tests.support.qt``)."""

from __future__ import annotations

import pytest

from desktop.app import make_qapp
from desktop.i18n import LanguageManager
from tests.support.qt import (
    collect_widgets_on_the_gui_thread,  # noqa: F401 (an autouse fixture)
    pytest_runtest_teardown,  # noqa: F401 (a hook)
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


@pytest.fixture
async def folder_app(services):  # type: ignore[no-untyped-def]
    """The ``App`` of the test's data folder, as the desktop builds it over the folder's
    ``Services`` (``desktop.context.build_context``): one store, bus, clock and settings with
    the ``services`` the test seeds, so a window hears the ``DraftChanged`` drafting publishes."""
    from core.app import App

    built = App(services)
    yield built
    await built.aclose()
    built.attention.detach()
