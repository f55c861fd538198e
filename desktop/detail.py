"""The inquiry detail: customer fields, the email thread, attachments, stage history, notes, actions.

Everything the owner changes goes through the facade (``ctx.app.inquiries`` for fields, notes,
stage moves and translation; the drafting service for replies), awaited on the loop while the store
works on its writer thread, so each change is audited and published as an event exactly like a
change from any other surface. The view itself only reads (``inquiries.detail``, through the shared
``Loader``) and re-reads when the hub says the inquiry changed; unsaved edits in the customer form
are kept across such refreshes.

Dialogs open with ``open()`` (never a nested ``exec()`` loop) so the qasync loop keeps running.

Signals:
    changed(int): the owner changed this inquiry from here.
"""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import shutil
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QAction, QDesktopServices, QImageReader, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QStyle,
    QTabWidget,
    QToolButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.glossary import glossary, product_name
from core.inquiry.detail import AttachmentInfo, InquiryDetail, MessageInfo
from core.inquiry.edit import InvalidField
from core.inquiry.stages import ALL_STAGES, CLOSED_STAGES, STAGES, next_stage, overdue_days
from desktop import text
from desktop.aio import spawn
from desktop.approval.compose_dialog import ComposeDialog
from desktop.context import AppContext
from desktop.errors_ui import show_error
from desktop.i18n import current_language
from desktop.loader import Loader
from desktop.voice.dictation import DictationButton

log = logging.getLogger(__name__)

HAS_QTPDF = importlib.util.find_spec("PySide6.QtPdf") is not None


def _size_text(size: int) -> str:
    if size >= 1_000_000:
        return f"{size / 1_000_000:.1f} MB"
    return f"{max(1, size // 1000)} KB"


# ---------------------------------------------------------------------------------------------
# dialogs


