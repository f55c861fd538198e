"""The mailbox page: an IMAP/SMTP account by provider (Gmail, QQ邮箱, 163/126, iCloud, other).

He picks his provider; the page fills in the servers and shows, in his language, how to get the
app password (授权码) that provider wants instead of the login password. 测试并保存 logs in to
IMAP and SMTP once on the event loop (``App.mail_accounts``; the dialog never waits) and only
then keeps the servers in settings and the password in the keyring. A wrong password, IMAP
switched off at the provider and no network each get their own sentence. "Other" shows host,
port and security (SSL / STARTTLS) for both servers; Outlook.com points to Microsoft sign-in.

The page is used by the settings dialog and, in a small dialog of its own, by the first-run
wizard (``MailboxDialog``).

Signals:
    connected(str): an account was tested and saved (its address).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import MailAccountService
from desktop.aio import spawn
from desktop.errors_ui import message_for
from desktop.i18n import current_language

_SECURITY = ("ssl", "starttls")


class MailboxSettingsPage(QWidget):
    connected = Signal(str)

    def __init__(self, accounts: MailAccountService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.accounts = accounts
        self.provider = QComboBox()
        for preset in accounts.presets():
            self.provider.addItem("", preset.key)
        self.guide = QLabel()
        self.guide.setWordWrap(True)
        self.guide.setObjectName("muted")
        self.user = QLineEdit()
        self.password = QLineEdit()
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.imap_host, self.imap_port, self.imap_security = self._server_fields(993)
        self.smtp_host, self.smtp_port, self.smtp_security = self._server_fields(465)
        self.connect_button = QPushButton()
        self.connect_button.clicked.connect(lambda: spawn(self.connect_account()))
        self.result = QLabel()
        self.result.setWordWrap(True)
        self.result.setObjectName("mailboxResult")
        self.labels = {k: QLabel() for k in ("provider", "user", "password", "imap", "smtp")}
        self._build_form()
        current = accounts.current()
        if current.provider:
            self.provider.setCurrentIndex(max(0, self.provider.findData(current.provider)))
        self.user.setText(current.user)
        self.provider.currentIndexChanged.connect(self._preset_changed)
        self.retranslate()
        self._preset_changed()

    def _server_fields(self, port: int) -> tuple[QLineEdit, QSpinBox, QComboBox]:
        host, spin, security = QLineEdit(), QSpinBox(), QComboBox()
        spin.setRange(1, 65535)
        spin.setValue(port)
        for value in _SECURITY:
            security.addItem("", value)
        return host, spin, security

    def _build_form(self) -> None:
        form = QFormLayout()
        form.addRow(self.labels["provider"], self.provider)
        form.addRow(self.guide)
        form.addRow(self.labels["user"], self.user)
        form.addRow(self.labels["password"], self.password)
        self.server_rows = []
        for key, fields in (
            ("imap", (self.imap_host, self.imap_port, self.imap_security)),
            ("smtp", (self.smtp_host, self.smtp_port, self.smtp_security)),
        ):
            box = QWidget()
            row = QFormLayout(box)
            row.setContentsMargins(0, 0, 0, 0)
            for field in fields:
                row.addRow(field)
            form.addRow(self.labels[key], box)
            self.server_rows.append((self.labels[key], box))
        form.addRow(self.connect_button)
        form.addRow(self.result)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addStretch(1)

    # ------------------------------------------------------------------ presets
    def preset_key(self) -> str:
        return str(self.provider.currentData())

    def _preset_changed(self) -> None:
        preset = self.accounts.preset(self.preset_key())
        zh = current_language().startswith("zh")
        self.guide.setText(preset.guide_zh if zh else preset.guide_en)
        other = preset.key == "other"
        for label, box in self.server_rows:
            label.setVisible(other)
            box.setVisible(other)
        for widget in (self.user, self.password, self.connect_button):
            widget.setEnabled(not preset.via_graph)
        self.result.clear()

    def servers(self) -> dict[str, tuple[str, int, str]]:
        """Host, port and security typed for "other" (the presets bring their own)."""
        if self.preset_key() != "other":
            return {}
        return {
            "imap": (
                self.imap_host.text().strip(),
                self.imap_port.value(),
                str(self.imap_security.currentData()),
            ),
            "smtp": (
                self.smtp_host.text().strip(),
                self.smtp_port.value(),
                str(self.smtp_security.currentData()),
            ),
        }

    async def connect_account(self, **servers: Any) -> bool:
        """Test and save; ``servers`` replace the preset's (tests point a preset at loopback)."""
        user, password = self.user.text().strip(), self.password.text()
        if not user or not password:
            self.result.setText(self.tr("Enter the mail address and the app password first."))
            return False
        self.connect_button.setEnabled(False)
        self.result.setText(self.tr("Connecting…"))
        try:
            await self.accounts.save(
                self.preset_key(), user, password, **(servers or self.servers())
            )
        except Exception as exc:
            self.result.setText(message_for(exc))
            return False
        finally:
            self.connect_button.setEnabled(True)
        self.password.clear()
        self.result.setText(
            self.tr("Connected: %1. Fetching mail now (INBOX and Sent)…").replace("%1", user)
        )
        self.connected.emit(user)
        return True

    def retranslate(self) -> None:
        zh = current_language().startswith("zh")
        for i, preset in enumerate(self.accounts.presets()):
            self.provider.setItemText(i, preset.name_zh if zh else preset.name_en)
        for box in (self.imap_security, self.smtp_security):
            box.setItemText(0, self.tr("SSL/TLS"))
            box.setItemText(1, self.tr("STARTTLS"))
        self.labels["provider"].setText(self.tr("Mail provider"))
        self.labels["user"].setText(self.tr("Mail address"))
        self.labels["password"].setText(self.tr("App password"))
        self.labels["imap"].setText(self.tr("IMAP server"))
        self.labels["smtp"].setText(self.tr("SMTP server"))
        self.imap_host.setPlaceholderText(self.tr("e.g. mail.example.com"))
        self.smtp_host.setPlaceholderText(self.tr("e.g. mail.example.com"))
        self.password.setPlaceholderText(self.tr("not the web login password"))
        self.connect_button.setText(self.tr("Test and save"))
        self._preset_changed()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


class MailboxDialog(QDialog):
    """The page on its own, for the first-run wizard."""

    def __init__(self, accounts: MailAccountService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.page = MailboxSettingsPage(accounts, self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.page.connected.connect(lambda _user: self.accept())
        layout = QVBoxLayout(self)
        layout.addWidget(self.page)
        layout.addWidget(buttons)
        self.setWindowTitle(self.tr("Connect a mailbox"))
        self.setMinimumWidth(560)
