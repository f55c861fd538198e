"""The strip across the top of the main window while the owner looks at the demo data.

The demo is a visitor's mode: the board shows fictional Sydney customers from a folder beside the
real one, nothing syncs and nothing is sent. The strip says so in one line and offers the two ways
out, so nobody who tried the demo is left wondering how to reach his own mail:
退出示例 (back to his real data folder) and 连接我的邮箱 (back to it, then the Microsoft account
page of the settings). ``desktop.app.DesktopApp`` connects both.

Signals:
    leave_requested(): 退出示例.
    connect_requested(): 连接我的邮箱.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QWidget


class DemoBanner(QFrame):
    leave_requested = Signal()
    connect_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("demoBanner")
        self.setStyleSheet(
            "QFrame#demoBanner { background: #ddf4ff; border: 1px solid #54aeff;"
            " border-radius: 6px; }"
        )
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.leave_button = QPushButton()
        self.connect_button = QPushButton()
        self.connect_button.setDefault(True)
        self.leave_button.clicked.connect(self.leave_requested)
        self.connect_button.clicked.connect(self.connect_requested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.leave_button)
        layout.addWidget(self.connect_button)
        self.retranslate()

    def retranslate(self) -> None:
        self.label.setText(
            "<b>"
            + self.tr("You are looking at demo data")
            + "</b> — "
            + self.tr(
                "fictional customers in a separate folder; nothing syncs or is sent, "
                "and your own data is untouched."
            )
        )
        self.leave_button.setText(self.tr("Leave the demo"))
        self.connect_button.setText(self.tr("Connect my mailbox"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
