"""起草回复: the owner types or dictates what to say in Chinese; the model writes the email.

The dialog shows who the reply goes to and warns when this customer was mailed recently, so he
does not answer twice. On success it opens the approval window for the new draft — nothing is
sent from here.

Signals:
    drafted(int): the new draft's id.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPlainTextEdit
from PySide6.QtWidgets import QProgressBar
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import to_sydney
from desktop import ai_needed
from desktop.aio import spawn
from desktop.errors_ui import message_for
from desktop.inert import plain_label
from desktop.look import set_tone

if TYPE_CHECKING:
    from core.app import FrontEnd
    from desktop.approval.parts import DraftingParts


class ComposeDialog(QDialog):
    drafted = Signal(int)

    def __init__(
        self, app: FrontEnd, drafting: DraftingParts, inquiry_id: int, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.app = app  # whether a model is set up; dictation; the approval window it opens
        self.drafting = drafting
        self.inquiry_id = inquiry_id
        self.draft_id: int | None = None
        self.approval_window: QWidget | None = None
        self._task: asyncio.Future[int | None] | None = None
        self.setObjectName("composeDialog")
        self.resize(640, 420)

        layout = QVBoxLayout(self)
        self.header = plain_label()  # names the customer as he wrote it
        self.header.setWordWrap(True)
        layout.addWidget(self.header)
        self.recent_label = plain_label()
        self.recent_label.setWordWrap(True)
        set_tone(self.recent_label, "warning")
        self.recent_label.hide()
        layout.addWidget(self.recent_label)
        self.prompt = QLabel()
        layout.addWidget(self.prompt)
        row = QHBoxLayout()
        self.instruction = QPlainTextEdit()
        self.instruction.setObjectName("composeInstruction")
        row.addWidget(self.instruction, 1)
        from desktop.voice.dictation import DictationButton

        self.dictation = DictationButton(app, self.instruction, self)
        row.addWidget(self.dictation, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(row, 1)
        # the email as a slow model writes it (a model on his PC: minutes), read-only
        self.preview = QPlainTextEdit()
        self.preview.setObjectName("composePreview")
        self.preview.setReadOnly(True)
        self.preview.hide()
        layout.addWidget(self.preview, 1)
        bottom = QHBoxLayout()
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(140)
        self.progress.hide()
        self.status = QLabel()
        self.status.setWordWrap(True)
        bottom.addWidget(self.progress)
        bottom.addWidget(self.status, 1)
        self.ai_button = ai_needed.settings_button(self)  # 打开 AI 设置, only without a model
        self.ai_button.clicked.connect(self.reject)
        bottom.addWidget(self.ai_button)
        self.cancel_button = QPushButton()
        self.compose_button = QPushButton()
        self.compose_button.setDefault(True)
        bottom.addWidget(self.cancel_button)
        bottom.addWidget(self.compose_button)
        layout.addLayout(bottom)
        self.cancel_button.clicked.connect(self.reject)
        self.compose_button.clicked.connect(lambda: self.start())
        self.instruction.textChanged.connect(self._update)
        self.retranslate()
        self._info_task = spawn(self._load_info())

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Draft a reply"))
        self.prompt.setText(
            self.tr(
                "What should the reply say? Write or dictate it in Chinese, e.g. 报价15000含GST，下周二上门量尺"
            )
        )
        self.cancel_button.setText(self.tr("Cancel"))
        self.compose_button.setText(self.tr("Write the draft"))
        self._update()

    async def _load_info(self) -> None:
        reader = self.drafting.reader
        contact = await reader.inquiry_contact(self.inquiry_id)
        self.header.setText(
            self.tr("Reply to %1 <%2>. Nothing is sent until you approve it.")
            .replace("%1", contact.name or "")
            .replace("%2", contact.email or "")
        )
        recent = await reader.recent_contact(self.inquiry_id)
        if recent:
            r = recent[0]
            self.recent_label.setText(
                self.tr("Note: an email went to this customer on %1 (“%2”).")
                .replace("%1", to_sydney(r.at).strftime("%Y-%m-%d %H:%M"))
                .replace("%2", r.subject or "")
            )
            self.recent_label.show()

    def _update(self) -> None:
        busy = self._task is not None and not self._task.done()
        ready = self.app.llm.available
        if not ready:  # say so before he types an instruction nothing can turn into a draft
            self.status.setText(ai_needed.sentence())
        self.ai_button.setVisible(not ready and ai_needed.can_open())
        self.compose_button.setEnabled(
            ready and bool(self.instruction.toPlainText().strip()) and not busy
        )
        self.instruction.setReadOnly(busy)

    def start(self) -> asyncio.Future[int | None]:
        self._task = spawn(self.compose())
        self._update()
        return self._task

    def show_progress(self, text_so_far: str) -> None:
        """The English so far, while the model writes it: a slow model is seen working."""
        self.status.setText(self.tr("Generating… the text so far is shown below"))
        self.preview.show()
        self.preview.setPlainText(text_so_far)
        bar = self.preview.verticalScrollBar()
        bar.setValue(bar.maximum())

    async def compose(self) -> int | None:
        text = self.instruction.toPlainText().strip()
        if not text:
            return None
        self.progress.show()
        set_tone(self.status, "")
        self.status.setText(self.tr("Writing the draft…"))
        self.compose_button.setEnabled(False)
        try:
            draft_id = await self.drafting.composer.compose(
                self.inquiry_id, text, actor="owner", progress=self.show_progress
            )
        except Exception as exc:
            self.progress.hide()
            set_tone(self.status, "error")
            self.status.setText(message_for(exc))
            self._task = None
            self._update()
            return None
        self.progress.hide()
        self.draft_id = draft_id
        self.drafted.emit(draft_id)
        from desktop.approval.window import ApprovalWindow

        window = ApprovalWindow(self.app, self.drafting, draft_id)
        window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        window.show()
        self.approval_window = window
        self.accept()
        return draft_id
