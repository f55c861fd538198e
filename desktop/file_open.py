"""Opening a file from mail with a click: documents open, programs and disguised names never.

``core.mail.attachment_risk.judge_file`` decides; this module is the desktop's side of it: a
runnable or disguised file gets a warning naming it (its hidden characters made visible) and
在文件夹中显示, which opens the folder that holds it, never the file. The warning is a
non-modal ``QMessageBox`` child of the widget that asked.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import Qt
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QWidget

from core.app.types import FileVerdict
from core.app.types import judge_file

__all__ = ["open_file", "show_in_folder"]


def show_in_folder(path: Path) -> bool:
    """Open the folder holding ``path`` (the file itself is not opened)."""
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path.parent)))


def _warn(parent: QWidget, path: Path, verdict: FileVerdict) -> QMessageBox:
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setWindowTitle(QCoreApplication.translate("FileOpen", "This file was not opened"))
    if verdict.reason == "disguised":
        why = QCoreApplication.translate(
            "FileOpen",
            "The name of “%1” hides what it really is (hidden characters, padding or a second "
            "extension); it is a program or script of type .%2.",
        )
    else:
        why = QCoreApplication.translate(
            "FileOpen",
            "“%1” is a program or script (.%2): opening it would run it on this computer.",
        )
    box.setText(
        why.replace("%1", verdict.shown).replace("%2", verdict.extension or "?")
        + "\n\n"
        + QCoreApplication.translate(
            "FileOpen",
            "Inquiry Bridge never opens such files with a click. If you trust the sender and "
            "really need it, find it in its folder.",
        )
    )
    folder = box.addButton(
        QCoreApplication.translate("FileOpen", "Show in folder"), QMessageBox.ButtonRole.ActionRole
    )
    box.addButton(
        QCoreApplication.translate("FileOpen", "Close"), QMessageBox.ButtonRole.RejectRole
    )
    box.finished.connect(lambda _r: show_in_folder(path) if box.clickedButton() is folder else None)
    box.open()
    return box


def open_file(parent: QWidget, path: Path, name: str) -> bool:
    """Open ``path`` with the system's viewer, unless its name (as mailed, or on disk) says it
    runs: then warn and offer its folder. True only when the file was handed to the viewer."""
    for candidate in (name, path.name):
        verdict = judge_file(candidate)
        if verdict.runnable:
            _warn(parent, path, verdict)
            return False
    return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))
