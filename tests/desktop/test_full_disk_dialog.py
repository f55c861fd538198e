"""A full disk, in the tray app: at start a Chinese dialog (then the CLI's one line, no traceback);
met by a write while the app runs, one Chinese sentence in a box, and the app goes on.

The disk is made full by ``tests.support.failing_fs`` (bytes written inside the data folder fail
with ``ENOSPC`` at the OS call): filling a real disk needs privileges CI does not have.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from core.cli.main import main as cli_main
from desktop.errors_ui import ErrorReporter
from desktop.i18n import LanguageManager
from desktop.launcher import gui_app
from desktop.launcher import main as launcher_main
from tests.support.failing_fs import failing
from tests.support.qt import read_next_message_box

ROOT = Path(__file__).resolve().parents[2]
FULL = "磁盘空间已满"


def _filled(home: Path, tmp_path: Path) -> None:
    folder = tmp_path / "eml"
    folder.mkdir()
    shutil.copy(ROOT / "resources" / "demo" / "13-li-na-utf8.eml", folder)
    assert cli_main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    LanguageManager(home / "cache").apply("zh_CN")


def test_a_full_folder_at_start_is_a_chinese_dialog_then_one_line(  # type: ignore[no-untyped-def]
    app, home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _filled(home, tmp_path)
    capsys.readouterr()
    shown = read_next_message_box()
    with failing("full", home):
        code = launcher_main(["--home", str(home)])  # the tray app's own entry point
    out, err = capsys.readouterr()
    assert code == 1
    [(text, buttons)] = shown
    assert FULL in text and "修复" not in buttons  # nothing to repair: free some space
    assert "Traceback" not in out + err and "Logging error" not in err
    assert err.count("\n") == 1 and FULL in err, err
    assert not list(home.glob(".write-probe-*"))  # the probe's 0-byte file is gone too


def test_a_full_disk_met_while_running_is_one_chinese_line_not_a_crash(  # type: ignore[no-untyped-def]
    app, home: Path, tmp_path: Path, qtbot, capsys: pytest.CaptureFixture[str]
) -> None:
    _filled(home, tmp_path)
    running = gui_app(str(home))
    reporter = ErrorReporter(home / "logs")
    saved_hook = sys.excepthook
    sys.excepthook = reporter.excepthook  # as the app installs it (ErrorReporter.install)
    try:
        with failing("full", home):
            # an owner's change saved from a Qt slot meets the full disk
            QTimer.singleShot(0, lambda: running._services.settings.set("graph.first_sync_days", 7))
            qtbot.waitUntil(lambda: bool(reporter.shown), timeout=30000)
        boxes = [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox)]
        [message] = reporter.shown
        assert FULL in message and "\n" not in message.strip(), message  # one sentence
        assert [b.text() for b in boxes if b.isVisible()] == [message]
        assert "Traceback" not in "".join(capsys.readouterr())
        with running._services.store.session() as session:  # the app goes on: it still reads
            from sqlalchemy import func, select

            from core.db.models import Message

            assert session.scalar(select(func.count(Message.id))) == 1
    finally:
        sys.excepthook = saved_hook
        for box in QApplication.topLevelWidgets():
            if isinstance(box, QMessageBox):
                box.close()
        running.close()
