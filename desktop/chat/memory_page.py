"""What the assistant remembers, where the owner can see it: memories grouped by kind (老板偏好,
客户备注, 业务规则, 经验) with the customer each is about, where it came from (a conversation on
Telegram or the computer, a dictated note…) and when, where it was last used (which draft, or the
assistant on which channel) and its status; he edits the words, retires one he no longer wants,
and confirms what the assistant proposed after reading customer mail. Expired ones (a short-term
memory past its day) stay listed, greyed, and are no longer used.

Why it matters: every memory is read by every later prompt. A proposal is not used until he
confirms it here (or with ``memories confirm``); each move goes through ``App.memories`` and is
audited as the owner's. Opened from the chat panel's 记忆 button.

Signals:
    changed(): a memory was edited, retired or confirmed (the list has been reloaded).
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from datetime import timedelta

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QDialog
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QHeaderView
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QPlainTextEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QTreeWidget
from PySide6.QtWidgets import QTreeWidgetItem
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import EDITABLE_STATUSES
from core.app.types import PAGE_STATUSES
from core.app.types import MemoryItem
from core.app.types import plain_tooltip
from desktop import text as domain_text
from desktop.aio import spawn
from desktop.context import AppContext
from desktop.errors_ui import show_error

ID_ROLE = Qt.ItemDataRole.UserRole + 1
MEMORY, CUSTOMER, SOURCE, DATE, USED, STATUS = range(6)  # the columns


def kind_name(kind: str) -> str:
    names = {
        "boss_pref": QCoreApplication.translate("Memory", "Owner's preferences"),
        "customer_note": QCoreApplication.translate("Memory", "Customer notes"),
        "business_rule": QCoreApplication.translate("Memory", "Business rules"),
        "experience": QCoreApplication.translate("Memory", "Experience"),
    }
    return names.get(kind, kind)


def source_name(source: str) -> str:
    names = {
        "desktop": QCoreApplication.translate("Memory", "computer"),
        "voice": QCoreApplication.translate("Memory", "voice"),
        "telegram": QCoreApplication.translate("Memory", "Telegram"),
        "agent": QCoreApplication.translate("Memory", "assistant"),
        "cli": QCoreApplication.translate("Memory", "command line"),
        "owner": QCoreApplication.translate("Memory", "you"),
        "forwarded": QCoreApplication.translate("Memory", "forwarded on Telegram (not your words)"),
    }
    return names.get(source, source)


def channel_name(channel: str) -> str:
    names = {
        "desktop": QCoreApplication.translate("Memory", "computer"),
        "telegram": QCoreApplication.translate("Memory", "Telegram"),
        "cli": QCoreApplication.translate("Memory", "command line"),
    }
    return names.get(channel, channel)


def status_name(status: str) -> str:
    names = {
        "active": QCoreApplication.translate("Memory", "in use"),
        "proposed": QCoreApplication.translate("Memory", "proposed — confirm?"),
        "expired": QCoreApplication.translate("Memory", "expired"),
    }
    return names.get(status, status)


def origin_text(item: MemoryItem) -> str:
    """Who said it, and through what: "conversation (Telegram)" for what a conversation
    proposed, else the source ("voice", "Telegram", "computer")."""
    if item.channel:
        said = QCoreApplication.translate("Memory", "conversation (%1)")
        return said.replace("%1", channel_name(item.channel))
    return source_name(item.source)


def used_text(item: MemoryItem) -> str:
    """Where a prompt last read it: "draft #12 · 2026-04-02" or "assistant (Telegram) · …"."""
    if not item.last_used_in:
        return QCoreApplication.translate("Memory", "not used yet")
    kind, _, rest = item.last_used_in.partition(":")
    if kind == "draft":
        where = QCoreApplication.translate("Memory", "draft #%1").replace("%1", rest)
    elif kind == "assistant":
        where = QCoreApplication.translate("Memory", "assistant (%1)")
        where = where.replace("%1", channel_name(rest))
    else:
        where = item.last_used_in
    if item.last_used_at:
        where += " · " + _day(item.last_used_at)
    return where


def _day(iso: str) -> str:
    return domain_text.local_time(datetime.fromisoformat(iso))[:10]


class MemoryDialog(QDialog):
    changed = Signal()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.memories = ctx.app.memories
        self.groups: dict[str, list[MemoryItem]] = {}
        self.intro = QLabel()
        self.intro.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setColumnCount(6)
        self.tree.setRootIsDecorated(False)
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (CUSTOMER, SOURCE, DATE, USED, STATUS):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self.tree.currentItemChanged.connect(self._on_current)
        self.editor = QPlainTextEdit()
        self.editor.setMaximumHeight(90)
        self.save_button = QPushButton()
        self.retire_button = QPushButton()
        self.confirm_button = QPushButton()
        self.close_button = QPushButton()
        self.save_button.clicked.connect(lambda: self._act("edit"))
        self.retire_button.clicked.connect(lambda: self._act("retire"))
        self.confirm_button.clicked.connect(lambda: self._act("confirm"))
        self.close_button.clicked.connect(self.close)
        buttons = QHBoxLayout()
        for button in (self.confirm_button, self.save_button, self.retire_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.editor)
        layout.addLayout(buttons)
        self.resize(860, 560)
        self.retranslate()
        self._on_current(None, None)
        self.loading = spawn(self.reload())

    # ------------------------------------------------------------------ data

    async def reload(self) -> None:
        keep = self.selected_id()
        self.groups = await self.memories.by_kind(PAGE_STATUSES)
        self._fill(keep)

    def _fill(self, keep: int | None) -> None:
        self.tree.clear()
        bold = QFont()
        bold.setBold(True)
        for kind, items in self.groups.items():
            group = QTreeWidgetItem([f"{kind_name(kind)} ({len(items)})"])
            group.setFont(0, bold)
            group.setFlags(Qt.ItemFlag.ItemIsEnabled)
            group.setFirstColumnSpanned(True)
            self.tree.addTopLevelItem(group)
            for item in items:
                row = QTreeWidgetItem(self._columns(item))
                row.setData(0, ID_ROLE, item.id)
                row.setToolTip(MEMORY, plain_tooltip(self._details(item)))
                if item.status == "proposed":
                    row.setForeground(STATUS, QBrush(QColor("#b35900")))
                elif item.status == "expired":
                    for column in range(self.tree.columnCount()):
                        row.setForeground(column, QBrush(QColor("#8a8a8a")))
                group.addChild(row)
                if item.id == keep:
                    self.tree.setCurrentItem(row)
            group.setExpanded(True)
        self.tree.expandAll()
        self._on_current(self.tree.currentItem(), None)

    def _columns(self, item: MemoryItem) -> list[str]:
        text = item.text
        if item.expires_at:
            until = QCoreApplication.translate("Memory", "until %1")
            # expires_at is the next midnight in Sydney: the last day is the one before
            last = datetime.fromisoformat(item.expires_at) - timedelta(hours=1)
            text += "  · " + until.replace("%1", domain_text.local_time(last)[:10])
        return [
            text,
            item.customer,
            origin_text(item),
            _day(item.created_at) if item.created_at else "",
            used_text(item),
            status_name(item.status),
        ]

    def _details(self, item: MemoryItem) -> str:
        """The tooltip: the words, and how often he said them."""
        if item.seen_count <= 1:
            return item.text
        said = QCoreApplication.translate("Memory", "said %1 times")
        return f"{item.text}\n({said.replace('%1', str(item.seen_count))})"

    def item(self, memory_id: int) -> MemoryItem | None:
        for items in self.groups.values():
            for item in items:
                if item.id == memory_id:
                    return item
        return None

    def selected_id(self) -> int | None:
        current = self.tree.currentItem()
        value = current.data(0, ID_ROLE) if current is not None else None
        return int(value) if value is not None else None

    def select(self, memory_id: int) -> None:
        for i in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(i)
            if group is None:  # only past the last row; i stays below topLevelItemCount()
                continue
            for j in range(group.childCount()):
                child = group.child(j)
                if child is not None and child.data(0, ID_ROLE) == memory_id:
                    self.tree.setCurrentItem(child)
                    return

    # ------------------------------------------------------------------ actions

    def _on_current(
        self, current: QTreeWidgetItem | None, _previous: QTreeWidgetItem | None
    ) -> None:
        memory_id = self.selected_id()
        item = self.item(memory_id) if memory_id is not None else None
        self.editor.setPlainText(item.text if item is not None else "")
        self.editor.setEnabled(item is not None)
        self.save_button.setEnabled(item is not None and item.status in EDITABLE_STATUSES)
        self.retire_button.setEnabled(item is not None)
        self.confirm_button.setEnabled(item is not None and item.status == "proposed")

    def _act(self, action: str) -> asyncio.Future[None] | None:
        memory_id = self.selected_id()
        if memory_id is None:
            return None
        return spawn(self.apply(action, memory_id, self.editor.toPlainText()))

    async def apply(self, action: str, memory_id: int, text: str = "") -> None:
        """``edit`` / ``retire`` / ``confirm`` one memory as the owner, then reload."""
        try:
            if action == "edit":
                await self.memories.edit(memory_id, text)
            elif action == "retire":
                await self.memories.retire(memory_id)
            else:
                await self.memories.confirm(memory_id)
        except Exception as exc:  # the owner's sentence, in a dialog
            show_error(self, exc)
            return
        await self.reload()
        self.changed.emit()

    # ------------------------------------------------------------------ language

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("What the assistant remembers"))
        self.intro.setText(
            self.tr(
                "The assistant reads these in every conversation, and a customer's in his "
                "drafts. Proposed ones are not used until you confirm them; expired ones (past "
                "their day) and retired ones are kept but never used again."
            )
        )
        self.tree.setHeaderLabels(
            [
                self.tr("Memory"),
                self.tr("Customer"),
                self.tr("Came from"),
                self.tr("Date"),
                self.tr("Last used in"),
                self.tr("Status"),
            ]
        )
        self.editor.setPlaceholderText(self.tr("Select a memory to edit its words"))
        self.save_button.setText(self.tr("Save changes"))
        self.retire_button.setText(self.tr("Retire"))
        self.confirm_button.setText(self.tr("Confirm"))
        self.close_button.setText(self.tr("Close"))
        if self.groups:
            self._fill(self.selected_id())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


class MemoryButton(QPushButton):
    """「助手的记忆…」: opens the memory page; a self-contained hook for other windows
    (Settings' AI page) that keeps its own text in the UI language."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.dialog: MemoryDialog | None = None
        self.clicked.connect(self.open_page)
        self.retranslate()

    def open_page(self) -> MemoryDialog:
        dialog = MemoryDialog(self.ctx, self.window())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        self.dialog = dialog
        return dialog

    def retranslate(self) -> None:
        self.setText(self.tr("Assistant's memory…"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
