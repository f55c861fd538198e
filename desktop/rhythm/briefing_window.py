"""The evening briefing in a window: the Chinese text with its route link, then the items that
need his confirmation and the overdue jobs, each with its one-click buttons.

The text is ``core.rhythm.briefing_text.render_markdown`` (the same words Telegram gets), shown
as Markdown rendered by our own escaping code in an ``InertBrowser`` (customer names and
summaries inside it stay text: no resource is loaded, and only the http(s) route link opens,
after a dialog naming it); the cards under it act through the facade and the window re-reads itself after each
action, so a confirmed item or a snoozed reminder leaves the list at once.

Signals:
    open_item(str, int): show an inquiry on the board.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import QEvent, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from core.app import App
from core.rhythm.briefing_text import render_markdown
from core.text.inert import markdown_rich_text
from desktop.aio import spawn
from desktop.inert import InertBrowser, make_plain
from desktop.rhythm.cards import AttentionCard, ReminderCard

MAX_CARDS = 10


class BriefingWindow(QWidget):
    open_item = Signal(str, int)

    def __init__(self, app: App, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.setObjectName("briefingWindow")
        self.resize(720, 760)
        self.heading = make_plain(QLabel())
        self.heading.setObjectName("briefingTitle")
        self.refresh_button = QPushButton()
        self.refresh_button.clicked.connect(lambda: self.reload())
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.refresh_button)
        self.text = InertBrowser()  # the Google Maps route opens after a dialog naming it
        self.attention_label = QLabel()
        self.overdue_label = QLabel()
        self.cards_box = QVBoxLayout()
        holder = QWidget()
        inner = QVBoxLayout(holder)
        inner.addWidget(self.attention_label)
        self.attention_box = QVBoxLayout()
        inner.addLayout(self.attention_box)
        inner.addWidget(self.overdue_label)
        self.overdue_box = QVBoxLayout()
        inner.addLayout(self.overdue_box)
        inner.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(holder)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.text, 3)
        layout.addWidget(scroll, 2)
        self.attention_cards: list[AttentionCard] = []
        self.reminder_cards: list[ReminderCard] = []
        self.task: asyncio.Future[Any] | None = None
        self.retranslate()

    def reload(self) -> asyncio.Future[Any]:
        self.task = spawn(self.load())
        return self.task

    async def load(self) -> None:
        briefing = await self.app.rhythm.briefing()
        items = await self.app.attention.items()
        title, body = render_markdown(briefing)
        self.heading.setText(title)
        self.setWindowTitle(title)
        self.text.setHtml(markdown_rich_text(body))
        self._clear()
        for item in items[:MAX_CARDS]:
            label = item.label or self.tr("Email")
            card = AttentionCard(self.app, item, f"{label}：{item.title_zh}\n{item.detail}")
            self._hold(card, self.attention_box)
            self.attention_cards.append(card)
        for reminder in briefing.overdue[:MAX_CARDS]:
            who = reminder.get("customer_name") or f"#{reminder['inquiry_id']}"
            text = (
                f"{who}「{reminder['stage_zh']}」{reminder['days_in_stage']}/"
                f"{reminder['limit_days']} — {reminder['action_zh']}"
            )
            card = ReminderCard(self.app, int(reminder["inquiry_id"]), text)
            self._hold(card, self.overdue_box)
            self.reminder_cards.append(card)
        self.attention_label.setVisible(bool(self.attention_cards))
        self.overdue_label.setVisible(bool(self.reminder_cards))

    def _hold(self, card: AttentionCard | ReminderCard, box: QVBoxLayout) -> None:
        card.open_item.connect(self.open_item)
        card.done.connect(lambda action: self.reload() if action != "open" else None)
        box.addWidget(card)

    def _clear(self) -> None:
        for card in [*self.attention_cards, *self.reminder_cards]:
            card.setParent(None)
            card.deleteLater()
        self.attention_cards = []
        self.reminder_cards = []

    def retranslate(self) -> None:
        self.refresh_button.setText(self.tr("Refresh"))
        self.attention_label.setText(self.tr("Needs your confirmation"))
        self.overdue_label.setText(self.tr("Overdue in their stage"))
        if not self.heading.text():
            self.setWindowTitle(self.tr("Evening briefing"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            for card in [*self.attention_cards, *self.reminder_cards]:
                card.retranslate()
        super().changeEvent(event)
