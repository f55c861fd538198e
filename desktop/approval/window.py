"""The approval window: the owner reads the email in Chinese, edits, approves — or doesn't.

Side by side: 中文预览 (what the customer will read, rendered in Chinese) and the editable English
body that will actually be sent. A banner says 未发送 until Outlook confirms the send. Warnings
above the text: a recent email to this customer (from Sent Items, with date and subject), a
recipient other than the inquiry's customer, and values the fact guard could not find in the
owner's instruction or the thread (未经确认, highlighted in both panes).

Attachments: the inquiry's files as a checklist (size shown; files that cannot go — not stored
on this computer, over Outlook's 150 MB — are greyed out with the reason; a warning when the
total passes Outlook's usual 35 MB). Ticking a file saves the choice at once (audited) and, like
any edit, an approved draft goes back to waiting for approval. 添加本机文件… adds any file from
this computer (the quote PDF in his OneDrive folder): the service copies it into the data folder
off the UI thread, and it joins the list ticked. The file dialog is ``choose_file`` (tests put a
function there instead of a modal dialog); it starts in the folder he last chose a file from.

Buttons: 批准并发送 (approve as actor ``owner``, then send once, with progress, ending in 已发送 or
a Chinese error with the draft kept), 修改 (a new Chinese instruction → a revised draft; this
window follows it), 放弃. Nothing here blocks the UI thread: every read, write, model and Graph
call runs as a coroutine on the qasync loop (database work on worker threads).

Signals:
    draft_replaced(int, int): the old and the new draft id after 修改.
    finished(int, str): the draft id and its final status (sent / rejected).
"""

from __future__ import annotations

import asyncio
import html
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QCloseEvent, QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from core.clock import to_sydney
from core.db.app_state import get_state, put_state
from core.drafts.attachments import SEND_LIMIT_BYTES, human_size
from core.events import DraftChanged
from desktop.aio import spawn
from desktop.errors_ui import message_for

HIGHLIGHT = QColor("#ffd8a8")
LAST_FOLDER_KEY = "desktop.attach_folder"  # app_state: where 添加本机文件… last found a file


class _BusBridge(QObject):
    """Core's DraftChanged (any thread) → a queued Qt signal on the UI thread."""

    changed = Signal(int, str)

    def __init__(self, bus: Any) -> None:
        super().__init__()
        self._unsubscribe = bus.subscribe(
            DraftChanged, lambda e: self.changed.emit(e.draft_id, e.status)
        )

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None


def _split_addresses(text: str) -> list[str]:
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


