"""Languages: zh_CN by default, English at runtime without a restart, Qt's own dialogs too,
and no desktop string without a Chinese translation."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from PySide6.QtWidgets import QDialogButtonBox, QMessageBox

from desktop.i18n import current_language, ensure_qm
from desktop.main_window import MainWindow
from tests.support.qt import settles

ROOT = Path(__file__).resolve().parents[2]


@settles
async def test_switching_language_retranslates_open_windows(ctx, languages, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    await window.board.ready()
    assert window.tabs.tabText(0) == "看板"
    assert window.board.detail.advance_button.text() == "推进阶段"
    assert (
        window.board.model.headerData(
            0, __import__("PySide6.QtCore").QtCore.Qt.Orientation.Horizontal
        )
        == "客户"
    )
    languages.apply("en")
    await asyncio.sleep(0.05)  # the loop delivers LanguageChange (no nested processEvents)
    assert current_language() == "en"
    assert window.tabs.tabText(0) == "Board"
    assert window.board.detail.advance_button.text() == "Advance stage"
    assert window.board.search.placeholderText() == "Search name, email, phone or suburb"
    languages.apply("zh_CN")
    await asyncio.sleep(0.05)  # the loop delivers LanguageChange (no nested processEvents)
    assert window.sync_action.text() == "立即同步"
    assert window.board.class_filter.itemText(1) == "A 上门量尺"


def test_qt_standard_buttons_follow_the_language(app, languages) -> None:  # type: ignore[no-untyped-def]
    box = QMessageBox(QMessageBox.Icon.Warning, "t", "x", QMessageBox.StandardButton.Cancel)
    assert box.button(QMessageBox.StandardButton.Cancel).text() == "取消"
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    assert buttons.button(QDialogButtonBox.StandardButton.Close).text() == "关闭"


def test_qm_is_built_from_the_ts_into_the_cache(tmp_path) -> None:  # type: ignore[no-untyped-def]
    qm = ensure_qm("zh_CN", tmp_path)
    assert qm is not None and qm.exists() and qm.stat().st_size > 1000
    assert ensure_qm("zh_CN", tmp_path) == qm  # cached by content hash


def test_every_desktop_string_has_a_zh_cn_translation() -> None:
    """Runs lupdate over desktop/ in a temp copy of the .ts and fails on any string missing."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "translations" / "update.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout + result.stderr
