"""A message's files as a row of buttons (打开 / 另存为…), with thumbnails for images.

Names are shown with their hidden characters made visible; 打开 goes through
``desktop.file_open`` (a program or script is never opened by a click), and a copy saved with
另存为… carries the Mark-of-the-Web on Windows, as the stored original does."""

from __future__ import annotations

import importlib.util
from functools import partial
from pathlib import Path

from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtGui import QImageReader
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QFileDialog
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMenu
from PySide6.QtWidgets import QStyle
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import FrontEnd
from core.app.types import AttachmentInfo
from core.app.types import judge_file
from core.app.types import plain_tooltip
from desktop.file_open import open_file

HAS_QTPDF = importlib.util.find_spec("PySide6.QtPdf") is not None


def _size_text(size: int) -> str:
    if size >= 1_000_000:
        return f"{size / 1_000_000:.1f} MB"
    return f"{max(1, size // 1000)} KB"


SHOWN_AT_FIRST = 12  # files with a button when the message opens
MORE_STEP = 48  # files each press of "Show N more…" adds


class AttachmentStrip(QWidget):
    """A row of files, each a button with 打开 / 另存为… (and a thumbnail for images): an
    email's attachments, or the files the owner added from his computer.

    Lazily: a button (and a thumbnail read from disk) costs time, and a mail of 10,000 parts
    once took 17.6 s to open. The first ``SHOWN_AT_FIRST`` files get buttons; "Show N more…"
    adds ``MORE_STEP`` at a time. ``not_kept`` files the intake did not keep (over its cap per
    mail) are told in one line."""

    def __init__(
        self,
        attachments: tuple[AttachmentInfo, ...],
        app: FrontEnd | None = None,
        parent: QWidget | None = None,
        *,
        not_kept: int = 0,
    ) -> None:
        super().__init__(parent)
        self.app = app  # the data folder the stored paths are in; it saves the copies
        self.home = app.home if app is not None else None
        self.attachment_buttons: list[QToolButton] = []
        self.pending = list(attachments)  # files without a button yet
        self.not_kept = not_kept
        self.row = QHBoxLayout(self)
        self.row.setContentsMargins(0, 0, 0, 0)
        self.more_button = QToolButton(self)
        self.more_button.clicked.connect(lambda: self.show_more(MORE_STEP))
        self.not_kept_label = QLabel(self)
        self.not_kept_label.setVisible(not_kept > 0)
        self.row.addWidget(self.more_button)
        self.row.addWidget(self.not_kept_label)
        self.row.addStretch(1)
        self.show_more(SHOWN_AT_FIRST)

    def show_more(self, count: int) -> None:
        """Buttons for the next ``count`` files (before the "more" button)."""
        batch, self.pending = self.pending[:count], self.pending[count:]
        at = self.row.indexOf(self.more_button)
        for offset, attachment in enumerate(batch):
            self.row.insertWidget(at + offset, self._attachment_widget(attachment))
        self.more_button.setVisible(bool(self.pending))
        self.retranslate()

    def _attachment_widget(self, attachment: AttachmentInfo) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        stored = self.path_of(attachment)
        if stored and stored.exists() and attachment.content_type.startswith("image/"):
            reader = QImageReader(str(stored))
            size = reader.size()
            if size.isValid():
                size.scale(QSize(160, 120), Qt.AspectRatioMode.KeepAspectRatio)
                reader.setScaledSize(size)
            image = reader.read()
            if not image.isNull():
                thumb = QLabel()
                thumb.setPixmap(QPixmap.fromImage(image))
                thumb.setToolTip(plain_tooltip(judge_file(attachment.filename).shown))
                column.addWidget(thumb)
        button = QToolButton()
        verdict = judge_file(attachment.filename)
        button.setText(f"{verdict.shown} ({_size_text(attachment.size)})")
        if verdict.runnable:
            button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning))
        else:
            button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_FileIcon))
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        button.setProperty("attachment_id", attachment.id)
        menu = QMenu(button)
        open_action = QAction(menu)
        save_action = QAction(menu)
        open_action.triggered.connect(partial(self.open_attachment, attachment))
        save_action.triggered.connect(partial(self.save_attachment, attachment))
        menu.addAction(open_action)
        menu.addAction(save_action)
        button.setMenu(menu)
        available = stored is not None and stored.exists()
        button.setEnabled(available)
        if not available:
            button.setToolTip(attachment.skipped_reason or "")
        button._actions = (open_action, save_action)  # type: ignore[attr-defined]
        self.attachment_buttons.append(button)
        column.addWidget(button)
        return box

    def path_of(self, attachment: AttachmentInfo) -> Path | None:
        """Stored paths are relative to the data folder (it can move); absolute ones are kept."""
        if not attachment.stored_path:
            return None
        path = Path(attachment.stored_path)
        return path if path.is_absolute() or self.home is None else self.home / path

    def open_attachment(self, attachment: AttachmentInfo) -> bool:
        """Open with the system viewer (PDF preview too: QtPdf is not in this PySide6 build);
        a program or script only gets a warning and 在文件夹中显示."""
        path = self.path_of(attachment)
        if path is None:
            return False
        return open_file(self, path, attachment.filename)

    def save_attachment(self, attachment: AttachmentInfo) -> None:
        if not attachment.stored_path:
            return
        dialog = QFileDialog(self, self.tr("Save attachment"))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.selectFile(attachment.filename)
        dialog.fileSelected.connect(lambda target: self.copy_attachment(attachment, Path(target)))
        dialog.open()

    def copy_attachment(self, attachment: AttachmentInfo, target: Path) -> Path:
        source = self.path_of(attachment)
        if source is None or self.app is None:  # no data folder: nothing to copy from
            raise FileNotFoundError(attachment.filename)
        return self.app.attachment_copies.save(source, target)  # marked as from the internet

    def retranslate(self) -> None:
        self.more_button.setText(
            self.tr("Show %1 more…").replace("%1", str(min(MORE_STEP, len(self.pending))))
        )
        self.more_button.setToolTip(
            self.tr("%1 more files in this email").replace("%1", str(len(self.pending)))
        )
        self.not_kept_label.setText(
            self.tr("%1 more attachments not kept (too many in one email)").replace(
                "%1", str(self.not_kept)
            )
        )
        for button in self.attachment_buttons:
            open_action, save_action = button._actions  # type: ignore[attr-defined]
            open_action.setText(self.tr("Open"))
            save_action.setText(self.tr("Save as…"))