class StageDialog(QDialog):
    """Choose the next stage and say why (the reason goes into the audit trail)."""

    def __init__(self, current: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Advance stage"))
        self.stage = QComboBox()
        for stage in STAGES:
            if stage != current:
                self.stage.addItem(text.stage_name(stage), stage)
        suggested = next_stage(current)
        if suggested is not None:
            self.stage.setCurrentIndex(max(0, self.stage.findData(suggested)))
        self.reason = QLineEdit()
        self.reason.setPlaceholderText(self.tr("e.g. measured on site, quote sent"))
        form = QFormLayout()
        form.addRow(self.tr("Current stage"), QLabel(text.stage_name(current)))
        form.addRow(self.tr("New stage"), self.stage)
        form.addRow(self.tr("Reason"), self.reason)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self._ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.reason.textChanged.connect(lambda t: self._ok.setEnabled(bool(t.strip())))
        self._ok.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self.setMinimumWidth(420)


class ReasonDialog(QDialog):
    """Mark lost: a reason is required (why we lost it is worth knowing later)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Mark as lost"))
        self.reason = QLineEdit()
        self.reason.setPlaceholderText(self.tr("e.g. chose another supplier, price too high"))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.reason.textChanged.connect(lambda t: ok.setEnabled(bool(t.strip())))
        ok.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Why was this inquiry lost?")))
        layout.addWidget(self.reason)
        layout.addWidget(buttons)
        self.setMinimumWidth(420)


# ---------------------------------------------------------------------------------------------
# one message of the thread


class AttachmentStrip(QWidget):
    """A row of files, each a button with 打开 / 另存为… (and a thumbnail for images): an
    email's attachments, or the files the owner added from his computer."""

    def __init__(
        self,
        attachments: tuple[AttachmentInfo, ...],
        home: Path | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.home = home
        self.attachment_buttons: list[QToolButton] = []
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for attachment in attachments:
            row.addWidget(self._attachment_widget(attachment))
        row.addStretch(1)
        self.retranslate()

    def _attachment_widget(self, attachment: AttachmentInfo) -> QWidget:
        box = QWidget()
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        stored = self.path_of(attachment)
        if stored and stored.exists() and attachment.content_type.startswith("image/"):
            reader = QImageReader(str(stored))
            size = reader.size()
            if size.isValid():
                size.scale(QSize(160, 120), Qt.AspectRatioMode.KeepAspectRatio)
                reader.setScaledSize(size)
            image = reader.read()
            if not image.isNull():
                thumb = QLabel()
                thumb.setPixmap(QPixmap.fromImage(image))
                thumb.setToolTip(attachment.filename)
                column.addWidget(thumb)
        button = QToolButton()
        button.setText(f"{attachment.filename} ({_size_text(attachment.size)})")
        button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_FileIcon))
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        button.setProperty("attachment_id", attachment.id)
        menu = QMenu(button)
        open_action = QAction(menu)
        save_action = QAction(menu)
        open_action.triggered.connect(partial(self.open_attachment, attachment))
        save_action.triggered.connect(partial(self.save_attachment, attachment))
        menu.addAction(open_action)
        menu.addAction(save_action)
        button.setMenu(menu)
        available = stored is not None and stored.exists()
        button.setEnabled(available)
        if not available:
            button.setToolTip(attachment.skipped_reason or "")
        button._actions = (open_action, save_action)  # type: ignore[attr-defined]
        self.attachment_buttons.append(button)
        column.addWidget(button)
        return box

    def path_of(self, attachment: AttachmentInfo) -> Path | None:
        """Stored paths are relative to the data folder (it can move); absolute ones are kept."""
        if not attachment.stored_path:
            return None
        path = Path(attachment.stored_path)
        return path if path.is_absolute() or self.home is None else self.home / path

    def open_attachment(self, attachment: AttachmentInfo) -> bool:
        """Open with the system viewer (PDF preview too: QtPdf is not in this PySide6 build)."""
        path = self.path_of(attachment)
        if path is None:
            return False
        return QDesktopServices.openUrl(QUrl.fromLocalFile(str(path)))

    def save_attachment(self, attachment: AttachmentInfo) -> None:
        if not attachment.stored_path:
            return
        dialog = QFileDialog(self, self.tr("Save attachment"))
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.selectFile(attachment.filename)
        dialog.fileSelected.connect(lambda target: self.copy_attachment(attachment, Path(target)))
        dialog.open()

    def copy_attachment(self, attachment: AttachmentInfo, target: Path) -> Path:
        source = self.path_of(attachment)
        if source is None:
            raise FileNotFoundError(attachment.filename)
        shutil.copyfile(source, target)
        return target

    def retranslate(self) -> None:
        for button in self.attachment_buttons:
            open_action, save_action = button._actions  # type: ignore[attr-defined]
            open_action.setText(self.tr("Open"))
            save_action.setText(self.tr("Save as…"))


