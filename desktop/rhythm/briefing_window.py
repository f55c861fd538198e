"""The evening briefing in a window, in sections, in the UI language.

Under the heading (tomorrow's date, once) a line of counts, then two columns sized for a
1366×768 laptop: on the left tomorrow's appointments and the A-class measures waiting, in driving
order with the route link and, apart from the route, the addresses that could not be placed; on
the right the items that need his confirmation and the jobs overdue in their stage, each a card
with its one-click buttons. The window re-reads itself after each action, so a confirmed item or
a snoozed reminder leaves at once.

The words are built here through ``tr()`` from the briefing's data (``core.rhythm.briefing``);
Telegram and the CLI keep core's Chinese text. Customer text (names, addresses, what was last
said, notes) is shown as plain text, never as markup.

Signals:
    open_item(str, int): show an inquiry on the board.
"""

from __future__ import annotations

import asyncio
import html
from datetime import date

from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtCore import QUrl
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLayout
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QScrollArea
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import FrontEnd
from core.app.types import AttentionItem
from core.app.types import Briefing
from core.app.types import Visit
from core.app.types import display_phone
from core.app.types import place_of
from desktop.aio import Loads
from desktop.i18n import current_language
from desktop.inert import LinkGate
from desktop.look import SPACE
from desktop.rhythm.cards import AttentionCard
from desktop.rhythm.cards import ReminderCard
from desktop.rhythm.route_map import MapStop
from desktop.rhythm.route_map import RouteMap
from desktop.rhythm.words import attention_name
from desktop.rhythm.words import day_text
from desktop.rhythm.words import reminder_line
from desktop.text import products_text

MAX_CARDS = 10


def _plain(text: str = "", name: str = "") -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    if name:
        label.setObjectName(name)
    return label


