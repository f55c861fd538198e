"""What the assistant remembers, where the owner can see it: memories grouped by kind (老板偏好,
客户备注, 业务规则, 经验) with their source and date; he edits the words, retires one he no
longer wants, and confirms what the assistant proposed after reading customer mail.

Why it matters: every memory is read by every later prompt. A proposal is not used until he
confirms it here (or with ``memories confirm``); each move goes through ``App.memories`` and is
audited as the owner's. Opened from the chat panel's 记忆 button.

Signals:
    changed(): a memory was edited, retired or confirmed (the list has been reloaded).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.app.memories import MemoryItem
from core.text.inert import plain_tooltip
from desktop import text as domain_text
from desktop.aio import spawn
from desktop.context import AppContext
from desktop.errors_ui import show_error

ID_ROLE = Qt.ItemDataRole.UserRole + 1


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
    }
    return names.get(source, source)


def status_name(status: str) -> str:
    names = {
        "active": QCoreApplication.translate("Memory", "in use"),
        "proposed": QCoreApplication.translate("Memory", "proposed — confirm?"),
    }
    return names.get(status, status)


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
        self.tree.setColumnCount(4)
        self.tree.setRootIsDecorated(False)
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in (1, 2, 3):
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
        self.groups = await self.memories.by_kind()
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
                row.setToolTip(0, plain_tooltip(item.text))
                if item.status == "proposed":
                    row.setForeground(3, QBrush(QColor("#b35900")))
                group.addChild(row)
                if item.id == keep:
                    self.tree.setCurrentItem(row)
            group.setExpanded(True)
        self.tree.expandAll()
        self._on_current(self.tree.currentItem(), None)

    def _columns(self, item: MemoryItem) -> list[str]:
        when = ""
        if item.created_at:
            when = domain_text.local_time(datetime.fromisoformat(item.created_at))[:10]
        inquiry = ""
        if item.inquiry_id is not None:
            about = QCoreApplication.translate("Memory", "inquiry #%1")
            inquiry = "  · " + about.replace("%1", str(item.inquiry_id))
        return [
            item.text + inquiry,
            source_name(item.source),
            when,
            status_name(item.status),
        ]

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
            for j in range(group.childCount()):
                if group.child(j).data(0, ID_ROLE) == memory_id:
                    self.tree.setCurrentItem(group.child(j))
                    return

    # ------------------------------------------------------------------ actions

    def _on_current(self, current: Any, _previous: Any) -> None:
        memory_id = self.selected_id()
        item = self.item(memory_id) if memory_id is not None else None
        self.editor.setPlainText(item.text if item is not None else "")
        self.editor.setEnabled(item is not None)
        self.save_button.setEnabled(item is not None)
        self.retire_button.setEnabled(item is not None)
        self.confirm_button.setEnabled(item is not None and item.status == "proposed")

    def _act(self, action: str) -> Any:
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
                "The assistant reads these in every conversation. Proposed ones are not used "
                "until you confirm them; retired ones are kept but never used again."
            )
        )
        self.tree.setHeaderLabels(
            [self.tr("Memory"), self.tr("Source"), self.tr("Date"), self.tr("Status")]
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
