"""What the tray opens for rhythm alerts: a reminder's action window, the briefing window.

A tray balloon cannot carry buttons, so clicking a reminder's balloon opens a small window with
the reminder and its one-click actions, and clicking the briefing's balloon (or the tray menu's
今晚简报) opens the briefing window. ``RhythmDesk`` keeps those windows alive and forwards their
"open this inquiry" to the tray's ``open_item``.

Signals:
    open_item(str, int): show an inquiry on the board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QDialog, QLabel, QVBoxLayout, QWidget

from core.app import App
from desktop.reopen import alive

if TYPE_CHECKING:  # the windows (and the holiday tables under them) load on first use
    from desktop.rhythm.briefing_window import BriefingWindow


class ReminderDialog(QDialog):
    """The reminder alert's title and text, with its one-click actions."""

    def __init__(
        self, app: App, inquiry_id: int, title: str, body: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        from desktop.rhythm.cards import ReminderCard

        self.setWindowTitle(title)
        heading = QLabel(title)
        heading.setWordWrap(True)
        self.card = ReminderCard(app, inquiry_id, body, self)
        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(self.card)
        self.card.done.connect(self._after)

    def _after(self, action: str) -> None:
        if action in ("open", "draft", "lost") or action.startswith("snooze"):
            self.accept()


class RhythmDesk(QObject):
    open_item = Signal(str, int)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.briefing: BriefingWindow | None = None
        self.reminders: list[ReminderDialog] = []

    def show_reminder(self, app: App, inquiry_id: int, title: str, body: str) -> ReminderDialog:
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

    def show_briefing(self, app: App) -> BriefingWindow:
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