class _Section(QFrame):
    """A titled block of the briefing; ``body`` holds its lines or cards."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("briefingSection")
        self.title = _plain(name="sectionTitle")
        self.body = QVBoxLayout()
        self.body.setSpacing(SPACE["s"])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(SPACE["m"], SPACE["xs"], SPACE["m"], SPACE["m"])
        layout.addWidget(self.title)
        layout.addLayout(self.body)

    def clear(self) -> None:
        _empty(self.body)


def _empty(layout: QLayout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget() if item is not None else None
        if widget is not None:
            widget.setParent(None)
            widget.deleteLater()


class BriefingWindow(QWidget):
    open_item = Signal(str, int)

    def __init__(self, app: FrontEnd, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.app = app
        self.setObjectName("briefingWindow")
        self.links = LinkGate(self)
        self.resize(1240, 660)  # inside 1366×768 with a taskbar and a title bar
        self.heading = _plain(name="briefingTitle")
        self.counts = _plain(name="muted")
        self.refresh_button = QPushButton()
        self.refresh_button.clicked.connect(lambda: self.reload())
        top = QHBoxLayout()
        heads = QVBoxLayout()
        heads.addWidget(self.heading)
        heads.addWidget(self.counts)
        top.addLayout(heads, 1)
        top.addWidget(self.refresh_button, 0, Qt.AlignmentFlag.AlignTop)
        self.appointments = _Section()
        self.route = _Section()
        self.map = _Section()  # the round drawn, beside its list
        self.attention = _Section()
        self.overdue = _Section()
        columns = QHBoxLayout()
        columns.setSpacing(SPACE["l"])
        for stretch, sections in (
            (2, (self.appointments, self.route)),
            (3, (self.map, self.attention, self.overdue)),
        ):
            column = QVBoxLayout()
            column.setSpacing(SPACE["m"])
            for section in sections:
                column.addWidget(section)
            column.addStretch(1)
            columns.addLayout(column, stretch)
        holder = QWidget()
        holder.setLayout(columns)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(holder)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(SPACE["l"], SPACE["l"], SPACE["l"], SPACE["s"])
        layout.addLayout(top)
        layout.addWidget(scroll, 1)
        self.briefing: Briefing | None = None
        self.items: list[AttentionItem] = []
        self.attention_cards: list[AttentionCard] = []
        self.reminder_cards: list[ReminderCard] = []
        self.loads = Loads(self.load)
        self.retranslate()

    def reload(self) -> asyncio.Future[None]:
        return self.loads.start()

    async def load(self) -> None:
        self.briefing = await self.app.rhythm.briefing()
        self.items = list(await self.app.attention.items())
        self._render()

    # ------------------------------------------------------------------ rendering

    def _render(self) -> None:
        for section in (self.appointments, self.route, self.map, self.attention, self.overdue):
            section.clear()
        self.map.hide()
        self.attention_cards, self.reminder_cards = [], []
        briefing = self.briefing
        if briefing is None:
            return
        day = date.fromisoformat(briefing.for_date)
        self.heading.setText(self.tr("Tomorrow, %1").replace("%1", day_text(day)))
        self.counts.setText(
            " · ".join(
                [
                    self.tr("New inquiries (24 h): %1").replace(
                        "%1", str(len(briefing.new_inquiries))
                    ),
                    self.tr("Drafts waiting for approval: %1").replace(
                        "%1", str(len(briefing.drafts_waiting))
                    ),
                    self.tr("Overdue: %1").replace("%1", str(len(briefing.overdue))),
                ]
            )
        )
        self._render_appointments(briefing)
        self._render_route(briefing)
        self._render_cards(briefing)

    def _render_appointments(self, briefing: Briefing) -> None:
        body = self.appointments.body
        if not briefing.calendar_checked:
            # core says why in Chinese (for Telegram); the English UI gets its own sentence
            note = briefing.calendar_note if current_language() == "zh_CN" else ""
            body.addWidget(
                _plain(
                    note or self.tr("Outlook calendar not read (not signed in to Microsoft)"),
                    "muted",
                )
            )
        elif not briefing.appointments:
            body.addWidget(_plain(self.tr("None"), "muted"))
        for event in briefing.appointments:
            when = str(event.get("start", ""))[11:16]
            body.addWidget(_plain(f"{when}  {event.get('subject', '')}"))

    def _route_start(self, briefing: Briefing) -> str:
        km = f"{briefing.route_km:g}" if briefing.route_km else ""
        if briefing.office and briefing.office_located:
            start = self.tr("From the office and back")
        elif briefing.office:
            start = self.tr(
                "The office address “%1” could not be placed: from the first stop, "
                "without the trips to and from the office"
            ).replace("%1", briefing.office)
        else:
            start = self.tr("No office address set: from the first stop")
        if km:
            start += " · " + self.tr("about %1 km in a straight line").replace("%1", km)
        return start

    def _render_route(self, briefing: Briefing) -> None:
        body = self.route.body
        if not briefing.measure_route and not briefing.unknown_places:
            body.addWidget(_plain(self.tr("None"), "muted"))
            return
        if briefing.measure_route:
            body.addWidget(_plain(self._route_start(briefing), "muted"))
            legs = briefing.legs_km if briefing.office_located else [None, *briefing.legs_km]
            for number, visit in enumerate(briefing.measure_route, 1):
                leg = legs[number - 1] if number - 1 < len(legs) else None
                body.addWidget(self._visit(number, visit, leg))
            if briefing.office_located and len(briefing.legs_km) > len(briefing.measure_route):
                back = self.tr("Back to the office: about %1 km")
                body.addWidget(_plain(back.replace("%1", f"{briefing.legs_km[-1]:g}"), "muted"))
            self._add_map(briefing)
        if briefing.maps_url:  # built by code from the stops; its text is ours
            words = self.tr("Open the route in Google Maps")
            href = html.escape(briefing.maps_url, quote=True)
            link = QLabel(f'<a href="{href}">{html.escape(words)}</a>')
            link.setObjectName("routeLink")
            link.setTextFormat(Qt.TextFormat.RichText)
            link.setOpenExternalLinks(False)  # the gate names the address before it opens
            link.linkActivated.connect(lambda url: self.links.request(QUrl(url)))
            body.addWidget(link)
        if briefing.unknown_places:
            body.addSpacing(SPACE["s"])
            heading = self.tr(
                "Addresses that could not be placed (%1): not in the route or the map link, "
                "arrange these yourself"
            ).replace("%1", str(len(briefing.unknown_places)))
            body.addWidget(_plain(heading))
            for visit in briefing.unknown_places:
                body.addWidget(self._visit(None, visit))

    def _add_map(self, briefing: Briefing) -> None:
        stops = [
            MapStop(number, (v.lat, v.lon), v.customer_name or f"#{v.inquiry_id}")
            for number, v in enumerate(briefing.measure_route, 1)
            if v.lat is not None and v.lon is not None
        ]
        if not stops:
            return
        view = RouteMap()
        view.setFixedHeight(240)
        view.set_round(briefing.office_point if briefing.office_located else None, stops)
        self.map.body.addWidget(view)
        self.map.show()

    def _visit(self, number: int | None, visit: Visit, leg_km: float | None = None) -> QWidget:
        who = visit.customer_name or self.tr("Inquiry #%1").replace("%1", str(visit.inquiry_id))
        parts = [
            f"{number}. {who}" if number else who,
            place_of(visit) or self.tr("address unknown"),
        ]
        if visit.products:
            parts.append(products_text(visit.products, current_language()))
        if visit.phone:
            parts.append(display_phone(visit.phone))
        if leg_km is not None:
            parts.append(self.tr("%1 km").replace("%1", f"{leg_km:g}"))
        box = QWidget()
        lines = QVBoxLayout(box)
        lines.setContentsMargins(0, 0, 0, 0)
        lines.setSpacing(2)
        head = _plain(" · ".join(parts))
        font = head.font()
        font.setBold(True)
        head.setFont(font)
        lines.addWidget(head)
        if visit.last_said:
            by = self.tr("customer") if visit.last_said_by == "customer" else self.tr("you")
            said = self.tr("Last (%1): %2").replace("%1", by).replace("%2", visit.last_said)
            lines.addWidget(_plain(said, "muted"))
        for note in visit.notes:
            lines.addWidget(_plain(self.tr("Note: %1").replace("%1", note), "muted"))
        return box

    def _render_cards(self, briefing: Briefing) -> None:
        for item in self.items[:MAX_CARDS]:
            label = item.label or self.tr("Email")
            card = AttentionCard(self.app, item, f"{label} — {attention_name(item.kind)}")
            card.setToolTip(item.detail)
            self._hold(card, self.attention.body)
            self.attention_cards.append(card)
        if not self.attention_cards:
            self.attention.body.addWidget(_plain(self.tr("Nothing to confirm"), "muted"))
        for reminder in briefing.overdue[:MAX_CARDS]:
            reminder_card = ReminderCard(
                self.app, int(reminder["inquiry_id"]), reminder_line(reminder)
            )
            self._hold(reminder_card, self.overdue.body)
            self.reminder_cards.append(reminder_card)
        if not self.reminder_cards:
            self.overdue.body.addWidget(_plain(self.tr("Nothing overdue"), "muted"))

    def _hold(self, card: AttentionCard | ReminderCard, box: QVBoxLayout) -> None:
        card.open_item.connect(self.open_item)
        card.done.connect(lambda action: self.reload() if action != "open" else None)
        box.addWidget(card)

    # ------------------------------------------------------------------ language

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Evening briefing"))
        self.refresh_button.setText(self.tr("Refresh"))
        self.appointments.title.setText(self.tr("Tomorrow's appointments"))
        self.route.title.setText(self.tr("Waiting for a measure (A) · suggested route"))
        self.map.title.setText(self.tr("The round on the map"))
        self.attention.title.setText(self.tr("Needs your confirmation"))
        self.overdue.title.setText(self.tr("Overdue in their stage"))
        self._render()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
