"""The bar on an inquiry's detail that asks "客户接受了报价 Q-…，改为已下单?" -- one click to decide.

A customer's reply that accepts a sent quote becomes a proposal (``core.app.quote_acceptance``:
the model's reading checked by code against the mail). It waits here, above the tabs, with the
customer's own words, until he decides: 确认 is ``quote accept`` (the quote accepted, the job
``ordered`` with the deposit due), 放弃 changes nothing. Both go through ``App.proposals`` -- the
same act as the Telegram buttons, so a proposal decided on the phone is gone here too.

Signals:
    decided(int): the inquiry's id, once he confirmed or dropped a proposal.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import App
from core.app.types import ProposalItem
from desktop.aio import spawn
from desktop.errors_ui import message_for
from desktop.inert import plain_label
from desktop.look import set_tone

KIND = "quote_accept"


class ProposalBar(QFrame):
    decided = Signal(int)

    def __init__(self, app: App, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.setObjectName("banner")
        self.item: ProposalItem | None = None
        self.question = QLabel()
        self.question.setWordWrap(True)
        self.words = plain_label()  # the customer's words, shown literally
        self.words.setWordWrap(True)
        self.words.setObjectName("muted")
        self.confirm_button = QPushButton()
        self.confirm_button.setObjectName("primary")
        self.confirm_button.clicked.connect(lambda: spawn(self.decide(True)))
        self.drop_button = QPushButton()
        self.drop_button.clicked.connect(lambda: spawn(self.decide(False)))
        text = QVBoxLayout()
        text.addWidget(self.question)
        text.addWidget(self.words)
        layout = QHBoxLayout(self)
        layout.addLayout(text, 1)
        layout.addWidget(self.confirm_button)
        layout.addWidget(self.drop_button)
        self.retranslate()
        self.hide()

    async def offers(self, inquiry_id: int) -> list[ProposalItem]:
        """The inquiry's open acceptance proposals (read off the UI thread)."""
        return [
            p
            for p in await self.app.proposals.open()
            if p.inquiry_id == inquiry_id and p.kind == KIND
        ]

    def show_offers(self, offers: list[ProposalItem]) -> None:
        self.item = offers[0] if offers else None
        self.setVisible(self.item is not None)
        self.retranslate()

    async def decide(self, confirm: bool) -> ProposalItem | None:
        item = self.item
        if item is None:
            return None
        self.confirm_button.setEnabled(False)
        self.drop_button.setEnabled(False)
        try:
            proposals = self.app.proposals
            done = await (proposals.confirm if confirm else proposals.drop)(item.id)
        except Exception as exc:  # decided on the phone meanwhile, or the accept was refused
            self.words.setText(message_for(exc))
            set_tone(self.words, "error")
            return None
        finally:
            self.confirm_button.setEnabled(True)
            self.drop_button.setEnabled(True)
        self.show_offers([])
        self.decided.emit(item.inquiry_id or 0)
        return done

    def retranslate(self) -> None:
        self.confirm_button.setText(self.tr("Yes, mark ordered"))
        self.drop_button.setText(self.tr("Dismiss"))
        item = self.item
        if item is None:
            return
        args = item.arguments or {}
        self.question.setText(
            self.tr("The customer accepted quote %1. Mark the job as ordered?").replace(
                "%1", str(args.get("number") or "")
            )
        )
        self.words.setText(
            self.tr("Customer's words: “%1”").replace("%1", str(args.get("words") or ""))
        )
        set_tone(self.words, "muted")

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
