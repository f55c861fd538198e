"""The chat panel's input and the current-customer line above it.

``ChatInput``: Enter sends, Shift+Enter starts a new line (as in every chat app he knows); an
input-method composition (pinyin) is never cut short, because Qt delivers the committed text as
an input-method event, not as the Enter key press.

``CustomerBar``: "当前客户：Billy Chen #12 ×" — the inquiry selected on the board, which the
assistant takes as "him" in "给他回复". The × clears it; selecting another inquiry changes it.

Signals:
    ChatInput.submitted(): Enter was pressed.
    CustomerBar.cleared(): the owner removed the current customer.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QPlainTextEdit
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QWidget

from desktop.inert import plain_label


class ChatInput(QPlainTextEdit):
    submitted = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatInput")
        self.setTabChangesFocus(True)
        self.setMaximumHeight(84)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        enter = event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
        if enter and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            event.accept()
            self.submitted.emit()
            return
        super().keyPressEvent(event)


class CustomerBar(QWidget):
    cleared = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.inquiry_id: int | None = None
        self.customer = ""
        self.label = plain_label()  # the customer's name is his text
        self.label.setObjectName("chatCustomer")
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.clear_button = QToolButton()
        self.clear_button.setText("✕")
        self.clear_button.setAutoRaise(True)
        self.clear_button.clicked.connect(self.clear)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.clear_button)
        self.retranslate()

    def set_customer(self, inquiry_id: int, name: str) -> None:
        self.inquiry_id = inquiry_id
        self.customer = name
        self.retranslate()

    def clear(self) -> None:
        had = self.inquiry_id is not None
        self.inquiry_id = None
        self.customer = ""
        self.retranslate()
        if had:
            self.cleared.emit()

    def retranslate(self) -> None:
        self.clear_button.setToolTip(self.tr("Clear the current customer"))
        self.clear_button.setVisible(self.inquiry_id is not None)
        if self.inquiry_id is None:
            self.label.setText(self.tr("No current customer — select an inquiry on the board"))
            self.label.setStyleSheet("color: #6e7781;")
        else:
            text = self.tr("Current customer: %1 #%2")
            self.label.setText(
                text.replace("%1", self.customer).replace("%2", str(self.inquiry_id))
            )
            self.label.setStyleSheet(
                "background: #eef4ff; border-radius: 4px; padding: 3px 6px; color: #0b3d91;"
            )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