class ApprovalWindow(QWidget):
    draft_replaced = Signal(int, int)
    finished = Signal(int, str)

    def __init__(
        self, services: Any, draft_service: Any, draft_id: int, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.services = services
        self.draft_service = draft_service
        self.draft_id = draft_id
        self.view: Any = None
        self.recent: list[Any] = []
        self.files: list[Any] = []  # the inquiry's files (FileOption)
        # 添加本机文件…: returns the chosen path, or None when cancelled (tests replace it)
        self.choose_file: Callable[[], str | None] = self._choose_file_dialog
        self.last_folder: str | None = None
        self.busy = False
        self._dirty = False
        self._load_task: asyncio.Future[Any] | None = None
        self._bridge = _BusBridge(services.bus)
        self._bridge.changed.connect(self._on_draft_changed)
        self.setObjectName("approvalWindow")
        self.setMinimumSize(900, 600)
        self._build()
        self.retranslate()
        self.reload()

    # ------------------------------------------------------------------ layout
    def _build(self) -> None:
        root = QVBoxLayout(self)
        self.banner = QLabel()
        self.banner.setObjectName("approvalBanner")
        self.banner.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.banner.setMinimumHeight(34)
        root.addWidget(self.banner)

        self.warnings = QLabel()
        self.warnings.setObjectName("approvalWarnings")
        self.warnings.setWordWrap(True)
        self.warnings.setTextFormat(Qt.TextFormat.RichText)
        self.warnings.setStyleSheet(
            "QLabel#approvalWarnings { background: #fff4e5; border: 1px solid #f0b872;"
            " border-radius: 4px; padding: 6px; }"
        )
        root.addWidget(self.warnings)

        form = QFormLayout()
        self.to_label = QLabel()
        self.to_edit = QLineEdit()
        self.subject_label = QLabel()
        self.subject_edit = QLineEdit()
        form.addRow(self.to_label, self.to_edit)
        form.addRow(self.subject_label, self.subject_edit)
        self.files_label = QLabel()
        files_box = QVBoxLayout()
        files_box.setContentsMargins(0, 0, 0, 0)
        self.files_list = QListWidget()
        self.files_list.setObjectName("attachmentList")
        self.files_note = QLabel()
        self.files_note.setObjectName("attachmentNote")
        self.files_note.setStyleSheet("color: #6e7781;")
        files_box.addWidget(self.files_list)
        files_row = QHBoxLayout()
        files_row.setContentsMargins(0, 0, 0, 0)
        files_row.addWidget(self.files_note, 1)
        self.add_file_button = QPushButton()
        self.add_file_button.setObjectName("addLocalFile")
        files_row.addWidget(self.add_file_button)
        files_box.addLayout(files_row)
        form.addRow(self.files_label, files_box)
        root.addLayout(form)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        self.zh_title = QLabel()
        self.zh_title.setStyleSheet("font-weight: bold;")
        self.zh_preview = QTextBrowser()
        self.zh_preview.setObjectName("zhPreview")
        self.rerender_button = QPushButton()
        left_layout.addWidget(self.zh_title)
        left_layout.addWidget(self.zh_preview, 1)
        left_layout.addWidget(self.rerender_button)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        self.en_title = QLabel()
        self.en_title.setStyleSheet("font-weight: bold;")
        self.en_edit = QPlainTextEdit()
        self.en_edit.setObjectName("enBody")
        self.save_button = QPushButton()
        right_layout.addWidget(self.en_title)
        right_layout.addWidget(self.en_edit, 1)
        right_layout.addWidget(self.save_button)
        splitter.addWidget(left)
        splitter.addWidget(right)
        splitter.setSizes([500, 500])
        root.addWidget(splitter, 1)

        self.confirm_check = QCheckBox()
        root.addWidget(self.confirm_check)

        revise_row = QHBoxLayout()
        self.revise_edit = QLineEdit()
        self.revise_edit.setObjectName("reviseInstruction")
        revise_row.addWidget(self.revise_edit, 1)
        self.dictation = _dictation_button(self.services, self.revise_edit, self)
        if self.dictation is not None:
            revise_row.addWidget(self.dictation)
        self.revise_button = QPushButton()
        revise_row.addWidget(self.revise_button)
        root.addLayout(revise_row)

        line = QFrame()
        line.setFrameShape(QFrame.Shape.HLine)
        root.addWidget(line)
        bottom = QHBoxLayout()
        self.progress = QProgressBar()
        self.progress.setRange(0, 0)
        self.progress.setMaximumWidth(160)
        self.progress.hide()
        self.status_label = QLabel()
        self.status_label.setObjectName("approvalStatus")
        self.status_label.setWordWrap(True)
        bottom.addWidget(self.progress)
        bottom.addWidget(self.status_label, 1)
        self.reject_button = QPushButton()
        self.approve_button = QPushButton()
        self.approve_button.setDefault(True)
        self.approve_button.setStyleSheet("QPushButton { font-weight: bold; padding: 6px 18px; }")
        bottom.addWidget(self.reject_button)
        bottom.addWidget(self.approve_button)
        root.addLayout(bottom)

        self.approve_button.clicked.connect(lambda: spawn(self.approve_and_send()))
        self.reject_button.clicked.connect(lambda: spawn(self.reject()))
        self.revise_button.clicked.connect(lambda: spawn(self.revise()))
        self.save_button.clicked.connect(lambda: spawn(self.save_edits()))
        self.rerender_button.clicked.connect(lambda: spawn(self.rerender()))
        self.add_file_button.clicked.connect(self._add_file_clicked)
        self.confirm_check.toggled.connect(self._update_buttons)
        self.en_edit.textChanged.connect(self._on_edit)
        self.to_edit.textEdited.connect(self._on_edit)
        self.subject_edit.textEdited.connect(self._on_edit)
        self.files_list.itemChanged.connect(self._on_file_toggled)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Review reply before sending"))
        self.to_label.setText(self.tr("To"))
        self.subject_label.setText(self.tr("Subject"))
        self.files_label.setText(self.tr("Attachments"))
        self.add_file_button.setText(self.tr("Add a file from this computer…"))
        self.add_file_button.setToolTip(
            self.tr("Attach any file on this computer, e.g. the quote PDF you just made")
        )
        self.zh_title.setText(self.tr("Chinese preview (what the customer will read)"))
        self.en_title.setText(self.tr("English email (editable — this is what will be sent)"))
        self.rerender_button.setText(self.tr("Re-render Chinese preview"))
        self.save_button.setText(self.tr("Save edits"))
        self.confirm_check.setText(
            self.tr("I have checked the unconfirmed values; they are correct")
        )
        self.revise_edit.setPlaceholderText(self.tr("What should change? (Chinese is fine)"))
        self.revise_button.setText(self.tr("Revise"))
        self.reject_button.setText(self.tr("Discard"))
        self.approve_button.setText(self.tr("Approve and send"))
        self._render()

    # ------------------------------------------------------------------ loading
    def reload(self) -> asyncio.Future[Any]:
        self._load_task = spawn(self._load())
        return self._load_task

    async def ready(self) -> None:
        """Wait until the current draft is shown (tests, screenshots)."""
        while self._load_task is not None and not self._load_task.done():
            await asyncio.shield(self._load_task)

    async def _load(self) -> None:
        draft_id = self.draft_id
        service = self.draft_service  # worker threads must never hold the last ref to a widget
        view = await service.get_async(draft_id)
        days = int(self.services.settings.get("drafts.recent_contact_days"))
        target: int | str | None = (
            view.inquiry_id if view.inquiry_id is not None else (view.to[0] if view.to else None)
        )
        recent: list[Any] = []
        if target is not None:
            recent = await asyncio.get_running_loop().run_in_executor(
                None, lambda: service.recent_contact(target, days)
            )
            for address in view.to:  # the owner may have changed the recipient
                if view.inquiry_id is not None:
                    more = await asyncio.get_running_loop().run_in_executor(
                        None, lambda a=address: service.recent_contact(a, days)
                    )
                    recent += [r for r in more if r not in recent]
        files = await asyncio.get_running_loop().run_in_executor(
            None, lambda: service.attachment_options(draft_id)
        )
        last_folder = await self.services.store.read(lambda s: get_state(s, LAST_FOLDER_KEY))
        if draft_id != self.draft_id:
            return
        self.view = view
        self.files = files
        self.last_folder = last_folder if isinstance(last_folder, str) else None
        self.recent = sorted(recent, key=lambda r: r.at, reverse=True)
        self._dirty = False
        self._render(fill=True)

    # ------------------------------------------------------------------ rendering
    def _render(self, fill: bool = False) -> None:
        view = self.view
        if view is None:
            self.banner.setText(self.tr("Loading…"))
            self._update_buttons()
            return
        if fill:
            self.to_edit.setText(", ".join(view.to))
            self.subject_edit.setText(view.subject)
            self.en_edit.blockSignals(True)
            self.en_edit.setPlainText(view.body_en)
            self.en_edit.blockSignals(False)
            self._dirty = False
        if view.body_zh:
            self.zh_preview.setHtml(self._zh_html(view.body_zh, view.unconfirmed_facts))
        else:
            self.zh_preview.setHtml(
                "<p style='color:#6e7781'>"
                + html.escape(
                    self.tr(
                        "The English text changed. Click “Re-render Chinese preview” to see it in Chinese."
                    )
                )
                + "</p>"
            )
        highlight_facts(self.en_edit, view.unconfirmed_facts)
        self._render_files()
        self._render_banner()
        self._render_warnings()
        self._update_buttons()

    @staticmethod
    def _zh_html(text: str, facts: list[str]) -> str:
        body = html.escape(text)
        for fact in sorted(set(facts), key=len, reverse=True):
            escaped = html.escape(fact)
            body = body.replace(escaped, f"<span style='background:#ffd8a8'>{escaped}</span>")
        return "<div style='white-space:pre-wrap'>" + body + "</div>"

    def _render_files(self) -> None:
        """The inquiry's files as a checklist; the draft's choice ticked."""
        chosen = set(self.view.attachment_ids) if self.view is not None else set()
        self.files_list.blockSignals(True)
        self.files_list.clear()
        for f in self.files:
            text = f"{f.filename}  ({human_size(f.size)})"
            if not f.available:
                text += "  — " + self.tr("cannot be attached")
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
        self.files_list.setVisible(bool(self.files))
        if self.files:  # as tall as its rows, up to four, so the email keeps the room
            row = max(18, self.files_list.sizeHintForRow(0))
            self.files_list.setFixedHeight(row * min(4, len(self.files)) + 6)
        if not self.files:
            self.files_note.setText(self.tr("This inquiry has no files to attach."))
            return
        total = sum(f.size for f in self.files if f.id in chosen)
        count = len(chosen)
        self.files_note.setText(
            self.tr("%1 attached, %2 in total")
            .replace("%1", str(count))
            .replace("%2", human_size(total))
        )

    def attachment_warnings(self) -> list[str]:
        """Warnings about the chosen files, in the UI language."""
        view = self.view
        if view is None:
            return []
        out = []
        chosen = [f for f in self.files if f.id in set(view.attachment_ids)]
        for f in chosen:
            if not f.available:
                out.append(
                    self.tr("The file %1 cannot be attached: %2")
                    .replace("%1", f.filename)
                    .replace("%2", f.reason)
                )
        total = sum(f.size for f in chosen)
        if total > SEND_LIMIT_BYTES:
            out.append(
                self.tr(
                    "The attachments add up to %1, over Outlook's usual 35 MB limit: the email may be refused"
                ).replace("%1", human_size(total))
            )
        return out

    def checked_file_ids(self) -> list[int]:
        ids = []
        for row in range(self.files_list.count()):
            item = self.files_list.item(row)
            if item.checkState() == Qt.CheckState.Checked:
                ids.append(int(item.data(Qt.ItemDataRole.UserRole)))
        return ids

    def _on_file_toggled(self, _item: QListWidgetItem) -> None:
        spawn(self.save_attachments())

    async def save_attachments(self) -> bool:
        """Store the ticked files as the draft's attachments (audited by the service)."""
        if self.view is None:
            return False
        ids = self.checked_file_ids()
        try:
            await self.draft_service.call_async(
                "set_attachments", self.draft_id, ids, actor="owner"
            )
        except Exception as exc:
            self._show_error(exc)
            await self._load()
            return False
        await self._load()
        return True

    def _choose_file_dialog(self) -> str | None:
        """The system's open-file dialog, in the folder he last took a file from (else home)."""
        start = self.last_folder if self.last_folder and Path(self.last_folder).is_dir() else ""
        path, _filter = QFileDialog.getOpenFileName(
            self, self.tr("Choose a file to attach"), start or str(Path.home())
        )
        return path or None

    def _add_file_clicked(self) -> None:
        """添加本机文件…: the file dialog is modal, so it runs here in the click's slot and never
        inside a task -- a nested event loop inside a running task makes qasync fail to wake the
        app's other tasks (Telegram, sync): "Cannot enter into task … while another task is
        being executed" (qasync issues #59, #82)."""
        if self.view is None or self.busy:
            return
        path = self.choose_file()
        if path:
            spawn(self.add_local_file(path))

    async def add_local_file(self, path: str) -> bool:
        """The service copies the chosen file (off the UI thread, up to 150 MB) and ticks it on
        this draft; the list then shows it ticked."""
        if self.view is None or self.busy or not path:
            return False
        self._set_busy(True, self.tr("Adding the file…"))
        try:
            await self.draft_service.call_async(
                "add_owner_file", self.draft_id, path, actor="owner"
            )
        except Exception as exc:
            self._set_busy(False)
            self._show_error(exc)
            return False
        self._set_busy(False)
        folder = str(Path(path).parent)
        now = self.services.clock.now()
        await self.services.store.run(lambda s: put_state(s, LAST_FOLDER_KEY, folder, now))
        await self._load()
        self._show_ok(self.tr("Added %1").replace("%1", Path(path).name))
        return True

    def _render_banner(self) -> None:
        status = self.view.status
        texts = {
            "draft": self.tr("NOT SENT — draft"),
            "pending_approval": self.tr("NOT SENT — waiting for your approval"),
            "approved": self.tr("NOT SENT — approved, waiting to send"),
            "sending": self.tr("Sending…"),
            "sent": self.tr("SENT"),
            "rejected": self.tr("Discarded — not sent"),
            "failed": self.tr("NOT SENT — sending failed, the draft is kept"),
            "superseded": self.tr("Replaced by a revised draft — not sent"),
        }
        colours = {
            "sent": "#1a7f37",
            "sending": "#0a7ea4",
            "rejected": "#6e7781",
            "superseded": "#6e7781",
        }
        colour = colours.get(status, "#d1242f")
        self.banner.setText(texts.get(status, status))
        self.banner.setStyleSheet(
            f"QLabel#approvalBanner {{ background: {colour}; color: white; font-size: 15px;"
            " font-weight: bold; border-radius: 4px; }"
        )

    def _render_warnings(self) -> None:
        view = self.view
        items: list[str] = []
        days = int(self.services.settings.get("drafts.recent_contact_days"))
        for r in self.recent[:3]:
            when = to_sydney(r.at).strftime("%Y-%m-%d %H:%M")
            items.append(
                html.escape(
                    self.tr("An email went to this customer in the last %1 days: %2 “%3”")
                    .replace("%1", str(days))
                    .replace("%2", when)
                    .replace("%3", r.subject or "")
                )
            )
        if view.recipient_differs:
            items.append(
                html.escape(
                    self.tr("The recipient (%1) is not the inquiry's customer (%2)")
                    .replace("%1", ", ".join(view.to))
                    .replace("%2", view.customer_email or "")
                )
            )
        if view.unconfirmed_facts:
            items.append(
                "<b>"
                + html.escape(self.tr("Unconfirmed"))
                + "</b>: "
                + html.escape(
                    self.tr("these values are not in your instruction or the emails: %1").replace(
                        "%1", "、".join(view.unconfirmed_facts)
                    )
                )
            )
        items += [html.escape(w) for w in self.attachment_warnings()]
        if view.error and view.status in {"failed", "approved"}:
            items.append(html.escape(view.error))
        self.warnings.setText("<br>".join("⚠ " + i for i in items))
        self.warnings.setVisible(bool(items))
        self.confirm_check.setVisible(
            bool(view.unconfirmed_facts) and view.status in {"pending_approval", "failed"}
        )

    def _update_buttons(self) -> None:
        view = self.view
        open_states = {"pending_approval", "failed"}
        editable = view is not None and view.status in {
            "pending_approval",
            "approved",
            "failed",
            "draft",
        }
        can_approve = (
            view is not None
            and not self.busy
            and (
                (
                    view.status in open_states
                    and (
                        not view.unconfirmed_facts or self.confirm_check.isChecked() or self._dirty
                    )
                )
                or view.status == "approved"
            )
        )
        self.approve_button.setEnabled(bool(can_approve))
        for w in (self.reject_button, self.revise_button, self.save_button, self.rerender_button):
            w.setEnabled(bool(editable) and not self.busy)
        for w in (self.en_edit, self.to_edit, self.subject_edit, self.revise_edit):
            w.setReadOnly(not editable or self.busy)
        self.files_list.setEnabled(bool(editable) and not self.busy)
        self.add_file_button.setEnabled(
            bool(editable) and not self.busy and view is not None and view.inquiry_id is not None
        )

    # ------------------------------------------------------------------ actions
    def _on_edit(self, *_: Any) -> None:
        self._dirty = True
        self._update_buttons()

    def _set_busy(self, busy: bool, message: str = "") -> None:
        self.busy = busy
        self.progress.setVisible(busy)
        if message:
            self.status_label.setText(message)
        self._update_buttons()

    def _show_error(self, exc: BaseException) -> None:
        self.status_label.setStyleSheet("color: #d1242f;")
        self.status_label.setText(message_for(exc))

    def _show_ok(self, message: str) -> None:
        self.status_label.setStyleSheet("color: #1a7f37;")
        self.status_label.setText(message)

    async def save_edits(self) -> bool:
        """Store the owner's edits (recipients, subject, body); the fact guard runs again."""
        if self.view is None:
            return False
        try:
            await self.draft_service.call_async(
                "update_body",
                self.draft_id,
                self.en_edit.toPlainText(),
                actor="owner",
                subject=self.subject_edit.text(),
                to=_split_addresses(self.to_edit.text()),
            )
        except Exception as exc:
            self._show_error(exc)
            return False
        await self._load()
        return True

    async def rerender(self) -> None:
        if self._dirty and not await self.save_edits():
            return
        self._set_busy(True, self.tr("Rendering the Chinese preview…"))
        try:
            await self.draft_service.rerender_zh(self.draft_id)
        except Exception as exc:
            self._set_busy(False)
            self._show_error(exc)
            return
        self._set_busy(False, "")
        await self._load()

    async def approve_and_send(self) -> str:
        """批准并发送: approve as the owner, then send once. Returns the final status."""
        if self.view is None or self.busy:
            return "busy"
        if self._dirty:
            if not await self.save_edits():
                return "error"
            if self.view.unconfirmed_facts and not self.confirm_check.isChecked():
                self._show_error_text(
                    self.tr("Please check the highlighted unconfirmed values first.")
                )
                return "unconfirmed"
        self._set_busy(True, self.tr("Sending…"))
        try:
            if self.view.status != "approved":
                await self.draft_service.approve_async(
                    self.draft_id, actor="owner", accept_unconfirmed=self.confirm_check.isChecked()
                )
            result = await self.draft_service.send(self.draft_id, actor="owner")
        except Exception as exc:
            self._set_busy(False)
            await self._load()
            self._show_error(exc)
            return "error"
        self._set_busy(False)
        await self._load()
        if result.status == "sent":
            self._show_ok(self.tr("Sent"))
            self.finished.emit(self.draft_id, "sent")
        else:
            self._show_error_text(
                self.tr("Not sent: %1 (the draft is kept)").replace("%1", result.message)
            )
        return result.status

    def _show_error_text(self, text: str) -> None:
        self.status_label.setStyleSheet("color: #d1242f;")
        self.status_label.setText(text)

    async def reject(self) -> None:
        """放弃: the draft is kept for the record and can never be sent."""
        try:
            # also deletes an Outlook copy an earlier send attempt left in Drafts
            await self.draft_service.reject_async(self.draft_id, actor="owner")
        except Exception as exc:
            self._show_error(exc)
            return
        await self._load()
        self._show_ok(self.tr("Discarded. Nothing was sent."))
        self.finished.emit(self.draft_id, "rejected")

    async def revise(self) -> int | None:
        """修改: a new Chinese instruction → a revised draft; this window follows it."""
        instruction = self.revise_edit.text().strip()
        if not instruction:
            self._show_error_text(self.tr("Write what should change first."))
            return None
        if self._dirty and not await self.save_edits():
            return None
        self._set_busy(True, self.tr("Revising the draft…"))
        try:
            new_id = await self.draft_service.revise(self.draft_id, instruction, actor="owner")
        except Exception as exc:
            self._set_busy(False)
            self._show_error(exc)
            return None
        old = self.draft_id
        self.draft_id = new_id
        self.revise_edit.clear()
        self.confirm_check.setChecked(False)
        self._set_busy(False, self.tr("Revised draft ready — please review it again."))
        await self._load()
        self.draft_replaced.emit(old, new_id)
        return new_id

    def _on_draft_changed(self, draft_id: int, status: str) -> None:
        # another surface (Telegram, the CLI, the scheduler) moved this draft
        if (
            draft_id == self.draft_id
            and not self.busy
            and self.view is not None
            and status != self.view.status
        ):
            self.reload()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._bridge.detach()
        super().closeEvent(event)


def _dictation_button(services: Any, target: Any, parent: QWidget) -> QWidget | None:
    from desktop.voice.dictation import DictationButton

    return DictationButton(services, target, parent)
