"""What the tray opens for rhythm alerts: a reminder's action window, the briefing window.

A tray balloon cannot carry buttons, so clicking a reminder's balloon opens a small window with
the reminder and its one-click actions, and clicking the briefing's balloon (or the tray menu's
今晚简报) opens the briefing window. ``RhythmDesk`` keeps those windows alive and forwards their
"open this inquiry" to the tray's ``open_item``.

Signals:
    open_item(str, int): show an inquiry on the board.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtCore import QObject
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import FrontEnd
from desktop.aio import spawn
from desktop.look import SPACE
from desktop.reopen import alive
from desktop.rhythm.words import reminder_line

if TYPE_CHECKING:  # the windows (and the holiday tables under them) load on first use
    from desktop.rhythm.briefing_window import BriefingWindow
    from desktop.stats.window import StatsWindow


class ReminderDialog(QDialog):
    """The reminder alert's title and text, with its one-click actions."""

    def __init__(
        self, app: FrontEnd, inquiry_id: int, title: str, body: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        from desktop.rhythm.cards import ReminderCard

        self.app = app
        self.inquiry_id = inquiry_id
        self.reminder: Mapping[str, object] | None = None
        self.setWindowTitle(title)
        self.heading = QLabel(title)
        self.heading.setObjectName("sectionTitle")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.card = ReminderCard(app, inquiry_id, body, self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.card)
        self.card.done.connect(self._after)
        # wide enough for the card's row of buttons (a wrapped heading would narrow the window)
        self.setMinimumWidth(self.card.buttons.sizeHint().width() + 4 * SPACE["m"])
        self.task = spawn(self.load())

    async def load(self) -> None:
        """The alert's text came from the outbox (Chinese, as Telegram has it): say it again in
        the UI language from the reminder itself, while it is still due."""
        for reminder in await self.app.rhythm.reminders():
            if reminder.inquiry_id == self.inquiry_id:
                self.reminder = reminder.as_json()
                self.retranslate()
                return

    def retranslate(self) -> None:
        self.card.retranslate()
        reminder = self.reminder
        if reminder is None:
            return
        who = str(reminder.get("customer_name") or f"#{self.inquiry_id}")
        title = self.tr("Follow-up reminder: %1").replace("%1", who)
        self.setWindowTitle(title)
        self.heading.setText(title)
        self.card.text.setText(reminder_line(reminder))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _after(self, action: str) -> None:
        if action in ("open", "draft", "lost") or action.startswith("snooze"):
            self.accept()


class RhythmDesk(QObject):
    open_item = Signal(str, int)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.briefing: BriefingWindow | None = None
        self.stats: StatsWindow | None = None
        self.reminders: list[ReminderDialog] = []

    def show_reminder(
        self, app: FrontEnd, inquiry_id: int, title: str, body: str
    ) -> ReminderDialog:
        dialog = ReminderDialog(app, inquiry_id, title, body)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.card.open_item.connect(self.open_item)
        dialog.finished.connect(lambda *_: self._forget(dialog))
        self.reminders.append(dialog)
        dialog.show()
        return dialog

    def _forget(self, dialog: ReminderDialog) -> None:
        if dialog in self.reminders:
            self.reminders.remove(dialog)

    def show_briefing(self, app: FrontEnd) -> BriefingWindow:
        from desktop.rhythm.briefing_window import BriefingWindow

        if not alive(self.briefing) or self.briefing.app is not app:
            if alive(self.briefing):
                self.briefing.close()
                self.briefing.deleteLater()
            self.briefing = BriefingWindow(app)
            self.briefing.open_item.connect(self.open_item)
        self.briefing.reload()
        self.briefing.show()
        self.briefing.raise_()
        return self.briefing

    def show_stats(self, app: FrontEnd) -> StatsWindow:
        """概览 / 成本与质量 (the weekly report's balloon opens it too)."""
        from desktop.stats.window import StatsWindow

        if not alive(self.stats) or self.stats.app is not app:
            if alive(self.stats):
                self.stats.close()
                self.stats.deleteLater()
            self.stats = StatsWindow(app)
        self.stats.reload()
        self.stats.show()
        self.stats.raise_()
        return self.stats
