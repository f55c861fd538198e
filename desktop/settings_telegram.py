"""The Telegram page of the settings dialog: bot token, pairing code, paired chat, on/off.

What the owner needs here, in order: switch the mirror on, paste the token BotFather gave him
(stored in the OS keyring, never in the settings file), press 生成配对码 and send ``/start CODE``
to his bot from his phone. The page shows, in his language, what state that leaves him in
(not set up / waiting for pairing / paired with whom) and can test the token against the Bot API
(``getMe``) on the event loop — the dialog never waits on the network.

The dialog's OK saves every page at once (``values``, ``pending_secret``, ``problems``, then
``saved``); ``save()`` writes this page alone. When
``INQUIRY_BRIDGE_TELEGRAM_TOKEN`` / ``_CHAT_ID`` preset them, the fields are read-only and say so.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import FrontEnd
from core.app.types import TELEGRAM_TOKEN
from core.app.types import InquiryBridgeError
from core.app.types import SettingValue
from core.app.types import to_sydney
from desktop.aio import spawn
from desktop.look import add_field_row
from desktop.look import field_row

if TYPE_CHECKING:
    from PySide6.QtGui import QHideEvent
    from PySide6.QtGui import QShowEvent

    from core.app.types import Settings

log = logging.getLogger(__name__)
_TOKEN_SHAPE = re.compile(r"^\d+:\S+$")


class TelegramSettingsPage(QWidget):
    def __init__(self, app: FrontEnd, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.pairing = app.telegram
        settings = app.settings
        self._token_env = bool(self.pairing.token()) and self.pairing.token_from_env()
        self._chat_env = settings.overridden_by_env("telegram.chat_id")
        self._test_result: str | None = None  # code of the last connection test
        self._bot_name = ""

        self._build_intro(settings)
        token_box = self._token_box()
        self.status = QLabel()
        self.status.setObjectName("telegramStatus")
        self.status.setWordWrap(True)

        code_box, pair_box = self._pairing_boxes()
        form = self._form(token_box, code_box, pair_box)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.how_to)
        layout.addLayout(form)
        layout.addStretch(1)

        self._connect_signals()
        self.retranslate()

    def _build_intro(self, settings: Settings) -> None:
        """Section title, the how-to text and the on/off switch."""
        self.title = QLabel()
        self.title.setObjectName("sectionTitle")
        self.how_to = QLabel()
        self.how_to.setObjectName("howTo")
        self.how_to.setWordWrap(True)
        self.how_to.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.enabled = QCheckBox()
        self.enabled.setObjectName("telegramEnabled")
        self.enabled.setChecked(settings.flag("telegram.enabled"))

    def _token_box(self) -> QWidget:
        """The token field (read-only when the environment presets it) and its test button."""
        self.token = QLineEdit()
        self.token.setObjectName("telegramToken")
        self.token.setEchoMode(QLineEdit.EchoMode.Password)
        self.token.setReadOnly(self._token_env)
        self.test_button = QPushButton()
        self.test_button.setObjectName("testConnection")
        token_row = QHBoxLayout()
        token_row.setContentsMargins(0, 0, 0, 0)
        token_row.addWidget(self.token, 1)
        token_row.addWidget(self.test_button)
        token_box = QWidget()
        token_box.setLayout(token_row)
        return token_box

    def _pairing_boxes(self) -> tuple[QWidget, QWidget]:
        """The pairing code with its new-code button, and the paired chat with unpair."""
        self.code = QLabel()
        self.code.setObjectName("pairingCode")
        self.code.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = QFont(self.code.font())
        font.setPointSizeF(font.pointSizeF() * 1.6)
        font.setBold(True)
        font.setLetterSpacing(QFont.SpacingType.AbsoluteSpacing, 2)
        self.code_font = font
        self.code_hint = QLabel()
        self.code_hint.setObjectName("pairingHint")
        self.code_hint.setWordWrap(True)
        self.new_code_button = QPushButton()
        self.new_code_button.setObjectName("newPairingCode")
        self.paired = QLabel()
        self.paired.setObjectName("pairedChat")
        self.unpair_button = QPushButton()
        self.unpair_button.setObjectName("unpair")
        self.unpair_button.setEnabled(not self._chat_env)
        pair_box = field_row(self.paired, self.unpair_button, grow=self.paired)
        code_box = field_row(self.code, self.new_code_button)
        return code_box, pair_box

    def _form(self, token_box: QWidget, code_box: QWidget, pair_box: QWidget) -> QFormLayout:
        self.labels = {key: QLabel() for key in ("token", "status", "code", "paired")}
        form = QFormLayout()
        add_field_row(form, self.enabled)
        form.addRow(self.labels["token"], token_box)
        form.addRow(self.labels["status"], self.status)
        form.addRow(self.labels["code"], code_box)
        add_field_row(form, self.code_hint)
        form.addRow(self.labels["paired"], pair_box)
        return form

    def _connect_signals(self) -> None:
        self.test_button.clicked.connect(self.test_connection)
        self.new_code_button.clicked.connect(self.new_code)
        self.unpair_button.clicked.connect(self.unpair)
        self.enabled.toggled.connect(lambda _on: self.refresh())
        self.token.textChanged.connect(lambda _t: self.refresh())
        # the owner pairs from his phone while this page is open: keep the state current
        self._poll = QTimer(self)
        self._poll.setInterval(2000)
        self._poll.timeout.connect(self.refresh)
        self._poll.start()

    # -- actions -----------------------------------------------------------------------------
    def values(self) -> dict[str, SettingValue]:
        """The settings this page writes (the dialog saves every page's at once)."""
        return {"telegram.enabled": self.enabled.isChecked()}

    def pending_secret(self) -> tuple[str, str] | None:
        """A newly typed token to store, (name, value); None when nothing was typed."""
        typed = self.token.text().strip()
        return (TELEGRAM_TOKEN, typed) if typed and not self._token_env else None

    def problems(self) -> list[str]:
        """What stops this page from being saved, in the owner's language (none: empty)."""
        secret = self.pending_secret()
        if secret is not None and not _TOKEN_SHAPE.match(secret[1]):
            return [
                self.tr("The bot token looks wrong: BotFather's tokens look like 123456789:AA…")
            ]
        return []

    def saved(self) -> None:
        """After the dialog stored this page: clear the typed token, show the new state."""
        self.token.clear()
        self.refresh()

    def save(self) -> None:
        """Write the switch and a newly typed token (keyring) — this page alone."""
        problems = self.problems()
        if problems:
            self.status.setText(problems[0])
            return
        secret = self.pending_secret()
        if secret is not None:
            try:
                self.app.secrets.set(*secret)
            except InquiryBridgeError as exc:
                self.status.setText(exc.user_message(_lang()))
                return
        self.app.settings.update(self.values())
        self.saved()

    def new_code(self) -> None:
        self.pairing.new_pairing_code()
        self.refresh()

    def unpair(self) -> None:
        self.pairing.unpair()
        self.refresh()

    def test_connection(self) -> None:
        token = self.token.text().strip() or self.pairing.token()
        if not token:
            self._test_result = "no_token"
            self.refresh()
            return
        self._test_result = "testing"
        self.test_button.setEnabled(False)
        self.refresh()
        spawn(self._get_me(token), on_error=self._test_failed)

    async def _get_me(self, token: str) -> None:
        # the service closes its client before it answers, and the answer is published in one
        # step: whoever sees the result (the dialog, a test) never races a task that still
        # touches this page afterwards
        answer = await self.app.connection_tests.telegram(token)
        if answer.verdict == "ok":
            self._bot_name = answer.bot_name
        self._test_result = answer.verdict
        self.test_button.setEnabled(True)
        self.refresh()

    def _test_failed(self, exc: BaseException) -> None:
        log.warning("telegram test failed: %s", exc)
        self._test_result = "error"
        self.test_button.setEnabled(True)
        self.refresh()

    # -- state -> text -----------------------------------------------------------------------
    def refresh(self) -> None:
        saved_token = self.pairing.token()
        has_token = bool(self.token.text().strip() or saved_token)
        owner = self.pairing.owner()
        code = self.pairing.current_pairing_code()

        if self._token_env:
            self.token.setPlaceholderText(self.tr("Set by INQUIRY_BRIDGE_TELEGRAM_TOKEN"))
        elif saved_token:
            self.token.setPlaceholderText(self.tr("Saved in the system keyring (type to replace)"))
        else:
            self.token.setPlaceholderText(self.tr("Paste the token from @BotFather"))

        if code is not None:
            self.code.setFont(self.code_font)
            self.code.setText(code.code)
            until = to_sydney(code.expires_at).strftime("%H:%M")
            self.code_hint.setText(
                self.tr("Send /start %1 to your bot from your phone. Valid until %2, single use.")
                .replace("%1", code.code)
                .replace("%2", until)
            )
        else:
            self.code.setFont(self.font())
            self.code.setText(self.tr("(none)"))
            self.code_hint.setText(self.tr("Press New code, then send /start CODE to your bot."))

        if owner is None:
            self.paired.setText(self.tr("Not paired"))
        elif owner.preset and owner.needs_user:
            # a preset group: alerts reach it, but nobody in it may act until the owner proves
            # himself there with /start CODE (see core.notify.pairing)
            self.paired.setText(
                self.tr(
                    "Group %1 (set by INQUIRY_BRIDGE_TELEGRAM_CHAT_ID): buttons work only after "
                    "you send /start CODE in that group."
                ).replace("%1", str(owner.chat_id))
            )
        elif owner.preset:
            self.paired.setText(
                self.tr("Chat %1 (set by INQUIRY_BRIDGE_TELEGRAM_CHAT_ID)").replace(
                    "%1", str(owner.chat_id)
                )
            )
        else:
            who = f"{owner.name} · " if owner.name else ""
            self.paired.setText(
                self.tr("%1chat %2").replace("%1", who).replace("%2", str(owner.chat_id))
            )
        # a preset group's owner binding can be forgotten too (the group itself stays preset)
        self.unpair_button.setEnabled(
            owner is not None and (not owner.preset or (owner.chat_id < 0 and not owner.needs_user))
        )

        self.status.setText(self._status_text(has_token, owner is not None))

    def _status_text(self, has_token: bool, paired: bool) -> str:
        test = {
            "testing": self.tr("Checking the token…"),
            "ok": self.tr("Token works (bot @%1).").replace("%1", self._bot_name),
            "bad_token": self.tr("Telegram rejected this token. Copy it again from @BotFather."),
            "offline": self.tr("Cannot reach Telegram. Check the network and try again."),
            "error": self.tr("Telegram answered with an error. Try again later."),
            "no_token": self.tr("Enter the bot token first."),
        }.get(self._test_result or "", "")
        enabled = self.enabled.isChecked() or self.pairing.enabled()
        if not enabled:
            state = self.tr("Off: alerts only appear on this computer.")
        elif not has_token:
            state = self.tr("Not set up: paste the bot token.")
        elif not paired:
            state = self.tr("Waiting for pairing: send /start CODE to your bot.")
        else:
            state = self.tr("On: alerts are also sent to your Telegram.")
        return f"{state} {test}".strip()

    # -- language ----------------------------------------------------------------------------
    def retranslate(self) -> None:
        self.title.setText(self.tr("Telegram alerts and approvals"))
        self.how_to.setText(
            self.tr(
                "Get alerts on your phone and approve drafts with a button. In Telegram, open "
                "@BotFather, send /newbot and follow the steps; paste the token it gives you "
                "below. Then press New code and send /start CODE to your new bot. Only that chat "
                "is trusted; typed words never send an email."
            )
        )
        self.enabled.setText(self.tr("Send alerts to Telegram"))
        self.test_button.setText(self.tr("Test"))
        self.new_code_button.setText(self.tr("New code"))
        self.unpair_button.setText(self.tr("Unpair"))
        self.labels["token"].setText(self.tr("Bot token"))
        self.labels["status"].setText(self.tr("Status"))
        self.labels["code"].setText(self.tr("Pairing code"))
        self.labels["paired"].setText(self.tr("Paired chat"))
        self.refresh()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:
        self._poll.stop()
        super().hideEvent(event)

    def showEvent(self, event: QShowEvent) -> None:
        self._poll.start()
        self.refresh()
        super().showEvent(event)


def _lang() -> str:
    from desktop.i18n import current_language

    return current_language()
