"""The detail pane's place beside the table until the pane itself is built.

The detail pane (``desktop.detail``) is the heaviest part of the window: its modules pull in the
voice button, the quote editor and the compose dialog, ~0.1 s of imports and widgets that a
start does not need to show the board, because nothing is selected yet. The board therefore
starts with this slot, which looks exactly like the pane with nothing selected, and swaps the
pane in right after the board's first paint, or at once when something asks for it (#44).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QEvent
from PySide6.QtCore import QObject
from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QSplitter
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from desktop.context import AppContext

if TYPE_CHECKING:
    from desktop.detail import InquiryDetailView

AFTER_PAINT_MS = 100


class DetailSlot(QWidget):
    """The pane's look with nothing selected: its placeholder line, its margins."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.placeholder = QLabel()
        self.placeholder.setObjectName("placeholder")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 0, 0)  # as InquiryDetailView's
        layout.addWidget(self.placeholder)
        self.retranslate()

    def retranslate(self) -> None:
        # the pane's own words, from its translation context: one string, one translation
        self.placeholder.setText(
            QCoreApplication.translate(
                "InquiryDetailView", "Select an inquiry on the left to see its details."
            )
        )

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


class DeferredDetail(QObject):
    """Builds the detail pane into ``splitter``'s ``index`` on first use or after a paint.

    ``on_built`` receives the pane once, to connect its signals.
    """

    def __init__(
        self,
        ctx: AppContext,
        splitter: QSplitter,
        on_built: Callable[[InquiryDetailView], None],
    ) -> None:
        super().__init__(splitter)
        self._ctx = ctx
        self._splitter = splitter
        self._on_built = on_built
        self.slot = DetailSlot()
        self._index = splitter.count()
        splitter.addWidget(self.slot)
        self._pane: InquiryDetailView | None = None
        self._scheduled = False

    @property
    def built(self) -> bool:
        return self._pane is not None

    def pane(self) -> InquiryDetailView:
        """The pane, built now if it was not yet."""
        if self._pane is None:
            from desktop.detail import InquiryDetailView

            pane = InquiryDetailView(self._ctx)
            self._pane = pane
            splitter = self._splitter
            # on screen, the split he sees (or dragged) stays where it is; before the first
            # show, the board's intended split (its setSizes) must stand, not today's guesses
            sizes = splitter.sizes() if splitter.isVisible() else None
            # the board's stretch factor lives in the slot's size policy: the pane takes it
            # over, so a wider window still widens both sides (3 : 2), not the table alone
            stretch = self.slot.sizePolicy().horizontalStretch()
            splitter.replaceWidget(self._index, pane)
            splitter.setStretchFactor(self._index, stretch)
            if sizes is not None:
                splitter.setSizes(sizes)
            self.slot.deleteLater()
            self._on_built(pane)
        return self._pane

    def after_paint(self) -> None:
        """The board's rows have painted: build the pane a moment later, once what their
        arrival set going (the first mail sync, the tray's count, whoever awaited the board)
        has run; anything that needs the pane sooner builds it on the spot."""
        if self._pane is None and not self._scheduled:
            self._scheduled = True
            QTimer.singleShot(AFTER_PAINT_MS, self, self.pane)
