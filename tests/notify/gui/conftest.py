"""The Telegram settings page runs on the qasync loop, like in the app (scoped to this folder;
shared plumbing in ``tests.support.qt``)."""

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
    return qasync_loop_factories("tg-gui", workers=2)


@pytest.fixture
def zh(qapp, services):  # type: ignore[no-untyped-def]
    make_qapp()
    manager = LanguageManager(services.paths.cache)
    manager.apply("zh_CN")
    yield manager
