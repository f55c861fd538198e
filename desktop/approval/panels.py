"""Parts of the approval window: the attachments checklist, the Chinese/English panes' marks,
and the bridge that tells the window when another surface moved its draft.

Strings here are translated in the ``ApprovalWindow`` context (``QCoreApplication.translate``
with that name, which lupdate reads), so the catalogue keeps one context for everything the
owner sees in that window.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QObject
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtGui import QColor
from PySide6.QtGui import QTextCharFormat
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QListWidget
from PySide6.QtWidgets import QListWidgetItem
from PySide6.QtWidgets import QPlainTextEdit
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QTextEdit
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import SEND_LIMIT_BYTES
from core.app.types import DraftChanged
from core.app.types import DraftView
from core.app.types import FileOption
from core.app.types import RecentContact
from core.app.types import human_size
from core.app.types import localise_times
from core.app.types import to_sydney
from core.app.types import visible_controls
from desktop.look import set_tone

if TYPE_CHECKING:
    from core.app.types import EventBus

HIGHLIGHT = QColor("#ffd8a8")


class DraftChangedBridge(QObject):
    """Core's DraftChanged (any thread) → a queued Qt signal on the UI thread."""

    changed = Signal(int, str)

    def __init__(self, bus: EventBus) -> None:
        super().__init__()
        self._unsubscribe: Callable[[], None] | None = bus.subscribe(
            DraftChanged, lambda e: self.changed.emit(e.draft_id, e.status)
        )

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None


def split_addresses(text: str) -> list[str]:
    return [a.strip() for a in re.split(r"[,;\s]+", text) if a.strip()]


def highlight_facts(editor: QPlainTextEdit | QTextEdit, facts: Iterable[str]) -> int:
    """Mark every occurrence of the unconfirmed values; returns how many were marked."""
    selections = []
    fmt = QTextCharFormat()
    fmt.setBackground(HIGHLIGHT)
    fmt.setToolTip(QCoreApplication.translate("ApprovalWindow", "Unconfirmed"))
    document = editor.document()
    for fact in facts:
        if not fact:
            continue
        cursor = QTextCursor(document)
        while True:
            cursor = document.find(fact, cursor)
            if cursor.isNull():
                break
            selection = QTextEdit.ExtraSelection()
            selection.cursor = cursor
            selection.format = fmt
            selections.append(selection)
    editor.setExtraSelections(selections)
    return len(selections)


def zh_html(text: str, facts: list[str]) -> str:
    """The Chinese preview with the unconfirmed values highlighted."""
    body = html.escape(text)
    # a time or duration reads the Chinese way in the rendering ("4 weeks" there is "4周")
    needles = {fact for fact in facts} | {localise_times(fact) for fact in facts}
    for fact in sorted(needles, key=len, reverse=True):
        escaped = html.escape(fact)
        body = body.replace(escaped, f"<span style='background:#ffd8a8'>{escaped}</span>")
    return "<div style='white-space:pre-wrap'>" + body + "</div>"


