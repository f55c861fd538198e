"""One reminder, or one 需要您确认 item, with its one-click buttons.

Signals (both cards):
    open_item(str, int): show the inquiry on the board (ref_type, ref_id).
    done(str): an action finished ("snooze:3", "lost", "draft", "confirmed"); the holder may
        close or refresh.
"""

from __future__ import annotations

import asyncio
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import FrontEnd
from core.app.types import SNOOZE_CHOICES
from desktop.aio import spawn
from desktop.errors_ui import message_for
from desktop.look import set_tone

if TYPE_CHECKING:
    from collections.abc import Awaitable
    from collections.abc import Callable

    from core.app.types import AttentionItem


class _Card(QFrame):
    open_item = Signal(str, int)
    done = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rhythmCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        self.status = QLabel()
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.status.setWordWrap(True)
        self.buttons = QHBoxLayout()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        layout.addWidget(self.text)
        layout.addLayout(self.buttons)
        layout.addWidget(self.status)
        self.status.hide()
        self.task: asyncio.Future[None] | None = None

    def _button(self, slot: Callable[[], Awaitable[object]]) -> QPushButton:
        button = QPushButton()
        button.clicked.connect(lambda: self._run(slot))
        self.buttons.addWidget(button)
        return button

    def _run(self, slot: Callable[[], Awaitable[object]]) -> None:
        self.task = spawn(self._guarded(slot))

    async def _guarded(self, slot: Callable[[], Awaitable[object]]) -> None:
        self.setEnabled(False)
        try:
            await slot()
        except Exception as exc:  # the owner reads why, in his language; the card stays usable
            self.status.setText(message_for(exc))
            set_tone(self.status, "error")
            self.status.show()
        finally:
            self.setEnabled(True)

    def _say(self, text: str) -> None:
        set_tone(self.status, "")
        self.status.setText(text)
        self.status.show()


class ReminderCard(_Card):
    """起草跟进邮件 · 打开询盘 · 推迟 1/3/7 天 · 标记流失 for the reminder of one inquiry."""

    def __init__(
        self, app: FrontEnd, inquiry_id: int, text: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.app = app
        self.inquiry_id = inquiry_id
        self.compose_dialog: QWidget | None = None
        self.text.setText(text)
        self.draft_button = self._button(self.draft_follow_up)
        self.open_button = self._button(self.open_inquiry)
        self.snooze_buttons = {
            days: self._button(partial(self.snooze, days)) for days in SNOOZE_CHOICES
        }
        self.lost_button = self._button(self.mark_lost)
        self.retranslate()

    def retranslate(self) -> None:
        self.draft_button.setText(self.tr("Draft the follow-up"))
        self.open_button.setText(self.tr("Open the inquiry"))
        for days, button in self.snooze_buttons.items():
            button.setText(self.tr("Snooze %n day(s)", "", days))
        self.lost_button.setText(self.tr("Mark lost"))

    async def open_inquiry(self) -> None:
        self.open_item.emit("inquiry", self.inquiry_id)
        self.done.emit("open")

    async def snooze(self, days: int) -> None:
        until = await self.app.rhythm.actions().snooze(self.inquiry_id, days)
        self._say(self.tr("Snoozed until %1").replace("%1", until.strftime("%Y-%m-%d %H:%M")))
        self.done.emit(f"snooze:{days}")

    async def mark_lost(self) -> None:
        await self.app.rhythm.actions().mark_lost(self.inquiry_id)
        self._say(self.tr("Marked lost"))
        self.done.emit("lost")

    async def draft_follow_up(self) -> None:
        """The compose dialog, filled with the stage's follow-up instruction: he reads it, may
        change it, and the draft then waits for his approval (nothing is sent)."""
        from desktop.approval.compose_dialog import ComposeDialog

        instruction = await self.app.rhythm.actions().instruction_for(self.inquiry_id)
        dialog = ComposeDialog(self.app, self.app.drafts, self.inquiry_id)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.instruction.setPlainText(instruction)
        dialog.show()
        self.compose_dialog = dialog
        self.done.emit("draft")


class AttentionCard(_Card):
    """确认 · 打开询盘 for one item that needs the owner's judgement."""

    def __init__(
        self, app: FrontEnd, item: AttentionItem, text: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.app = app
        self.item = item
        self.text.setText(text)
        self.confirm_button = self._button(self.confirm)
        self.open_button = self._button(self.open_inquiry)
        self.open_button.setVisible(item.inquiry_id is not None)
        self.retranslate()

    def retranslate(self) -> None:
        self.confirm_button.setText(self.tr("Confirm"))
        self.open_button.setText(self.tr("Open the inquiry"))

    async def confirm(self) -> None:
        await self.app.attention.confirm(self.item.key)
        self._say(self.tr("Confirmed"))
        self.done.emit("confirmed")

    async def open_inquiry(self) -> None:
        if self.item.inquiry_id is not None:
            self.open_item.emit("inquiry", self.item.inquiry_id)
        self.done.emit("open")
