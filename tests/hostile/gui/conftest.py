"""GUI fixtures of the hostile-rendering tests: real widgets offscreen on the qasync loop over a
real store (the desktop's language manager and app context, scoped to this folder)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

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
from tests.support.resource_spy import FileOpenSpy, HitServer, write_png


def pytest_asyncio_loop_factories(config, item):  # type: ignore[no-untyped-def]
    return qasync_loop_factories("hostile-gui")


@pytest.fixture
def languages(qapp, services):  # type: ignore[no-untyped-def]
    make_qapp()
    manager = LanguageManager(services.paths.cache)
    manager.apply("zh_CN")
    yield manager
    manager.apply("zh_CN")


@pytest.fixture
def ctx(qapp, languages, services):  # type: ignore[no-untyped-def]
    quits = qapp.quitOnLastWindowClosed()
    qapp.setQuitOnLastWindowClosed(False)
    context: AppContext = build_context(App(services))
    yield context
    context.hub.detach()
    assert context.notifications is not None
    context.notifications.detach()
    qapp.setQuitOnLastWindowClosed(quits)


@pytest.fixture
def spy_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "bait"
    folder.mkdir()
    write_png(folder / "pixel.png")
    return folder


@pytest.fixture
def file_spy(spy_dir: Path) -> Iterator[FileOpenSpy]:
    if not FileOpenSpy.available():
        pytest.skip("needs Linux inotify to witness file opens")
    with FileOpenSpy(spy_dir) as spy:
        yield spy


@pytest.fixture
def hits() -> Iterator[HitServer]:
    with HitServer() as server:
        yield server


def pytest_collection_modifyitems(items):  # type: ignore[no-untyped-def]
    for item in items:
        if "tests/hostile/gui" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_ignore("This plugin does not support"))
