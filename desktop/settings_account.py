"""Settings → 微软账户: who is signed in, 登录微软 / 退出登录, and — only where it is needed —
the Microsoft app id.

A packaged build carries the publisher's Microsoft app (client) id (``core.graph.app_id``), so the
owner sees one button and never an Azure id. A source checkout without one shows a short guide
with the exact Azure steps above the id field, instead of a bare "Azure 应用 ID". Sign-in runs
MSAL's browser flow on a worker thread; its failures are one sentence with what to do
(``message_for`` of ``SignInUnreachable`` / ``NoMicrosoftApp``), never a requests traceback.

This page is the Microsoft mailbox only; another mailbox kind (IMAP/SMTP) is its own page.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtCore import QUrl
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QWidget

from core.app import FrontEnd
from core.app import offload
from desktop.aio import spawn
from desktop.errors_ui import message_for
from desktop.inert import LinkGate

log = logging.getLogger(__name__)


class AccountSettingsPage(QWidget):
    """The Microsoft account page; ``value()`` is the ``graph.client_id`` to save.

    Signals:
        connected(): a browser sign-in succeeded (the app starts syncing that mailbox).
    """

    connected = Signal()

    def __init__(
        self, app: FrontEnd, parent: QWidget | None = None, *, packaged_id: str | None = None
    ) -> None:
        """``packaged_id``: the publisher's id (default: what the build put in resources/)."""
        super().__init__(parent)
        self.app = app
        support = app.desktop
        self.packaged_id = support.publisher_client_id() if packaged_id is None else packaged_id
        own = app.settings.text("graph.client_id")
        # the id field only where it is needed: no publisher id, or his own id already set
        self.asks_for_id = not self.packaged_id or bool(own)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.guide = QLabel()  # the Azure steps (source checkout only)
        self.guide.setObjectName("azureGuide")
        self.guide.setWordWrap(True)
        self.guide.setTextFormat(Qt.TextFormat.RichText)
        # its links (portal.azure.com) open through the gate that shows the real target first,
        # like every other link in the app
        self.links = LinkGate(self)
        self.guide.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse)
        self.guide.linkActivated.connect(lambda href: self.links.request(QUrl(href)))
        self.guide.setVisible(not self.packaged_id)
        self.client_id = QLineEdit(own)
        self.sign_in_button = QPushButton()
        self.sign_out_button = QPushButton()
        self.sign_in_button.clicked.connect(lambda: spawn(self.sign_in()))
        self.sign_out_button.clicked.connect(self.sign_out)
        buttons = QHBoxLayout()
        buttons.addWidget(self.sign_in_button)
        buttons.addWidget(self.sign_out_button)
        buttons.addStretch(1)
        self.status_label, self.id_label = QLabel(), QLabel()
        form = QFormLayout(self)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(self.status_label, self.status)
        form.addRow(self.guide)
        form.addRow(self.id_label, self.client_id)
        form.addRow(buttons)
        self.id_label.setVisible(self.asks_for_id)
        self.client_id.setVisible(self.asks_for_id)
        self.retranslate()

    def value(self) -> str:
        return self.client_id.text().strip()

    def refresh(self) -> None:
        """Who is signed in, read from the token cache (no network)."""
        if self.app.desktop.preset_graph_token():
            text = self.tr("Using a preset access token (INQUIRY_BRIDGE_GRAPH_TOKEN).")
            signed_in = True
        else:
            try:
                user = self.app.desktop.microsoft_sign_in().username()
            except Exception as exc:  # corrupt cache…
                log.info("account status: %s", exc)
                user = None
            signed_in = bool(user)
            text = (
                self.tr("Signed in as %1").replace("%1", user)
                if user
                else self.tr("Not signed in. Mail and OneDrive are not synced.")
            )
        self.status.setText(text)
        self.sign_out_button.setEnabled(signed_in)

    async def sign_in(self) -> bool:
        """The browser sign-in; True when an account is signed in afterwards."""
        typed = self.value()
        if not typed and not self.packaged_id:
            self.status.setText(self.tr("Enter the Application (client) ID from step 6 first."))
            return False
        if typed != self.app.settings.text("graph.client_id"):
            self.app.settings.set("graph.client_id", typed)
        msal = self.app.desktop.microsoft_sign_in()
        self.sign_in_button.setEnabled(False)
        self.status.setText(self.tr("Waiting for the browser sign-in…"))
        try:
            await offload(msal.sign_in_interactive)
        except Exception as exc:  # one sentence with what to do (network, app id, refusal)
            log.warning("sign-in failed: %s", exc)
            self.status.setText(message_for(exc))
            return False
        finally:
            self.sign_in_button.setEnabled(True)
        self.refresh()
        self.connected.emit()
        return True

    def sign_out(self) -> None:
        self.app.desktop.microsoft_sign_in().sign_out()
        self.refresh()

    def retranslate(self) -> None:
        self.status_label.setText(self.tr("Status"))
        self.id_label.setText(self.tr("Application (client) ID"))
        self.sign_in_button.setText(self.tr("Sign in with Microsoft"))
        self.sign_out_button.setText(self.tr("Sign out"))
        self.client_id.setPlaceholderText(self.tr("e.g. 00000000-0000-0000-0000-000000000000"))
        self.guide.setText(
            self.tr(
                "<b>This copy of the app has no Microsoft app id yet.</b> Register it once "
                "(about 5 minutes, free):<ol>"
                "<li>Open <a href='https://portal.azure.com'>portal.azure.com</a> → Microsoft "
                "Entra ID → App registrations → New registration.</li>"
                "<li>Name it Inquiry Bridge; account types: <i>Accounts in any organizational "
                "directory and personal Microsoft accounts</i>.</li>"
                "<li>Redirect URI: <i>Public client/native (mobile &amp; desktop)</i>, "
                "<code>http://localhost</code> → Register.</li>"
                "<li>Authentication → <i>Allow public client flows</i>: Yes → Save.</li>"
                "<li>API permissions → Add → Microsoft Graph → Delegated: Mail.ReadWrite, "
                "Mail.Send, Files.ReadWrite, Calendars.ReadWrite, MailboxSettings.ReadWrite, "
                "User.Read, offline_access.</li>"
                "<li>Copy the <i>Application (client) ID</i> from Overview into the field "
                "below, then press Sign in with Microsoft.</li></ol>"
            )
        )
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
