"""The settings dialog over ``core.config.SETTINGS``: account, AI, sync, Telegram, voice, general.

Every value shown here is a setting from the one registry (``core/config.py``); the API key goes
to the keyring through ``core.secrets`` and never into the settings file. Values overridden by an
environment variable are shown read-only with a note. 测试连接 runs against the values typed in
the form (not yet saved) as a coroutine on the qasync loop, so the dialog never freezes; sign-in
runs MSAL's browser flow on a worker thread.

Signals:
    language_changed(str): the owner picked another language (applied at once).
    saved(): settings were written.
    mailbox_connected(): a Microsoft sign-in or an IMAP/SMTP account succeeded here; the running
        app starts reading that mailbox at once (``DesktopApp.mailbox_connected``).
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtCore import QTime
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QComboBox
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QDialogButtonBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QListWidget
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QPlainTextEdit
from PySide6.QtWidgets import QSpinBox
from PySide6.QtWidgets import QStackedWidget
from PySide6.QtWidgets import QTimeEdit
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import autostart_enabled
from core.app import set_autostart
from core.app.types import LLM_API_KEY
from core.app.types import TELEGRAM_TOKEN
from core.app.types import Settings
from core.app.types import SettingValue
from core.app.types import is_email_address
from desktop.chat.knowledge_page import KnowledgeButton
from desktop.chat.memory_page import MemoryButton
from desktop.context import AppContext
from desktop.errors_ui import message_for
from desktop.i18n import LANGUAGES
from desktop.i18n import current_language
from desktop.look import set_tone
from desktop.settings_account import AccountSettingsPage
from desktop.settings_database import DatabaseSettingsPage
from desktop.settings_llm import LLMSettingsPage
from desktop.settings_mailbox import MailboxSettingsPage
from desktop.settings_save import save_all
from desktop.settings_telegram import TelegramSettingsPage
from desktop.voice.settings_page import VoiceSettingsPage

log = logging.getLogger(__name__)


def _page(*rows: tuple[QLabel | None, QWidget]) -> tuple[QWidget, QFormLayout]:
    page = QWidget()
    outer = QVBoxLayout(page)
    form = QFormLayout()
    form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
    for label, widget in rows:
        if label is None:
            form.addRow(widget)
        else:
            form.addRow(label, widget)
    outer.addLayout(form)
    outer.addStretch(1)  # rows stay together at the top, not spread over the page
    return page, form


class SettingsDialog(QDialog):
    language_changed = Signal(str)
    saved = Signal()
    mailbox_connected = Signal()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.labels: dict[str, QLabel] = {}
        s = ctx.app.settings
        pages = (self._account_page(s), self._ai_page(s), self._sync_page(s), self._general_page(s))
        self._build_nav(pages)
        self._build_buttons()
        body = QHBoxLayout()
        body.addWidget(self.nav)
        body.addWidget(self.pages, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(body, 1)
        self.notice = QLabel()  # after 应用/确定: where a key went, or why nothing was saved
        self.notice.setWordWrap(True)
        self.notice.hide()
        self.last_notice = ""
        self.stored_where: dict[str, tuple[str, str]] = {}
        layout.addWidget(self.notice)
        layout.addWidget(self.buttons)
        self.resize(820, 560)
        self.retranslate()

    def _label(self, key: str) -> QLabel:
        """A form label, filled (and refilled on a language change) by ``retranslate``."""
        self.labels[key] = QLabel()
        return self.labels[key]

    def _account_page(self, s: Settings) -> QWidget:
        """The Microsoft account page (``desktop.settings_account``); short names kept."""
        self.account_page = AccountSettingsPage(self.ctx.app, self)
        self.account_status = self.account_page.status
        self.client_id = self.account_page.client_id
        self.sign_in_button = self.account_page.sign_in_button
        self.sign_out_button = self.account_page.sign_out_button
        return self.account_page

    def _ai_page(self, s: Settings) -> QWidget:
        """设置 → AI 模型 lives in its own module (presets, 测试连接 with the probe)."""
        buttons = QWidget(self)  # what the AI reads besides the mail: his memories, his 知识库
        row = QHBoxLayout(buttons)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(KnowledgeButton(self.ctx, buttons))
        row.addWidget(MemoryButton(self.ctx, buttons))
        self.ai_page = LLMSettingsPage(self.ctx.app, buttons, self)
        page = self.ai_page
        self.llm_url, self.llm_key, self.tiers = page.llm_url, page.llm_key, page.tiers
        self.concurrency, self.test_button = page.concurrency, page.test_button
        self.test_result = page.test_result
        return page

    def _sync_page(self, s: Settings) -> QWidget:
        self.mail_poll = QSpinBox()
        self.mail_poll.setRange(1, 240)
        self.mail_poll.setValue(s.number("graph.mail_poll_minutes"))
        self.drive_poll = QSpinBox()
        self.drive_poll.setRange(1, 240)
        self.drive_poll.setValue(s.number("graph.drive_poll_minutes"))
        self.first_sync = QSpinBox()
        self.first_sync.setRange(1, 3650)
        self.first_sync.setValue(s.number("graph.first_sync_days"))
        self.quiet_start = QTimeEdit(
            QTime.fromString(s.text("schedule.quiet_hours_start"), "HH:mm")
        )
        self.quiet_end = QTimeEdit(QTime.fromString(s.text("schedule.quiet_hours_end"), "HH:mm"))
        for edit in (self.quiet_start, self.quiet_end):
            edit.setDisplayFormat("HH:mm")
        self.paused = QCheckBox()
        self.paused.setChecked(s.flag("schedule.paused"))
        page, _ = _page(
            (self._label("mail_poll"), self.mail_poll),
            (self._label("drive_poll"), self.drive_poll),
            (self._label("first_sync"), self.first_sync),
            (self._label("quiet_start"), self.quiet_start),
            (self._label("quiet_end"), self.quiet_end),
            (None, self.paused),
        )
        return page

    def _general_page(self, s: Settings) -> QWidget:
        self.language = QComboBox()
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(current_language())))
        self.start_at_login = QCheckBox()
        self.start_at_login.setChecked(autostart_enabled())
        self.company = QLineEdit(s.text("general.company_name"))
        self.owner = QLineEdit(s.text("general.owner_name"))
        self.addresses = QLineEdit(", ".join(s.strings("general.owner_addresses")))
        self.office = QLineEdit(s.text("general.office_address"))
        self.signature = QPlainTextEdit(s.text("drafts.signature"))
        self.signature.setFixedHeight(self.fontMetrics().lineSpacing() * 3 + 14)
        # what a quote PDF prints (settings [company]); the name above is the company's name
        self.abn = QLineEdit(s.text("company.abn"))
        self.company_address = QLineEdit(s.text("company.address"))
        self.company_phone = QLineEdit(s.text("company.phone"))
        self.deposit = QSpinBox()
        self.deposit.setRange(0, 100)
        self.deposit.setSuffix(" %")
        self.deposit.setValue(s.number("company.deposit_percent"))
        self.auto_first_reply = QCheckBox()
        self.auto_first_reply.setChecked(s.flag("drafts.auto_first_reply"))
        page, _ = _page(
            (self._label("language"), self.language),
            (None, self.start_at_login),
            (self._label("company"), self.company),
            (self._label("owner"), self.owner),
            (self._label("signature"), self.signature),
            (None, self.auto_first_reply),
            (self._label("office"), self.office),
            (self._label("addresses"), self.addresses),
            (self._label("abn"), self.abn),
            (self._label("company_address"), self.company_address),
            (self._label("company_phone"), self.company_phone),
            (self._label("deposit"), self.deposit),
        )
        return page

    def _build_nav(self, pages: tuple[QWidget, ...]) -> None:
        """The page list on the left; ``pages`` are account, AI, sync and general."""
        self.telegram_page = TelegramSettingsPage(self.ctx.app, self)
        self.voice_page = VoiceSettingsPage(self.ctx.app, self)
        self.mailbox_page = MailboxSettingsPage(self.ctx.app.mail_accounts, self)
        self.mailbox_page.connected.connect(lambda _user: self.mailbox_connected.emit())
        self.account_page.connected.connect(self.mailbox_connected)

        self.nav = QListWidget()
        self.nav.setFixedWidth(150)
        self.pages = QStackedWidget()
        self.database_page = DatabaseSettingsPage(self.ctx.app, self)
        self._page_keys = [
            "account", "ai", "sync", "telegram", "voice", "general", "mailbox", "database"
        ]  # fmt: skip
        for page in (
            *pages[:3], self.telegram_page, self.voice_page, pages[3], self.mailbox_page,
            self.database_page,
        ):  # fmt: skip
            self.pages.addWidget(page)
            self.nav.addItem("")
        self.nav.currentRowChanged.connect(self.pages.setCurrentIndex)
        self.nav.setCurrentRow(0)

    def _build_buttons(self) -> None:
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.Apply
        )
        self.buttons.accepted.connect(self._ok)
        self.buttons.rejected.connect(self.reject)
        self.buttons.button(QDialogButtonBox.StandardButton.Apply).clicked.connect(
            lambda: self.save()
        )

    # ------------------------------------------------------------------ account

    def _refresh_account(self) -> None:
        self.account_page.refresh()

    async def sign_in(self) -> bool:
        return await self.account_page.sign_in()

    def sign_out(self) -> None:
        self.account_page.sign_out()

    # ------------------------------------------------------------------ AI

    def _llm_values(self) -> dict[str, SettingValue]:
        return self.ai_page.values()

    async def test_connection(self) -> bool:
        """The AI page's 测试连接 (the probe, with the values in the form)."""
        return await self.ai_page.test_connection()

    # ------------------------------------------------------------------ saving

    def values(self) -> dict[str, SettingValue]:
        values = self._llm_values()
        values.update(
            {
                "graph.client_id": self.account_page.value(),
                "graph.mail_poll_minutes": self.mail_poll.value(),
                "graph.drive_poll_minutes": self.drive_poll.value(),
                "graph.first_sync_days": self.first_sync.value(),
                "schedule.quiet_hours_start": self.quiet_start.time().toString("HH:mm"),
                "schedule.quiet_hours_end": self.quiet_end.time().toString("HH:mm"),
                "schedule.paused": self.paused.isChecked(),
                "general.language": self.language.currentData(),
                "general.start_at_login": self.start_at_login.isChecked(),
                "general.company_name": self.company.text().strip(),
                "general.owner_name": self.owner.text().strip(),
                "general.office_address": self.office.text().strip(),
                "drafts.signature": self.signature.toPlainText().strip(),
                "drafts.auto_first_reply": self.auto_first_reply.isChecked(),
                "general.owner_addresses": self._owner_addresses(),
                "company.abn": self.abn.text().strip(),
                "company.address": self.company_address.text().strip(),
                "company.phone": self.company_phone.text().strip(),
                "company.deposit_percent": self.deposit.value(),
            }
        )
        return values

    def _owner_addresses(self) -> list[str]:
        return [a.strip().lower() for a in self.addresses.text().split(",") if a.strip()]

    def problems(self) -> list[tuple[int, str]]:
        """What stops the dialog from saving: (page row, message in the owner's language)."""
        found: list[tuple[int, str]] = []
        url = self.llm_url.text().strip()
        if self.llm_url.isEnabled() and url and not url.startswith(("http://", "https://")):
            found.append((1, self.tr("The endpoint URL must start with http:// or https://")))
        found += [(3, text) for text in self.telegram_page.problems()]
        bad = [a for a in self._owner_addresses() if not is_email_address(a)]  # the one rule
        if bad:
            found.append((5, self.tr("Not a mail address: %1").replace("%1", ", ".join(bad))))
        return found

    def save(self) -> bool:
        """Save every page or none; say where a newly saved key now lives. True when saved."""
        s = self.ctx.app
        problems = self.problems()
        if problems:
            self.nav.setCurrentRow(problems[0][0])
            self._notify("\n".join(text for _, text in problems))
            return False
        values = {**self.values(), **self.telegram_page.values(), **self.voice_page.values()}
        new_secrets = []
        key = self.llm_key.text().strip()
        if key:
            new_secrets.append((LLM_API_KEY, key))
        telegram = self.telegram_page.pending_secret()
        if telegram is not None:
            new_secrets.append(telegram)
        try:
            outcome = save_all(s.settings, s.secrets, values, new_secrets)
        except Exception as exc:
            log.warning("settings not saved: %s", exc)
            self._notify(self.tr("Nothing was saved: %1").replace("%1", message_for(exc)))
            return False
        if key:
            self.llm_key.clear()
            self.ai_page.has_key = True
        self.telegram_page.saved()
        self.voice_page.refresh()
        try:
            set_autostart(bool(values["general.start_at_login"]))
        except OSError as exc:
            log.warning("start at login: %s", exc)
        self.stored_where = outcome.stored
        self._notify(self._where_saved(outcome.stored), "ok")
        self.retranslate()
        if values["general.language"] != current_language():
            self.language_changed.emit(values["general.language"])
        self.saved.emit()
        return True

    def _where_saved(self, stored: dict[str, tuple[str, str]]) -> str:
        names = {LLM_API_KEY: self.tr("The API key"), TELEGRAM_TOKEN: self.tr("The bot token")}
        zh = current_language() == "zh_CN"
        lines = [
            self.tr("%1 is saved in %2.")
            .replace("%1", names.get(name, name))
            .replace("%2", where[0] if zh else where[1])
            for name, where in stored.items()
        ]
        return "\n".join(lines or [self.tr("Settings saved.")])

    def _notify(self, text: str, tone: str = "error") -> None:
        self.last_notice = text
        set_tone(self.notice, tone)
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def _ok(self) -> None:
        if not self.save():
            return
        if self.stored_where:  # a key was stored: say where, after the dialog has closed
            box = QMessageBox(
                QMessageBox.Icon.Information,
                self.tr("Settings"),
                self.last_notice,
                QMessageBox.StandardButton.Ok,
                self.parentWidget(),
            )
            box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            box.open()
            self.where_box = box
        self.accept()

    # ------------------------------------------------------------------ language

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Settings"))
        names = [
            self.tr("Microsoft account"),
            self.tr("AI model"),
            self.tr("Sync"),
            self.tr("Telegram"),
            self.tr("Voice"),
            self.tr("General"),
            self.tr("Other mailbox"),  # Gmail, QQ, 163, iCloud… (desktop/settings_mailbox.py)
            self.tr("Database"),  # this folder, or a shared PostgreSQL (settings_database.py)
        ]
        for i, name in enumerate(names):
            self.nav.item(i).setText(name)
        texts = {
            "mail_poll": self.tr("Check mail every (min)"),
            "drive_poll": self.tr("Check OneDrive every (min)"),
            "first_sync": self.tr("First sync fetches (days)"),
            "quiet_start": self.tr("Quiet hours from"),
            "quiet_end": self.tr("Quiet hours until"),
            "language": self.tr("Language"),
            "company": self.tr("Company name"),
            "owner": self.tr("Your name"),
            "signature": self.tr("Signature"),
            "office": self.tr("Office address"),
            "addresses": self.tr("Company mail addresses"),
            "abn": self.tr("ABN (on quotes)"),
            "company_address": self.tr("Company address (on quotes)"),
            "company_phone": self.tr("Company phone (on quotes)"),
            "deposit": self.tr("Deposit on acceptance"),
        }
        for key, widget in self.labels.items():
            widget.setText(texts[key])
        self.ai_page.retranslate()
        self.paused.setText(self.tr("Pause sync"))
        self.start_at_login.setText(self.tr("Start when I log in"))
        self.auto_first_reply.setText(
            self.tr("Draft the first reply to each new inquiry (waits for my approval)")
        )
        self.addresses.setToolTip(self.tr("Mail from these addresses is ours, never a customer"))
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("OK"))
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Cancel"))
        self.buttons.button(QDialogButtonBox.StandardButton.Apply).setText(self.tr("Apply"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
