"""The dock that puts the chat panel beside the board in the main window.

Hidden until asked for (助手 in the toolbar or the tray, or Ctrl+Shift+A): at 1366×768 the board
and its detail need the width. It can be floated off the window or docked on either side.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QDockWidget
from PySide6.QtWidgets import QMainWindow
from PySide6.QtWidgets import QWidget

from desktop.chat.panel import ChatPanel
from desktop.context import AppContext


class ChatDock(QDockWidget):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("assistantDock")
        self.setAllowedAreas(
            Qt.DockWidgetArea.RightDockWidgetArea | Qt.DockWidgetArea.LeftDockWidgetArea
        )
        self.panel = ChatPanel(ctx, self)
        self.panel.setMinimumWidth(340)
        self.setWidget(self.panel)
        self.retranslate()

    def open(self) -> None:
        """Show the panel and put the cursor in its input."""
        self.show()
        self.raise_()
        self.panel.focus_input()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Assistant"))

    def showEvent(self, event: QShowEvent) -> None:
        """Docked, the panel takes its narrowest width: at 1366×768 every pixel it leaves is the
        board's, whose customer and days columns were cut with the assistant open (#42)."""
        super().showEvent(event)
        window = self.parentWidget()
        if isinstance(window, QMainWindow) and not self.isFloating():
            width = self.panel.minimumWidth()
            window.resizeDocks([self], [width], Qt.Orientation.Horizontal)

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
