"""The main window as the owner first sees it in a test: sized, shown, its board loaded."""

from __future__ import annotations

from typing import Any

from desktop.context import AppContext
from desktop.main_window import MainWindow


async def shown_main_window(ctx: AppContext, qtbot: Any, width: int, height: int) -> MainWindow:
    """A main window of ``width`` x ``height``, exposed on the (offscreen) screen, its board's
    first page in; closed with the test (``qtbot``)."""
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.resize(width, height)
    window.show()
    qtbot.waitExposed(window)
    await window.board.ready()
    return window
