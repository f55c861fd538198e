"""The detail's thread panel: the emails as cards, then the owner's own files, in a scroll area."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QScrollArea
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import FrontEnd
from core.app.types import InquiryDetail
from desktop.detail.cards import MessageCard
from desktop.detail.cards import OwnerFilesCard


class ThreadPanel(QScrollArea):
    """Rebuilds its cards on each render; 翻译 clicks come out as ``translate_requested``."""

    translate_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.cards: dict[int, MessageCard] = {}
        self.owner_files: OwnerFilesCard | None = None
        self.thread_box = QWidget()
        self.thread_layout = QVBoxLayout(self.thread_box)
        self.thread_layout.setSpacing(8)
        self.thread_layout.addStretch(1)
        self.setWidgetResizable(True)
        self.setWidget(self.thread_box)
        self.setFrameShape(QFrame.Shape.NoFrame)

    def show_detail(self, d: InquiryDetail, app: FrontEnd | None) -> None:
        for card in self.cards.values():
            card.setParent(None)
            card.deleteLater()
        self.cards = {}
        for message in d.messages:
            card = MessageCard(message, app, self.thread_box)
            card.translate_requested.connect(self.translate_requested)
            self.thread_layout.insertWidget(self.thread_layout.count() - 1, card)
            self.cards[message.id] = card
        if self.owner_files is not None:
            self.owner_files.setParent(None)
            self.owner_files.deleteLater()
            self.owner_files = None
        if d.owner_files:
            self.owner_files = OwnerFilesCard(d.owner_files, app, self.thread_box)
            self.thread_layout.insertWidget(self.thread_layout.count() - 1, self.owner_files)

    def retranslate(self) -> None:
        for card in self.cards.values():
            card.retranslate()
        if self.owner_files is not None:
            self.owner_files.retranslate()
