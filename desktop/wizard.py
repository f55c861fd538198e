"""The first-run window: sign in with Microsoft, set up the AI, or try the demo data.

Shown when no Microsoft account is set up and the owner has not finished it before, and again
from the tray's 入门向导 or the empty board's button. The demo choice ingests the bundled demo
mailbox into a separate demo data folder (never the real one), so a newcomer sees a populated
board in seconds without any account.

It also asks for his company profile, which starts empty: the company name and signature that
end every English reply, and the office address where the evening briefing's measuring route
starts (``general.office_address``). Whatever he typed is saved to his real settings whichever
way he leaves the window (``profile_settings``: the real folder's, even over the demo).

Signals:
    sign_in_requested(), ai_requested(): open the matching settings page (Microsoft account,
        AI model). Other mailbox kinds add their button with ``add_mailbox_choice``.
    mailbox_connected(): an IMAP/SMTP mailbox was tested and saved in its dialog; the running
        app starts reading it at once.
    demo_requested(): load the demo data and open the board over it.
    leave_demo_requested(): opened over the demo, the third choice is 退出示例 instead (back to
        the owner's own data folder); the first two also lead out of the demo (``DesktopApp``).
    skipped(): go straight to the (empty) board.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtCore import Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QCommandLinkButton
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QGroupBox
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPlainTextEdit
from PySide6.QtWidgets import QProgressBar
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import MailAccountService
from core.app.types import Settings
from desktop.context import AppContext
from desktop.look import app_icon
from desktop.settings_mailbox import MailboxDialog


class FirstRunWizard(QDialog):
    sign_in_requested = Signal()
    ai_requested = Signal()
    mailbox_connected = Signal()
    demo_requested = Signal()
    leave_demo_requested = Signal()
    skipped = Signal()

    def __init__(
        self,
        ctx: AppContext,
        parent: QWidget | None = None,
        *,
        profile_settings: Settings | None = None,
        accounts: MailAccountService | None = None,
    ) -> None:
        """``profile_settings``, ``accounts``: the owner's real folder's, even over the demo."""
        super().__init__(parent)
        self.ctx = ctx
        self.profile_settings = profile_settings or ctx.app.settings
        self.accounts = accounts or ctx.app.mail_accounts
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
        # one row per mailbox kind: Microsoft 365 first; another kind (IMAP/SMTP) adds its own
        # button here with ``add_mailbox_choice`` and opens its own settings page
        self.mailbox_choices = QVBoxLayout()
        self.mailbox_choices.setContentsMargins(0, 0, 0, 0)
        self.mailbox_choices.addWidget(self.sign_in_button)
        self.mailbox_button = QCommandLinkButton()  # Gmail, QQ, 163, iCloud… (IMAP/SMTP)
        self.mailbox_button.clicked.connect(self.open_mailbox)
        self.add_mailbox_choice(self.mailbox_button)
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

        profile = self._build_profile()

        layout = QVBoxLayout(self)
        layout.setSpacing(10)
        layout.addLayout(head)
        layout.addWidget(profile)
        layout.addLayout(self.mailbox_choices)
        layout.addWidget(self.ai_button)
        layout.addWidget(self.demo_button)
        layout.addWidget(self.progress)
        layout.addStretch(1)
        layout.addLayout(bottom)
        self.setMinimumWidth(640)
        self.retranslate()

    def _build_profile(self) -> QGroupBox:
        """Company name, signature and office address (his real settings, empty at first)."""
        settings = self.profile_settings
        self.company = QLineEdit(settings.text("general.company_name"))
        self.signature = QPlainTextEdit(settings.text("drafts.signature"))
        self.signature.setFixedHeight(self.fontMetrics().lineSpacing() * 3 + 14)
        self.office = QLineEdit(settings.text("general.office_address"))
        self.profile_box = QGroupBox()
        form = QFormLayout(self.profile_box)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.company_label, self.signature_label, self.office_label = QLabel(), QLabel(), QLabel()
        form.addRow(self.company_label, self.company)
        form.addRow(self.signature_label, self.signature)
        form.addRow(self.office_label, self.office)
        for button in (self.sign_in_button, self.ai_button, self.demo_button):
            button.pressed.connect(self.save_profile)
        return self.profile_box

    def add_mailbox_choice(self, button: QCommandLinkButton) -> None:
        """Another way to connect a mailbox, listed under 登录微软 (saves the profile first)."""
        button.pressed.connect(self.save_profile)
        self.mailbox_choices.addWidget(button)

    def profile(self) -> dict[str, str]:
        return {
            "general.company_name": self.company.text().strip(),
            "drafts.signature": self.signature.toPlainText().strip(),
            "general.office_address": self.office.text().strip(),
        }

    def save_profile(self) -> None:
        """Write what he typed (an empty field leaves the setting as it was)."""
        typed = {key: value for key, value in self.profile().items() if value}
        changed = {k: v for k, v in typed.items() if self.profile_settings.get(k) != v}
        if changed:
            self.profile_settings.update(changed)

    def done(self, result: int) -> None:
        self.save_profile()
        super().done(result)

    def open_mailbox(self) -> MailboxDialog:
        """The mailbox page in its own dialog (kept as ``mailbox_dialog`` for tests)."""
        self.mailbox_dialog = MailboxDialog(self.accounts, self)
        self.mailbox_dialog.page.connected.connect(lambda _user: self.mailbox_connected.emit())
        self.mailbox_dialog.open()
        return self.mailbox_dialog

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
        self.mailbox_button.setText(self.tr("Connect another mailbox"))
        self.mailbox_button.setDescription(
            self.tr(
                "Gmail, QQ Mail, 163/126, iCloud or any IMAP/SMTP mailbox, with an app password."
            )
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
        self.profile_box.setTitle(self.tr("Your company (ends every English reply)"))
        self.company_label.setText(self.tr("Company name"))
        self.signature_label.setText(self.tr("Signature"))
        self.office_label.setText(self.tr("Office address"))
        self.company.setPlaceholderText(self.tr("e.g. Harbour Aluminium Windows Pty Ltd"))
        self.signature.setPlaceholderText(self.tr("e.g. Kind regards, / your name / phone"))
        self.office.setPlaceholderText(
            self.tr(
                "where the evening briefing's measuring route starts, e.g. 5 Factory Rd, Penrith"
            )
        )

    def showEvent(self, event: QShowEvent) -> None:
        """Open tall enough for every row. The dialog took its height from the layout's
        height-for-width at 640 px, which the command buttons' wrapped descriptions understate:
        the group box was squeezed and the 落款 box ran under 办公室地址."""
        super().showEvent(event)
        wanted = max(self.sizeHint().height(), self.minimumSizeHint().height())
        if self.height() < wanted:
            self.resize(self.width(), wanted)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
