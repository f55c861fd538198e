"""Shared fixtures: every location redirected to a temporary place (qutebrowser-style).

Nothing a test does touches the real data folder, keyring or network: the data folder, settings,
logs and keyring backend all point into ``tmp_path``; every ``INQUIRY_BRIDGE_*`` variable from the
developer's shell is removed first.

No test depends on the hour it runs at: ``INQUIRY_BRIDGE_NOW`` is set to a working-day morning in
Sydney (``TEST_NOW``) for every test, so commands run in-process or as child processes read that
clock, not the machine's. Tests about another moment (quiet hours at 02:00) set their own.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ["PYTHON_KEYRING_BACKEND"] = "keyrings.alt.file.PlaintextKeyring"

import pytest

from core.clock import FakeClock
from core.events import RecordingBus
from core.services import Services, build_services

# Monday 30 November 2026, 10:00 in Sydney (AEDT, +11:00): outside quiet hours, a working day.
TEST_NOW = "2026-11-30T10:00:00+11:00"

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "dev"
if not CORPUS.is_dir():  # CI clones main into another folder with shared/ beside it
    CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "dev"


def pytest_terminal_summary(terminalreporter, exitstatus, config):  # type: ignore[no-untyped-def]
    """Leave the run's counts where ``.ci/run`` can repeat them as its last line.

    Why: CI reads the closing lines of its output for the test result, and ``.ci/run`` builds and
    smoke-tests the bundle after the suite; ``CI_TEST_SUMMARY`` names the file to write.
    """
    target = os.environ.get("CI_TEST_SUMMARY")
    if not target:
        return
    stats = terminalreporter.stats
    failed = len(stats.get("failed", [])) + len(stats.get("error", []))
    Path(target).write_text(
        f"{len(stats.get('passed', []))} passed, {failed} failed, "
        f"{len(stats.get('skipped', []))} skipped\n",
        encoding="utf-8",
    )


@pytest.fixture(autouse=True)
def clean_environ(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    for key in list(os.environ):
        if key.startswith("INQUIRY_BRIDGE_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", TEST_NOW)
    keyring_home = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_DATA_HOME", str(keyring_home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(keyring_home / "config"))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")


@pytest.fixture(autouse=True)
def source_language_after_each_test():  # type: ignore[no-untyped-def]
    """Qt translators are process-wide: a test that opens the app in zh_CN would otherwise leave
    every later test's widgets in Chinese. Each test starts from the source (English) strings;
    tests about a language apply it themselves."""
    yield
    i18n = sys.modules.get("desktop.i18n")
    if i18n is None:
        return
    from PySide6.QtCore import QCoreApplication

    app = QCoreApplication.instance()
    if app is not None:
        for translator in list(i18n._installed):
            app.removeTranslator(translator)
    i18n._installed.clear()
    i18n._current = i18n.DEFAULT_LANGUAGE  # as freshly imported


@pytest.fixture(autouse=True)
def no_settings_opener_after_each_test():  # type: ignore[no-untyped-def]
    """打开 AI 设置 opens the settings of the DesktopApp that registered it; a later test must not
    reach an app that an earlier test left behind."""
    yield
    ai_needed = sys.modules.get("desktop.ai_needed")
    if ai_needed is not None:
        ai_needed.set_opener(None)


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("INQUIRY_BRIDGE_HOME", str(folder))
    return folder


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def services(home: Path, clock: FakeClock):  # type: ignore[no-untyped-def]
    svc: Services = build_services(home, clock=clock, bus=RecordingBus())
    yield svc
    svc.close()


CORPUS_MISSING = (
    "needs the labelled corpus ../shared/corpus/dev beside the repository, which is not there "
    "(a lone clone): skipped"
)


def corpus_present() -> bool:
    return (CORPUS / "labels.json").exists()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test marked ``corpus`` skips, with the reason, in a clone without ../shared beside it,
    so the README's test command passes there; with the corpus present it runs."""
    if item.get_closest_marker("corpus") is not None and not corpus_present():
        pytest.skip(CORPUS_MISSING)


@pytest.fixture
def corpus_dir() -> Path:
    if not corpus_present():
        pytest.skip(CORPUS_MISSING)
    return CORPUS


@pytest.fixture(scope="session")
def postgres_server():  # type: ignore[no-untyped-def]
    """One real PostgreSQL for the whole run (``tests.support.postgres``); skipped with the
    reason where the server binaries are missing (CI installs them: ``.ci/run``)."""
    from tests.support import postgres

    reason = postgres.available()
    if reason is not None:
        pytest.skip(reason)
    server = postgres.PostgresServer().start()
    yield server
    server.stop()


@pytest.fixture
def pg_url(postgres_server) -> str:  # type: ignore[no-untyped-def]
    """The URL of a fresh, empty PostgreSQL database of this test's own."""
    url: str = postgres_server.new_database()
    return url
