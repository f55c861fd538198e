"""The 待审批 tab: every draft that still needs the owner, newest first.

Rows refresh when core says a draft changed (``SignalHub.draft_changed``), debounced so a batch of
thirty drafts redraws once. Rows come from ``App.draft_reading`` (a reader alone: drafting is not
built to paint the list); the approval windows it opens get the app's drafting (``App.drafts``,
the owner's full set: this is his own surface). Double-click (or 打开) opens the approval window
for that draft. The main window reads ``pending_count()`` for its tab title; the tray counts from
the store itself.

The main window builds the list with ``read_at_once=False`` and reads it once the board's rows
are on screen: the reader's modules and the list's read are not what a start shows (#44).

Signals:
    count_changed(int): drafts waiting for approval after a refresh.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtCore import QTimer
from PySide6.QtCore import Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractItemView
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QHeaderView
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QTableWidget
from PySide6.QtWidgets import QTableWidgetItem
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app import FrontEnd
from core.app.types import to_sydney
from desktop.aio import Loads
from desktop.look import table_look
from desktop.reopen import alive
from desktop.reopen import showing

if TYPE_CHECKING:
    from core.app.types import DraftReader
    from core.app.types import DraftView
    from desktop.approval.parts import DraftingParts
    from desktop.hub import SignalHub

QUEUE_STATUSES = ("pending_approval", "approved", "sending", "failed")


class PendingDraftsView(QWidget):
    count_changed = Signal(int)

    def __init__(
        self,
        app: FrontEnd,
        hub: SignalHub | None,
        parent: QWidget | None = None,
        *,
        drafting: DraftingParts | None = None,
        read_at_once: bool = True,
    ) -> None:
        super().__init__(parent)
        self.app = app
        self.hub = hub
        self.drafting: DraftingParts = drafting if drafting is not None else self.app.drafts
        self._reader: DraftReader | None = None
        self.views: list[DraftView] = []
        self._read = False  # an answer came: until then the list says nothing, not "nothing"
        self.windows: dict[int, QWidget] = {}
        self._loads = Loads(self._load)
        self.setObjectName("pendingDrafts")

        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        self.summary = QLabel()
        top.addWidget(self.summary, 1)
        self.open_button = QPushButton()
        self.refresh_button = QPushButton()
        top.addWidget(self.open_button)
        top.addWidget(self.refresh_button)
        layout.addLayout(top)
        self.table = QTableWidget(0, 6)
        table_look(self.table)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table, 1)

        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(150)
        self._debounce.timeout.connect(self.refresh)
        if hub is not None:
            hub.draft_changed.connect(lambda *_: self._debounce.start())
        self.table.cellDoubleClicked.connect(lambda row, _col: self.open_row(row))
        self.open_button.clicked.connect(lambda: self.open_row(self.table.currentRow()))
        self.refresh_button.clicked.connect(self.refresh)
        self.retranslate()
        if read_at_once:
            self.refresh()

    @property
    def reader(self) -> DraftReader:
        """The drafts' reader, on the first read. The list needs no composer, fact guard or
        mailer: a reader alone keeps imports small (the app's drafting loads when a window
        opens)."""
        if self._reader is None:
            self._reader = self.app.draft_reading.reader
        return self._reader

    def read_once(self) -> None:
        """Read the list if nothing has read it yet (a start, once the board has painted; the
        tab opened sooner)."""
        if self._loads.task is None:
            self.refresh()

    def retranslate(self) -> None:
        self.open_button.setText(self.tr("Open"))
        self.refresh_button.setText(self.tr("Refresh"))
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Draft"),
                self.tr("Customer"),
                self.tr("To"),
                self.tr("Subject"),
                self.tr("Status"),
                self.tr("Created"),
            ]
        )
        self._render()

    def pending_count(self) -> int:
        return sum(1 for v in self.views if v.status == "pending_approval")

    def refresh(self) -> asyncio.Future[None]:
        return self._loads.start()

    async def ready(self) -> None:
        self.read_once()
        await self._loads.ready()

    async def _load(self) -> None:
        views = await self.reader.list(QUEUE_STATUSES, newest_first=True)
        if not alive(self):  # the window was replaced (demo <-> real) while this read ran
            return
        self.views = views
        self._read = True
        self._render()
        self.count_changed.emit(self.pending_count())

    def _status_text(self, view: DraftView) -> str:
        names = {
            "pending_approval": self.tr("Waiting for approval"),
            "approved": self.tr("Approved, waiting to send"),
            "sending": self.tr("Sending…"),
            "failed": self.tr("Sending failed"),
        }
        text = names.get(view.status, view.status)
        if view.is_sample:  # the demo's code-written reply
            text = self.tr("Sample") + " · " + text
        if view.unconfirmed_facts and view.status == "pending_approval":
            text += " · " + self.tr("%n unconfirmed", "", len(view.unconfirmed_facts))
        return text

    def _render(self) -> None:
        self.table.setRowCount(len(self.views))
        for row, view in enumerate(self.views):
            created = to_sydney(view.created_at).strftime("%m-%d %H:%M") if view.created_at else ""
            cells = [
                str(view.id),
                view.customer_name or "",
                ", ".join(view.to),
                view.subject,
                self._status_text(view),
                created,
            ]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, view.id)
                if view.unconfirmed_facts or view.status == "failed":
                    item.setForeground(Qt.GlobalColor.darkRed)
                self.table.setItem(row, col, item)
        n = self.pending_count()
        if not self._read:
            self.summary.setText("")
        elif n:
            self.summary.setText(self.tr("%n draft(s) waiting for your approval", "", n))
        else:
            self.summary.setText(self.tr("Nothing is waiting for approval."))

    def open_row(self, row: int) -> QWidget | None:
        if row < 0 or row >= len(self.views):
            return None
        return self.open_draft(self.views[row].id)

    def close_windows(self) -> None:
        """Close every approval window opened from here (the board they belong to is going:
        a demo draft's window must not stay open over his own folder)."""
        for window in list(self.windows.values()):
            if showing(window):
                window.close()
        self.windows.clear()

    def open_draft(self, draft_id: int) -> QWidget:
        from desktop.approval.window import ApprovalWindow

        window = self.windows.get(draft_id)
        if not showing(window):
            window = ApprovalWindow(self.app, self.drafting, draft_id, hub=self.hub)
            window.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            window.destroyed.connect(lambda *_, d=draft_id: self.windows.pop(d, None))
            window.draft_replaced.connect(lambda old, new, w=window: self._follow(old, new, w))
            self.windows[draft_id] = window
        window.show()
        if QGuiApplication.platformName() != "offscreen":  # offscreen cannot raise windows
            window.raise_()
            window.activateWindow()
        return window

    def _follow(self, old: int, new: int, window: QWidget) -> None:
        self.windows.pop(old, None)
        self.windows[new] = window
