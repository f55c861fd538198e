"""The assistant's dock, built the first time the owner opens it.

The chat dock starts hidden (the board and its detail need the width), yet building it cost every
start its modules and ~50 widgets: ~20 ms of a cold start and of the board's first paint (#44).
This slot stands in the main window from the start: the toolbar's 助手 button (checked while the
dock shows, as Qt's own toggle action is), the customer the board last selected, and a callback
that wires the dock to the window. The dock itself (``desktop.chat``) is imported and built on the
first ``dock()`` call: the button, Ctrl+Shift+A, the tray's 助手, or a test asking for it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow

from desktop.context import AppContext

if TYPE_CHECKING:
    from desktop.chat import ChatDock
    from desktop.chat import ChatPanel


class AssistantSlot(QObject):
    """Holds the place of the chat dock in ``window`` until it is first asked for."""

    def __init__(
        self, ctx: AppContext, window: QMainWindow, wire: Callable[[ChatDock], None]
    ) -> None:
        super().__init__(window)
        self._ctx = ctx
        self._window = window
        self._wire = wire
        self._dock: ChatDock | None = None
        self._customer: tuple[int, str] | None = None
        # the toolbar's 助手: shows or closes the dock, checked while it shows
        self.toggle_action = QAction(window)
        self.toggle_action.setCheckable(True)
        self.toggle_action.triggered.connect(self._toggled)

    @property
    def built(self) -> bool:
        return self._dock is not None

    def dock(self) -> ChatDock:
        """The chat dock, built (hidden, on the right) on the first call."""
        if self._dock is None:
            from desktop.chat import ChatDock

            dock = ChatDock(self._ctx, self._window)
            self._window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
            dock.hide()
            dock.visibilityChanged.connect(self._shown)
            self._dock = dock
            self._wire(dock)
            if self._customer is not None:
                dock.panel.set_customer(*self._customer)
        return self._dock

    def panel(self) -> ChatPanel | None:
        """The chat panel when the dock is built; None before (nothing to update yet)."""
        return self._dock.panel if self._dock is not None else None

    def set_customer(self, inquiry_id: int, name: str) -> None:
        """The customer the board selected: the panel's, now or when it is built."""
        self._customer = (inquiry_id, name)
        if self._dock is not None:
            self._dock.panel.set_customer(inquiry_id, name)

    def _toggled(self, checked: bool) -> None:
        if checked:
            self.dock().show()
        elif self._dock is not None:
            self._dock.close()

    def _shown(self, _visible: bool) -> None:
        # closed with its own ×, or opened by Ctrl+Shift+A: the button follows, as Qt's toggle
        # action does (checked unless the dock is hidden; a dock tabbed behind another is not)
        self.toggle_action.setChecked(self._dock is not None and not self._dock.isHidden())
