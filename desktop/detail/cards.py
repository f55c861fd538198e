"""The cards of the email thread: one per message, and one for the owner's own files."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSizePolicy
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import FrontEnd
from core.app.types import AttachmentInfo
from core.app.types import MessageInfo
from core.app.types import mostly_chinese
from core.app.types import reflow
from desktop import text
from desktop.detail.attachments import AttachmentStrip
from desktop.inert import make_plain
from desktop.inert import plain_label


class OwnerFilesCard(QFrame):
    """The files the owner added to this customer from his computer (添加本机文件 on a reply):
    no email carried them, so they get a card of their own at the end of the thread."""

    def __init__(
        self, files: tuple[AttachmentInfo, ...], app: FrontEnd | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("messageCard")
        self.setProperty("direction", "owner")
        self.header = make_plain(QLabel())
        self.header.setObjectName("muted")
        self.attachments = AttachmentStrip(files, app, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addWidget(self.header)
        layout.addWidget(self.attachments)
        self.retranslate()

    def retranslate(self) -> None:
        self.header.setText(self.tr("Files you added from this computer"))
        self.attachments.retranslate()


class MessageCard(QFrame):
    """One email: who, when, the new text, the 翻译 button and its attachments."""

    translate_requested = Signal(int)

    def __init__(
        self, message: MessageInfo, app: FrontEnd | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.message = message
        self.app = app
        self.setObjectName("messageCard")
        self.setProperty("direction", message.direction)
        # what the customer wrote (sender, subject, body) is shown as literal text, always
        self.header = plain_label()
        self.header.setObjectName("muted")
        self.header.setWordWrap(True)  # a long sender must not widen the card past the pane
        self.subject = plain_label(message.subject or "")
        self.subject.setWordWrap(True)
        font = self.subject.font()
        font.setBold(True)
        self.subject.setFont(font)
        self.body = plain_label(reflow(message.body_text.strip() or message.body_full.strip()))
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.translation = plain_label(message.translation_zh or "")
        self.translation.setWordWrap(True)
        self.translation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.translation.setStyleSheet(
            "background:#eef6ff;border-left:3px solid #1f6feb;padding:6px;"
        )
        self.translation.setVisible(bool(message.translation_zh))
        self.translate_button = QPushButton()
        self.translate_button.clicked.connect(lambda: self.translate_requested.emit(message.id))
        # 翻译 only where he needs it: a Chinese mail is read as it is
        self.translate_button.setVisible(
            not mostly_chinese(f"{message.subject}\n{message.body_text or message.body_full}")
        )
        self.full_button = QToolButton()
        self.full_button.setCheckable(True)
        self.full_button.toggled.connect(self._toggle_full)
        self.full_button.setVisible(
            bool(message.body_full.strip())
            and message.body_full.strip() != message.body_text.strip()
        )

        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        top.addWidget(self.full_button)
        top.addWidget(self.translate_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addLayout(top)
        layout.addWidget(self.subject)
        layout.addWidget(self.body)
        layout.addWidget(self.translation)
        self.attachments = AttachmentStrip(
            message.attachments, app, self, not_kept=message.attachments_not_kept
        )
        if message.attachments or message.attachments_not_kept:
            layout.addWidget(self.attachments)
        self.retranslate()

    def _toggle_full(self, full: bool) -> None:
        m = self.message
        self.body.setText(
            reflow((m.body_full if full else m.body_text).strip() or m.body_full.strip())
        )
        self.retranslate()

    def set_translation(self, translation: str) -> None:
        self.translation.setText(translation)
        self.translation.setVisible(bool(translation))
        self.translate_button.setEnabled(True)
        self.retranslate()

    def set_busy(self) -> None:
        self.translate_button.setEnabled(False)
        self.translate_button.setText(self.tr("Translating…"))

    def retranslate(self) -> None:
        m = self.message
        sender = m.from_name or m.from_addr or ""
        if m.direction == "out":
            who = self.tr("We wrote to %1").replace("%1", ", ".join(m.to_addrs) or sender)
        else:
            who = self.tr("From %1").replace(
                "%1", f"{sender} <{m.from_addr}>" if m.from_name and m.from_addr else sender
            )
        self.header.setText(f"{who} · {text.local_time(m.received_at)}")
        if self.translate_button.isEnabled():
            self.translate_button.setText(
                self.tr("Hide translation")
                if not self.translation.isHidden() and self.translation.text()
                else self.tr("Translate")
            )
        self.full_button.setText(
            self.tr("New text only") if self.full_button.isChecked() else self.tr("Whole email")
        )
        self.attachments.retranslate()