class AttachmentsPanel(QWidget):
    """The inquiry's files as a checklist (the draft's choice ticked), a size note and
    添加本机文件…. Emits ``toggled`` when the owner ticks or unticks a file."""

    toggled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.files_list = QListWidget()
        self.files_list.setObjectName("attachmentList")
        self.files_note = QLabel()
        self.files_note.setObjectName("attachmentNote")
        set_tone(self.files_note, "muted")
        box.addWidget(self.files_list)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.files_note, 1)
        self.add_file_button = QPushButton()
        self.add_file_button.setObjectName("addLocalFile")
        row.addWidget(self.add_file_button)
        box.addLayout(row)
        self.files_list.itemChanged.connect(lambda _item: self.toggled.emit())

    def retranslate(self) -> None:
        self.add_file_button.setText(
            QCoreApplication.translate("ApprovalWindow", "Add a file from this computer…")
        )
        self.add_file_button.setToolTip(
            QCoreApplication.translate(
                "ApprovalWindow",
                "Attach any file on this computer, e.g. the quote PDF you just made",
            )
        )

    def show_files(self, files: list[FileOption], chosen: set[int]) -> None:
        """Show ``files`` with the ``chosen`` ids ticked; files that cannot go are greyed."""
        self.files_list.blockSignals(True)
        self.files_list.clear()
        for f in files:
            text = f"{f.filename}  ({human_size(f.size)})"
            if not f.available:
                text += "  — " + QCoreApplication.translate("ApprovalWindow", "cannot be attached")
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, f.id)
            flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable
            if not f.available and f.id not in chosen:
                flags = Qt.ItemFlag.NoItemFlags
            item.setFlags(flags)
            item.setCheckState(Qt.CheckState.Checked if f.id in chosen else Qt.CheckState.Unchecked)
            if f.reason:
                item.setToolTip(f.reason)
            self.files_list.addItem(item)
        self.files_list.blockSignals(False)
        self.files_list.setVisible(bool(files))
        if not files:
            self.files_note.setText(
                QCoreApplication.translate("ApprovalWindow", "This inquiry has no files to attach.")
            )
            return
        # as tall as its rows, up to four, so the email keeps the room
        row = max(18, self.files_list.sizeHintForRow(0))
        self.files_list.setFixedHeight(row * min(4, len(files)) + 6)
        total = sum(f.size for f in files if f.id in chosen)
        self.files_note.setText(
            QCoreApplication.translate("ApprovalWindow", "%1 attached, %2 in total")
            .replace("%1", str(len(chosen)))
            .replace("%2", human_size(total))
        )

    def checked_ids(self) -> list[int]:
        ids = []
        for row in range(self.files_list.count()):
            item = self.files_list.item(row)
            if item.checkState() == Qt.CheckState.Checked:
                ids.append(int(item.data(Qt.ItemDataRole.UserRole)))
        return ids

    def set_enabled(self, editable: bool, can_add: bool) -> None:
        self.files_list.setEnabled(editable)
        self.add_file_button.setEnabled(can_add)


ASKED_PREFIX = "未包含您的指示："  # core.drafts.instruction_points.MISSING, before its point
PARROT_FLAG = "草稿大段重复客户来信，请确认这是您要的回复"  # core.drafts.instruction_points.PARROT


def title_for(title: str) -> str:
    """A warning's bold title, already translated."""
    return "<b>" + html.escape(title) + "</b>: "


def _fact_warnings(view: DraftView) -> list[str]:
    """Unconfirmed values, each said with its reason: the Chinese and the English disagree,
    his instruction asked for it, the draft parrots the customer, or nobody wrote it."""
    if not view.unconfirmed_facts:
        return []
    items: list[str] = []
    from core.app.types import rendering_mismatches  # the fact scanner, on first use

    # two reasons, each said as it is: the Chinese he reads and the English that is sent
    # disagree (his own typing included), or nobody wrote the value at all
    disagree = set(rendering_mismatches(view.body_en, view.body_zh)) if view.body_zh else set()
    apart = [f for f in view.unconfirmed_facts if f in disagree]
    missing_zh = set(view.zh_missing)  # said on their own line below
    asked = [f for f in view.unconfirmed_facts if f.startswith(ASKED_PREFIX)]
    parrot = [f for f in view.unconfirmed_facts if f == PARROT_FLAG]
    unbacked = [
        f
        for f in view.unconfirmed_facts
        if f not in disagree and f not in missing_zh and f not in asked and f not in parrot
    ]
    if asked:  # what he asked for that the English lacks (core.drafts.instruction_points)
        points = "、".join(f.removeprefix(ASKED_PREFIX) for f in asked)
        items.append(
            title_for(QCoreApplication.translate("ApprovalWindow", "Your instruction"))
            + html.escape(
                QCoreApplication.translate(
                    "ApprovalWindow", "you asked for this, the English does not say it: %1"
                ).replace("%1", points)
            )
        )
    if parrot:
        items.append(
            title_for(QCoreApplication.translate("ApprovalWindow", "Your instruction"))
            + html.escape(
                QCoreApplication.translate(
                    "ApprovalWindow",
                    "most of this draft repeats the customer's own email; is it the reply "
                    "you want?",
                )
            )
        )
    title = (
        "<b>" + html.escape(QCoreApplication.translate("ApprovalWindow", "Unconfirmed")) + "</b>: "
    )
    if apart:
        items.append(
            title
            + html.escape(
                QCoreApplication.translate(
                    "ApprovalWindow",
                    "the Chinese for you and the English that is sent disagree on: %1 — "
                    "click “Translate again” or correct the English",
                ).replace("%1", "、".join(apart))
            )
        )
    if unbacked:
        items.append(
            title
            + html.escape(
                QCoreApplication.translate(
                    "ApprovalWindow",
                    "these values are not in your instruction or the emails: %1",
                ).replace("%1", "、".join(unbacked))
            )
        )
    return items


