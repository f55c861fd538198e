"""The detail's notes panel: the owner's notes about the customer and a box to add one."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QListWidget
from PySide6.QtWidgets import QListWidgetItem
from PySide6.QtWidgets import QPlainTextEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import InquiryDetail
from desktop import text


class NotesPanel(QWidget):
    """Notes list, the edit box and its row of buttons (the view adds dictation to ``note_row``)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.notes = QListWidget()
        self.notes.setWordWrap(True)
        self.note_edit = QPlainTextEdit()
        self.note_edit.setFixedHeight(70)
        self.note_button = QPushButton()
        layout = QVBoxLayout(self)
        layout.addWidget(self.notes, 1)
        layout.addWidget(self.note_edit)
        self.note_row = QHBoxLayout()
        self.note_row.addStretch(1)
        self.note_row.addWidget(self.note_button)
        layout.addLayout(self.note_row)

    def show_detail(self, d: InquiryDetail) -> None:
        self.notes.clear()
        for note in d.notes:
            item = QListWidgetItem(f"{text.local_time(note.created_at)}  {note.text}")
            if note.status != "active":
                item.setForeground(Qt.GlobalColor.gray)
            item.setData(Qt.ItemDataRole.UserRole, note.id)
            self.notes.addItem(item)

    def retranslate(self) -> None:
        self.note_button.setText(QCoreApplication.translate("InquiryDetailView", "Add note"))
        self.note_edit.setPlaceholderText(
            QCoreApplication.translate("InquiryDetailView", "A note about this customer…")
        )
