"""The first-run window: sign in with Microsoft, set up the AI, or try the demo data.

Shown when no Microsoft account is set up and the owner has not finished it before. The demo
choice ingests the bundled demo mailbox into a separate demo data folder (never the real one), so
a newcomer sees a populated board in seconds without any account.

Signals:
    sign_in_requested(), ai_requested(): open the matching settings page.
    demo_requested(): load the demo data and open the board over it.
    leave_demo_requested(): opened over the demo, the third choice is 退出示例 instead (back to
        the owner's own data folder); the first two also lead out of the demo (``DesktopApp``).
    skipped(): go straight to the (empty) board.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import (
    QCommandLinkButton,
    QDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.context import AppContext
from desktop.look import app_icon


class FirstRunWizard(QDialog):
    sign_in_requested = Signal()
    ai_requested = Signal()
    demo_requested = Signal()
    leave_demo_requested = Signal()
    skipped = Signal()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setWindowIcon(app_icon())
        logo = QLabel()
        logo.setPixmap(app_icon().pixmap(64, 64))
        self.heading = QLabel()
        self.heading.setObjectName("title")
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        head = QHBoxLayout()
        head.addWidget(logo)
        text_box = QVBoxLayout()
        text_box.addWidget(self.heading)
        text_box.addWidget(self.intro)
        head.addLayout(text_box, 1)

        self.sign_in_button = QCommandLinkButton()
        self.ai_button = QCommandLinkButton()
        self.demo_button = QCommandLinkButton()
        self.sign_in_button.clicked.connect(self.sign_in_requested)
        self.ai_button.clicked.connect(self.ai_requested)
        self.demo_button.clicked.connect(self._demo_clicked)
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.hide()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setObjectName("muted")
        self.skip_button = QPushButton()
        self.skip_button.clicked.connect(self._skip)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.skip_button)

        layout = QVBoxLayout(self)
        layout.setSpacing(12)
        layout.addLayout(head)
        layout.addSpacing(8)
        layout.addWidget(self.sign_in_button)
        layout.addWidget(self.ai_button)
        layout.addWidget(self.demo_button)
        layout.addWidget(self.progress)
        layout.addStretch(1)
        layout.addLayout(bottom)
        self.setMinimumWidth(640)
        self.retranslate()

    def _demo_clicked(self) -> None:
        if self.ctx.is_demo:
            self.leave_demo_requested.emit()
            self.accept()
            return
        self.set_busy(True)
        self.demo_requested.emit()

    def _skip(self) -> None:
        self.skipped.emit()
        self.accept()

    def set_busy(self, busy: bool, message: str = "") -> None:
        for button in (self.sign_in_button, self.ai_button, self.demo_button, self.skip_button):
            button.setEnabled(not busy)
        self.progress.setVisible(busy)
        self.status.setText(message or (self.tr("Loading the demo mailbox…") if busy else ""))

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Welcome to Inquiry Bridge"))
        self.heading.setText(self.tr("Welcome to Inquiry Bridge"))
        self.intro.setText(
            self.tr(
                "Inquiry Bridge reads your Outlook mailbox, puts every customer inquiry on one "
                "board in Chinese, and drafts English replies that are sent only after you approve "
                "them. How would you like to start?"
            )
        )
        self.sign_in_button.setText(self.tr("Sign in with Microsoft"))
        self.sign_in_button.setDescription(
            self.tr("Connect your Outlook mailbox and OneDrive (Microsoft 365).")
        )
        self.ai_button.setText(self.tr("Set up the AI"))
        self.ai_button.setDescription(
            self.tr("Enter an OpenAI-compatible endpoint and key for sorting mail and drafting.")
        )
        if self.ctx.is_demo:
            self.demo_button.setText(self.tr("Leave the demo"))
            self.demo_button.setDescription(
                self.tr("Back to your own data folder; the demo stays in its separate folder.")
            )
        else:
            self.demo_button.setText(self.tr("Try the demo data"))
            self.demo_button.setDescription(
                self.tr(
                    "Load a sample mailbox of Sydney customers into a separate demo folder. "
                    "Nothing is sent and your real data is never touched."
                )
            )
        self.skip_button.setText(self.tr("Later"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