def warning_items(
    view: DraftView, recent: list[RecentContact], days: int, file_warnings: list[str]
) -> list[str]:
    """The warnings above the text, as HTML: an open complaint, recent mail to this customer, a
    recipient other than the inquiry's customer, unconfirmed values, file problems, a send
    error."""
    items: list[str] = []
    if view.escalation:  # a complaining customer: first, before he reads any text
        items.append(
            "<b>"
            + html.escape(
                QCoreApplication.translate(
                    "ApprovalWindow", "This customer is complaining: %1 — please look first"
                ).replace("%1", visible_controls(view.escalation))  # it quotes the customer
            )
            + "</b>"
        )
    for r in recent[:3]:
        when = to_sydney(r.at).strftime("%Y-%m-%d %H:%M")
        items.append(
            html.escape(
                QCoreApplication.translate(
                    "ApprovalWindow", "An email went to this customer in the last %1 days: %2 “%3”"
                )
                .replace("%1", str(days))
                .replace("%2", when)
                .replace("%3", r.subject or "")
            )
        )
    if view.recipient_differs:
        items.append(
            html.escape(
                QCoreApplication.translate(
                    "ApprovalWindow", "The recipient (%1) is not the inquiry's customer (%2)"
                )
                .replace("%1", ", ".join(view.to))
                .replace("%2", view.customer_email or "")
            )
        )
    items += _fact_warnings(view)
    if view.zh_missing:  # the English says it, the Chinese he reads does not
        items.append(
            "<b>"
            + html.escape(QCoreApplication.translate("ApprovalWindow", "Not in the Chinese"))
            + "</b>: "
            + html.escape(
                QCoreApplication.translate(
                    "ApprovalWindow",
                    "the English sends these values, the Chinese does not show them: %1",
                ).replace("%1", "、".join(view.zh_missing))
            )
        )
    items += [html.escape(w) for w in file_warnings]
    if view.error and view.status in {"failed", "approved"}:
        items.append(html.escape(view.error))
    return items


def attachment_warnings(files: list[FileOption], chosen_ids: Iterable[int]) -> list[str]:
    """Warnings about the chosen files, in the UI language."""
    wanted = set(chosen_ids)
    chosen = [f for f in files if f.id in wanted]
    out = [
        QCoreApplication.translate("ApprovalWindow", "The file %1 cannot be attached: %2")
        .replace("%1", f.filename)
        .replace("%2", f.reason)
        for f in chosen
        if not f.available
    ]
    total = sum(f.size for f in chosen)
    if total > SEND_LIMIT_BYTES:
        out.append(
            QCoreApplication.translate(
                "ApprovalWindow",
                "The attachments add up to %1, over Outlook's usual 35 MB limit: the email may be refused",
            ).replace("%1", human_size(total))
        )
    return out