class OwnerFilesCard(QFrame):
    """The files the owner added to this customer from his computer (添加本机文件 on a reply):
    no email carried them, so they get a card of their own at the end of the thread."""

    def __init__(
        self, files: tuple[AttachmentInfo, ...], home: Path | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("messageCard")
        self.setProperty("direction", "owner")
        self.header = QLabel()
        self.header.setObjectName("muted")
        self.attachments = AttachmentStrip(files, home, self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addWidget(self.header)
        layout.addWidget(self.attachments)
        self.retranslate()

    def retranslate(self) -> None:
        self.header.setText(self.tr("Files you added from this computer"))
        self.attachments.retranslate()


class MessageCard(QFrame):
    """One email: who, when, the new text, the 翻译 button and its attachments."""

    translate_requested = Signal(int)

    def __init__(
        self, message: MessageInfo, home: Path | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.message = message
        self.home = home
        self.setObjectName("messageCard")
        self.setProperty("direction", message.direction)
        self.header = QLabel()
        self.header.setObjectName("muted")
        self.subject = QLabel(message.subject or "")
        self.subject.setWordWrap(True)
        font = self.subject.font()
        font.setBold(True)
        self.subject.setFont(font)
        self.body = QLabel(message.body_text.strip() or message.body_full.strip())
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        self.translation = QLabel(message.translation_zh or "")
        self.translation.setWordWrap(True)
        self.translation.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.translation.setStyleSheet(
            "background:#eef6ff;border-left:3px solid #1f6feb;padding:6px;"
        )
        self.translation.setVisible(bool(message.translation_zh))
        self.translate_button = QPushButton()
        self.translate_button.clicked.connect(lambda: self.translate_requested.emit(message.id))
        self.full_button = QToolButton()
        self.full_button.setCheckable(True)
        self.full_button.toggled.connect(self._toggle_full)
        self.full_button.setVisible(
            bool(message.body_full.strip())
            and message.body_full.strip() != message.body_text.strip()
        )

        top = QHBoxLayout()
        top.addWidget(self.header, 1)
        top.addWidget(self.full_button)
        top.addWidget(self.translate_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.addLayout(top)
        layout.addWidget(self.subject)
        layout.addWidget(self.body)
        layout.addWidget(self.translation)
        self.attachments = AttachmentStrip(message.attachments, home, self)
        if message.attachments:
            layout.addWidget(self.attachments)
        self.retranslate()

    def _toggle_full(self, full: bool) -> None:
        m = self.message
        self.body.setText((m.body_full if full else m.body_text).strip() or m.body_full.strip())
        self.retranslate()

    def set_translation(self, translation: str) -> None:
        self.translation.setText(translation)
        self.translation.setVisible(bool(translation))
        self.translate_button.setEnabled(True)
        self.retranslate()

    def set_busy(self) -> None:
        self.translate_button.setEnabled(False)
        self.translate_button.setText(self.tr("Translating…"))

    def retranslate(self) -> None:
        m = self.message
        sender = m.from_name or m.from_addr or ""
        if m.direction == "out":
            who = self.tr("We wrote to %1").replace("%1", ", ".join(m.to_addrs) or sender)
        else:
            who = self.tr("From %1").replace(
                "%1", f"{sender} <{m.from_addr}>" if m.from_name and m.from_addr else sender
            )
        self.header.setText(f"{who} · {text.local_time(m.received_at)}")
        if self.translate_button.isEnabled():
            self.translate_button.setText(
                self.tr("Hide translation")
                if not self.translation.isHidden() and self.translation.text()
                else self.tr("Translate")
            )
        self.full_button.setText(
            self.tr("New text only") if self.full_button.isChecked() else self.tr("Whole email")
        )
        self.attachments.retranslate()


# ---------------------------------------------------------------------------------------------
# the detail view


class InquiryDetailView(QWidget):
    changed = Signal(int)

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.inquiry_id: int | None = None
        self.detail: InquiryDetail | None = None
        self.inquiries = ctx.app.inquiries
        self._loader = Loader()
        self._dirty = False
        self._cards: dict[int, MessageCard] = {}
        self._owner_files: OwnerFilesCard | None = None

        # header
        self.title = QLabel()
        self.title.setObjectName("title")
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.subtitle = QLabel()
        self.subtitle.setObjectName("muted")
        self.subtitle.setWordWrap(True)
        self.advance_button = QPushButton()
        self.lost_button = QPushButton()
        self.draft_button = QPushButton()
        self.drive_button = QPushButton()
        self.advance_button.clicked.connect(self._ask_advance)
        self.lost_button.clicked.connect(self._ask_lost)
        self.draft_button.clicked.connect(self._open_compose)
        self.drive_button.clicked.connect(self.open_drive_folder)
        actions = QHBoxLayout()
        for button in (
            self.advance_button,
            self.lost_button,
            self.draft_button,
            self.drive_button,
        ):
            actions.addWidget(button)
        actions.addStretch(1)

        # customer tab
        self.fields: dict[str, QLineEdit] = {}
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.field_labels: dict[str, QLabel] = {}
        for name in ("customer_name", "customer_email", "customer_phone", "address", "suburb"):
            edit = QLineEdit()
            edit.textEdited.connect(self._mark_dirty)
            self.fields[name] = edit
            label = QLabel()
            self.field_labels[name] = label
            form.addRow(label, edit)
        self.products_button = QToolButton()
        self.products_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.products_button.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.products_menu = QMenu(self.products_button)
        self.product_actions: dict[str, QAction] = {}
        for key in glossary():
            action = QAction(self.products_menu)
            action.setCheckable(True)
            action.setData(key)
            action.toggled.connect(self._products_toggled)
            self.products_menu.addAction(action)
            self.product_actions[key] = action
        self.products_button.setMenu(self.products_menu)
        self.field_labels["product_types"] = QLabel()
        form.addRow(self.field_labels["product_types"], self.products_button)
        self.dimensions = QPlainTextEdit()
        self.dimensions.setFixedHeight(64)
        self.dimensions.textChanged.connect(self._dimensions_changed)
        self.field_labels["dimensions"] = QLabel()
        form.addRow(self.field_labels["dimensions"], self.dimensions)
        self.class_combo = QComboBox()
        for key in ("A", "B", "C"):
            self.class_combo.addItem(key, key)
        self.class_combo.activated.connect(self._mark_dirty)
        self.field_labels["classification"] = QLabel()
        form.addRow(self.field_labels["classification"], self.class_combo)
        self.save_button = QPushButton()
        self.revert_button = QPushButton()
        self.save_button.clicked.connect(self._save_clicked)
        self.revert_button.clicked.connect(self._revert)
        save_row = QHBoxLayout()
        save_row.addStretch(1)
        save_row.addWidget(self.revert_button)
        save_row.addWidget(self.save_button)
        customer = QWidget()
        customer_layout = QVBoxLayout(customer)
        customer_layout.addLayout(form)
        customer_layout.addLayout(save_row)
        customer_layout.addStretch(1)

        # thread tab
        self.thread_box = QWidget()
        self.thread_layout = QVBoxLayout(self.thread_box)
        self.thread_layout.setSpacing(8)
        self.thread_layout.addStretch(1)
        thread_scroll = QScrollArea()
        thread_scroll.setWidgetResizable(True)
        thread_scroll.setWidget(self.thread_box)
        thread_scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.thread_scroll = thread_scroll

        # history tab
        self.history = QTreeWidget()
        self.history.setRootIsDecorated(False)
        self.history.setColumnCount(5)
        self.history.setWordWrap(True)

        # notes tab
        self.notes = QListWidget()
        self.notes.setWordWrap(True)
        self.note_edit = QPlainTextEdit()
        self.note_edit.setFixedHeight(70)
        self.note_button = QPushButton()
        self.note_button.clicked.connect(self._add_note_clicked)
        notes = QWidget()
        notes_layout = QVBoxLayout(notes)
        notes_layout.addWidget(self.notes, 1)
        notes_layout.addWidget(self.note_edit)
        note_row = QHBoxLayout()
        self.note_row = note_row
        note_row.addStretch(1)
        note_row.addWidget(self.note_button)
        notes_layout.addLayout(note_row)

        self.tabs = QTabWidget()
        self.tabs.addTab(self.thread_scroll, "")
        self.tabs.addTab(customer, "")
        self.tabs.addTab(self.history, "")
        self.tabs.addTab(notes, "")

        content = QWidget()
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(0, 0, 0, 0)
        content_layout.addWidget(self.title)
        content_layout.addWidget(self.subtitle)
        content_layout.addLayout(actions)
        content_layout.addWidget(self.tabs, 1)

        self.placeholder = QLabel()
        self.placeholder.setObjectName("placeholder")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.placeholder)
        self.stack.addWidget(content)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 0, 0, 0)
        layout.addWidget(self.stack)

        self._install_dictation()
        ctx.hub.inquiry_updated.connect(self._on_updated)
        self.retranslate()

    def _install_dictation(self) -> None:
        self.dictation = DictationButton(self.ctx.services, self.note_edit, self)
        self.note_row.insertWidget(0, self.dictation)

    # ------------------------------------------------------------------ loading

    def show_inquiry(self, inquiry_id: int) -> asyncio.Future[Any]:
        if inquiry_id != self.inquiry_id:
            self._dirty = False
        self.inquiry_id = inquiry_id
        return self._loader.start(lambda generation: self._load(inquiry_id, generation))

    async def ready(self) -> None:
        await self._loader.ready()

    async def _load(self, inquiry_id: int, generation: int) -> None:
        detail = await self.inquiries.detail(inquiry_id)
        if not self._loader.is_current(generation):
            return
        self.detail = detail
        self._render()

    def _on_updated(self, inquiry_id: int) -> None:
        if inquiry_id == self.inquiry_id:
            self.show_inquiry(inquiry_id)

    def _render(self) -> None:
        d = self.detail
        if d is None:
            self.stack.setCurrentIndex(0)
            return
        self.stack.setCurrentIndex(1)
        self._render_header()
        if not self._dirty:
            self._fill_fields()
        self._render_thread()
        self._render_history()
        self._render_notes()

    def _render_header(self) -> None:
        d = self.detail
        if d is None:
            return
        self.title.setText(d.customer_name or d.customer_email or self.tr("(unknown)"))
        now = self.ctx.app.clock.now()
        parts = [text.stage_name(d.stage), text.class_name(d.classification)]
        if d.suburb:
            parts.append(d.suburb)
        if d.product_types:
            parts.append(text.products_text(d.product_types, current_language()))
        over = overdue_days(d.stage, d.stage_changed_at, now)
        if over:
            parts.append("⚠ " + text.overdue_text(over))
        if d.pending_drafts:
            parts.append(self.tr("%n draft(s) waiting for approval", "", len(d.pending_drafts)))
        self.subtitle.setText(" · ".join(parts))
        open_stage = d.stage not in CLOSED_STAGES
        self.advance_button.setEnabled(d.stage != "lost")
        self.lost_button.setEnabled(open_stage)
        self.draft_button.setEnabled(bool(d.customer_email))
        self.drive_button.setEnabled(bool(d.drive_web_url))
        self.drive_button.setToolTip(
            d.drive_folder_name or self.tr("No OneDrive folder linked yet")
        )

    def _fill_fields(self) -> None:
        d = self.detail
        if d is None:
            return
        for name, edit in self.fields.items():
            edit.setText(getattr(d, name) or "")
        for key, action in self.product_actions.items():
            action.blockSignals(True)
            action.setChecked(key in d.product_types)
            action.blockSignals(False)
        self.dimensions.blockSignals(True)
        self.dimensions.setPlainText("\n".join(d.dimensions))
        self.dimensions.blockSignals(False)
        self.class_combo.setCurrentIndex(max(0, self.class_combo.findData(d.classification)))
        self._update_products_button()
        self._set_dirty(False)

    def _render_thread(self) -> None:
        d = self.detail
        if d is None:
            return
        for card in self._cards.values():
            card.setParent(None)
            card.deleteLater()
        self._cards = {}
        for message in d.messages:
            card = MessageCard(message, self.ctx.services.paths.home, self.thread_box)
            card.translate_requested.connect(self._translate_clicked)
            self.thread_layout.insertWidget(self.thread_layout.count() - 1, card)
            self._cards[message.id] = card
        if self._owner_files is not None:
            self._owner_files.setParent(None)
            self._owner_files.deleteLater()
            self._owner_files = None
        if d.owner_files:
            home = self.ctx.services.paths.home
            self._owner_files = OwnerFilesCard(d.owner_files, home, self.thread_box)
            self.thread_layout.insertWidget(self.thread_layout.count() - 1, self._owner_files)

    def _render_history(self) -> None:
        d = self.detail
        if d is None:
            return
        self.history.clear()
        for e in d.stage_events:
            QTreeWidgetItem(
                self.history,
                [
                    text.local_time(e.at),
                    text.stage_name(e.from_stage),
                    text.stage_name(e.to_stage),
                    e.reason,
                    text.trigger_name(e.triggered_by),
                ],
            )
        for column, width in enumerate((130, 80, 80, 220)):
            self.history.setColumnWidth(column, width)

    def _render_notes(self) -> None:
        d = self.detail
        if d is None:
            return
        self.notes.clear()
        for note in d.notes:
            item = QListWidgetItem(f"{text.local_time(note.created_at)}  {note.text}")
            if note.status != "active":
                item.setForeground(Qt.GlobalColor.gray)
            item.setData(Qt.ItemDataRole.UserRole, note.id)
            self.notes.addItem(item)

    # ------------------------------------------------------------------ editing fields

    def _mark_dirty(self, *_: Any) -> None:
        self._set_dirty(True)

    def _set_dirty(self, dirty: bool) -> None:
        self._dirty = dirty
        self.save_button.setEnabled(dirty)
        self.revert_button.setEnabled(dirty)

    def _dimensions_changed(self) -> None:
        self._set_dirty(True)

    def _products_toggled(self, _checked: bool) -> None:
        self._update_products_button()
        self._set_dirty(True)

    def _update_products_button(self) -> None:
        keys = self.selected_products()
        self.products_button.setText(
            text.products_text(keys, current_language()) or self.tr("(choose products)")
        )

    def selected_products(self) -> list[str]:
        return [k for k, a in self.product_actions.items() if a.isChecked()]

    def form_values(self) -> dict[str, Any]:
        values: dict[str, Any] = {name: edit.text() for name, edit in self.fields.items()}
        values["product_types"] = self.selected_products()
        values["dimensions"] = [
            line.strip() for line in self.dimensions.toPlainText().splitlines() if line.strip()
        ]
        values["classification"] = self.class_combo.currentData()
        return values

    def _revert(self) -> None:
        self._set_dirty(False)
        self._fill_fields()

    def _save_clicked(self) -> None:
        spawn(self.save_fields())

    async def save_fields(self) -> tuple[str, ...]:
        """Save the form through the facade (each changed field audited)."""
        if self.inquiry_id is None:
            return ()
        inquiry_id, values = self.inquiry_id, self.form_values()
        try:
            changed = await self.inquiries.update_fields(inquiry_id, values, actor="owner")
        except InvalidField as exc:
            show_error(self, exc)
            edit = self.fields.get(exc.field)
            if edit is not None:
                edit.setFocus()
            return ()
        self._set_dirty(False)
        self.changed.emit(inquiry_id)
        await self.show_inquiry(inquiry_id)
        return changed

    # ------------------------------------------------------------------ notes

    def _add_note_clicked(self) -> None:
        note = self.note_edit.toPlainText().strip()
        if note:
            spawn(self.add_note(note))

    async def add_note(self, note: str) -> int | None:
        if self.inquiry_id is None:
            return None
        inquiry_id = self.inquiry_id
        note_id = await self.inquiries.add_note(inquiry_id, note, actor="owner")
        self.note_edit.clear()
        self.changed.emit(inquiry_id)
        await self.show_inquiry(inquiry_id)
        return note_id

    # ------------------------------------------------------------------ translation

    def _translate_clicked(self, message_pk: int) -> None:
        card = self._cards.get(message_pk)
        if card is None:
            return
        if not card.translation.isHidden() and card.translation.text():
            card.translation.setVisible(False)
            card.retranslate()
            return
        if card.translation.text():
            card.translation.setVisible(True)
            card.retranslate()
            return
        spawn(self.translate_message(message_pk))

    async def translate_message(self, message_pk: int) -> str | None:
        card = self._cards.get(message_pk)
        if card is not None:
            card.set_busy()
        try:
            translation = await self.inquiries.translate(message_pk)
        except Exception as exc:
            if card is not None:
                card.set_translation("")
            show_error(self, exc)
            return None
        card = self._cards.get(message_pk)
        if card is not None:
            card.set_translation(translation)
        return translation

    # ------------------------------------------------------------------ stage actions

    def _ask_advance(self) -> None:
        if self.detail is None:
            return
        dialog = StageDialog(self.detail.stage, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(
            lambda: spawn(
                self.advance_stage(dialog.stage.currentData(), dialog.reason.text().strip())
            )
        )
        dialog.open()

    def _ask_lost(self) -> None:
        dialog = ReasonDialog(self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: spawn(self.mark_lost(dialog.reason.text().strip())))
        dialog.open()

    async def advance_stage(self, to_stage: str, reason: str) -> bool:
        """Move the stage through the facade (audited, StageChanged published)."""
        if self.inquiry_id is None or to_stage not in ALL_STAGES:
            return False
        inquiry_id = self.inquiry_id
        change = await self.inquiries.advance_stage(
            inquiry_id, to_stage, reason=reason, triggered_by="owner"
        )
        self.changed.emit(inquiry_id)
        await self.show_inquiry(inquiry_id)
        return change is not None

    async def mark_lost(self, reason: str) -> bool:
        return await self.advance_stage("lost", reason)

    # ------------------------------------------------------------------ other actions

    def _open_compose(self) -> None:
        if self.inquiry_id is None:
            return

        dialog = ComposeDialog(self.ctx.services, self.ctx.draft_service, self.inquiry_id, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def open_drive_folder(self) -> bool:
        if self.detail is None or not self.detail.drive_web_url:
            return False
        return QDesktopServices.openUrl(QUrl(self.detail.drive_web_url))

    # ------------------------------------------------------------------ language

    def retranslate(self) -> None:
        self.placeholder.setText(self.tr("Select an inquiry on the left to see its details."))
        self.advance_button.setText(self.tr("Advance stage"))
        self.lost_button.setText(self.tr("Mark lost"))
        self.draft_button.setText(self.tr("Draft reply"))
        self.drive_button.setText(self.tr("Open OneDrive folder"))
        self.draft_button.setToolTip(
            self.tr("Write the reply in Chinese; you approve the English before anything is sent")
        )
        labels = {
            "customer_name": self.tr("Name"),
            "customer_email": self.tr("Email"),
            "customer_phone": self.tr("Phone"),
            "address": self.tr("Address"),
            "suburb": self.tr("Suburb"),
            "product_types": self.tr("Products"),
            "dimensions": self.tr("Sizes"),
            "classification": self.tr("Class"),
        }
        for name, label in self.field_labels.items():
            label.setText(labels[name])
        for i, key in enumerate(("A", "B", "C")):
            self.class_combo.setItemText(i, text.class_name(key))
        for key, action in self.product_actions.items():
            action.setText(product_name(key, current_language()))
        self.fields["customer_phone"].setPlaceholderText(self.tr("any format, e.g. 0412 345 678"))
        self.dimensions.setPlaceholderText(self.tr("one size per line, e.g. 2400 x 2100"))
        self.save_button.setText(self.tr("Save changes"))
        self.revert_button.setText(self.tr("Undo changes"))
        self.note_button.setText(self.tr("Add note"))
        self.note_edit.setPlaceholderText(self.tr("A note about this customer…"))
        self.tabs.setTabText(0, self.tr("Emails"))
        self.tabs.setTabText(1, self.tr("Customer"))
        self.tabs.setTabText(2, self.tr("Stage history"))
        self.tabs.setTabText(3, self.tr("Notes"))
        self.history.setHeaderLabels(
            [self.tr("Time"), self.tr("From"), self.tr("To"), self.tr("Reason"), self.tr("By")]
        )
        self._update_products_button()
        if self.detail is not None:
            self._render_header()
            self._render_history()
        for card in self._cards.values():
            card.retranslate()
        if self._owner_files is not None:
            self._owner_files.retranslate()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
