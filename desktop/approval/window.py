"""The approval window: the owner reads the email in Chinese, edits, approves — or doesn't.

Side by side: 给您看的中文译文 (the Chinese translation, for the owner only — the customer never
sees it) and 实际发出的英文, the editable English body that is actually sent. A banner says 未发送 until Outlook confirms the send. Warnings
above the text: a recent email to this customer (from Sent Items, with date and subject), a
recipient other than the inquiry's customer, and values the fact guard could not find in the
owner's instruction or the thread (未经确认, highlighted in both panes).

Attachments: the inquiry's files as a checklist (size shown; files that cannot go — not stored
on this computer, over Outlook's 150 MB — are greyed out with the reason; a warning when the
total passes Outlook's usual 35 MB). Ticking a file saves the choice at once (audited) and, like
any edit, an approved draft goes back to waiting for approval. 添加本机文件… adds any file from
this computer (the quote PDF in his OneDrive folder): ``OwnerEdits`` copies it into the data
folder off the UI thread, and it joins the list ticked. The file dialog is ``choose_file`` (tests put a
function there instead of a modal dialog); it starts in the folder he last chose a file from.

Buttons: 批准并发送 (approve as actor ``owner``, then send once, with progress, ending in 已发送 or
a Chinese error with the draft kept), 修改 (a new Chinese instruction → a revised draft; this
window follows it), 放弃. Nothing here blocks the UI thread: every read, write, model and Graph
call is a coroutine of the drafting capabilities (``core.drafts.drafting.Drafting``: reader,
edits, composer, and the owner's decisions — this window is one of the owner's own surfaces),
awaited on the qasync loop; no database or ORM code lives here.

Signals:
    draft_replaced(int, int): the old and the new draft id after 修改.
    finished(int, str): the draft id and its final status (sent / rejected).
"""

from __future__ import annotations

import asyncio
import html
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import QCheckBox
from PySide6.QtWidgets import QFileDialog
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPlainTextEdit
from PySide6.QtWidgets import QProgressBar
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QSplitter
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from desktop.aio import Loads
from desktop.aio import spawn
from desktop.approval.decisions import ApprovalActions
from desktop.approval.decisions import DraftForm
from desktop.approval.panels import AttachmentsPanel
from desktop.approval.panels import DraftChangedBridge
from desktop.approval.panels import attachment_warnings
from desktop.approval.panels import highlight_facts
from desktop.approval.panels import split_addresses
from desktop.approval.panels import warning_items
from desktop.approval.panels import zh_html
from desktop.inert import InertBrowser
from desktop.operations import Operation
from desktop.operations import StatusLine

if TYPE_CHECKING:
    from core.app import FrontEnd
    from core.app.types import DraftView
    from core.app.types import FileOption
    from core.app.types import RecentContact
    from desktop.approval.parts import DraftingParts
    from desktop.hub import SignalHub
    from desktop.voice.insertion import Target

__all__ = ["ApprovalWindow", "highlight_facts"]


class ApprovalWindow(QWidget):
    draft_replaced = Signal(int, int)
    finished = Signal(int, str)

    def __init__(
        self,
        app: FrontEnd,
        drafting: DraftingParts,
        draft_id: int,
        parent: QWidget | None = None,
        *,
        hub: SignalHub | None = None,
    ) -> None:
        """``hub``: where the owner's actions say what they changed (the board's rows)."""
        super().__init__(parent, Qt.WindowType.Window)
        self.app = app  # its bus (another surface moved the draft) and dictation's settings
        self.drafting = drafting
        self.draft_id = draft_id
        self.view: DraftView | None = None
        self.recent: list[RecentContact] = []
        self.files: list[FileOption] = []  # the inquiry's files
        # 添加本机文件…: returns the chosen path, or None when cancelled (tests replace it)
        self.choose_file: Callable[[], str | None] = self._choose_file_dialog
        self.last_folder: str | None = None
        self.hub = hub
        self._dirty = False
        self._loads = Loads(self._load)
        self._bridge = DraftChangedBridge(app.bus)
        self._bridge.changed.connect(self._on_draft_changed)
        self.setObjectName("approvalWindow")
        self.setMinimumSize(900, 600)
        self.resize(1180, 700)  # fits a 1366 x 768 screen
        self._build()
        self.status = StatusLine(self.progress, self.status_label, self._update_buttons)
        self.decisions = ApprovalActions(drafting, hub, self.status, self._load, self)
        self.decisions.finished.connect(self.finished)
        self.decisions.draft_replaced.connect(self._follow)
        self.retranslate()
        self.reload()

    @property
    def busy(self) -> bool:
        return self.status.is_busy

    def form(self) -> DraftForm:
        """The draft and what the owner typed or ticked, for ``ApprovalActions``."""
        return DraftForm(
            draft_id=self.draft_id,
            view=self.view,
            body=self.en_edit.toPlainText(),
            subject=self.subject_edit.text(),
            to=split_addresses(self.to_edit.text()),
            confirmed=self.confirm_check.isChecked(),
            instruction=self.revise_edit.text(),
            dirty=self._dirty,
        )

    async def save_edits(self) -> bool:
        return await self.decisions.save_edits(self.form())

    async def rerender(self) -> None:
        await self.decisions.rerender(self.form())

    async def approve_and_send(self) -> str:
        return await self.decisions.approve_and_send(self.form())

    async def reject(self) -> None:
        await self.decisions.reject(self.form())

    async def revise(self) -> int | None:
        new_id = await self.decisions.revise(self.form())
        if new_id is not None:
            await self._load()
        return new_id

    def _follow(self, old: int, new: int) -> None:
        """After 修改: this window shows the revised draft, its instruction box emptied."""
        self.draft_id = new
        self.revise_edit.clear()
        self.confirm_check.setChecked(False)
        self.draft_replaced.emit(old, new)

    # ------------------------------------------------------------------ layout
    def _build(self) -> None:
        root = QVBoxLayout(self)
        self._build_header(root)
        self._build_panes(root)
        self._build_revise_row(root)
        self._build_decision_bar(root)
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
        self.attachments.toggled.connect(lambda: spawn(self.save_attachments()))

    def _build_header(self, root: QVBoxLayout) -> None:
        """The 未发送 banner, the warnings, recipients, subject and the attachments."""
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
        self.attachments = AttachmentsPanel()
        self.files_list = self.attachments.files_list
        self.files_note = self.attachments.files_note
        self.add_file_button = self.attachments.add_file_button
        form.addRow(self.files_label, self.attachments)
        root.addLayout(form)

    def _build_panes(self, root: QVBoxLayout) -> None:
        """给您看的中文译文 beside 实际发出的英文 (editable)."""
        splitter = QSplitter(Qt.Orientation.Horizontal)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        self.zh_title = QLabel()
        self.zh_title.setStyleSheet("font-weight: bold;")
        self.zh_preview = InertBrowser()  # model-written text: no resource, no navigation
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

    def _build_revise_row(self, root: QVBoxLayout) -> None:
        revise_row = QHBoxLayout()
        self.revise_edit = QLineEdit()
        self.revise_edit.setObjectName("reviseInstruction")
        revise_row.addWidget(self.revise_edit, 1)
        self.dictation = _dictation_button(self.app, self.revise_edit, self)
        if self.dictation is not None:
            revise_row.addWidget(self.dictation)
        self.revise_button = QPushButton()
        revise_row.addWidget(self.revise_button)
        root.addLayout(revise_row)

    def _build_decision_bar(self, root: QVBoxLayout) -> None:
        """Progress, status, 放弃 and 批准并发送."""
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

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Review reply before sending"))
        self.to_label.setText(self.tr("To"))
        self.subject_label.setText(self.tr("Subject"))
        self.files_label.setText(self.tr("Attachments"))
        self.attachments.retranslate()
        self.zh_title.setText(self.tr("Chinese translation for you"))
        self.zh_title.setToolTip(self.tr("Only you read this; the customer gets the English"))
        self.en_title.setText(self.tr("The English that is sent"))
        self.en_title.setToolTip(self.tr("Editable: this text is what the customer receives"))
        self.rerender_button.setText(self.tr("Translate again"))
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
    def reload(self) -> asyncio.Future[None]:
        return self._loads.start()

    async def ready(self) -> None:
        """Wait until the current draft is shown (tests, screenshots)."""
        await self._loads.ready()

    async def _load(self) -> None:
        draft_id = self.draft_id
        reader = self.drafting.reader
        view = await reader.get(draft_id)
        target: int | str | None = (
            view.inquiry_id if view.inquiry_id is not None else (view.to[0] if view.to else None)
        )
        recent: list[RecentContact] = []
        if target is not None:
            recent = await reader.recent_contact(target)
            for address in view.to:  # the owner may have changed the recipient
                if view.inquiry_id is not None:
                    more = await reader.recent_contact(address)
                    recent += [r for r in more if r not in recent]
        files = await reader.attachment_options(draft_id)
        last_folder = await reader.attach_folder()
        if draft_id != self.draft_id:
            return
        self.view = view
        self.files = files
        self.last_folder = last_folder
        # the email this very draft became is no warning about itself (after 批准并发送)
        recent = [r for r in recent if r.draft_id != draft_id]
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
        if view.body_zh and not view.zh_stale:  # never a Chinese of another English
            self.zh_preview.setHtml(zh_html(view.body_zh, view.unconfirmed_facts))
        else:
            self.zh_preview.setHtml(
                "<p style='color:#6e7781'>"
                + html.escape(
                    self.tr(
                        "The English text changed. Click “Translate again” to see it in Chinese."
                    )
                )
                + "</p>"
            )
        highlight_facts(self.en_edit, view.unconfirmed_facts)
        self._render_files()
        self._render_banner(view)
        self._render_warnings(view)
        self._update_buttons()

    def _render_files(self) -> None:
        chosen = set(self.view.attachment_ids) if self.view is not None else set()
        self.attachments.show_files(self.files, chosen)

    def attachment_warnings(self) -> list[str]:
        """Warnings about the chosen files, in the UI language."""
        return (
            [] if self.view is None else attachment_warnings(self.files, self.view.attachment_ids)
        )

    def checked_file_ids(self) -> list[int]:
        return self.attachments.checked_ids()

    async def save_attachments(self) -> bool:
        """Store the ticked files as the draft's attachments (audited by the service)."""
        if self.view is None:
            return False
        ids, draft_id = self.checked_file_ids(), self.draft_id
        op = Operation(
            self,
            lambda: self.drafting.edits.set_attachments(draft_id, ids, actor="owner"),
            hub=self.hub,
            feedback=self.status,
        )
        await op.run()
        await self._load()
        return op.error is None

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
        """``OwnerEdits`` copies the chosen file (off the UI thread, up to 150 MB) and ticks it
        on this draft; the list then shows it ticked."""
        if self.view is None or self.busy or not path:
            return False
        draft_id = self.draft_id
        op = Operation(
            self,
            lambda: self.drafting.edits.add_owner_file(draft_id, path, actor="owner"),
            hub=self.hub,
            busy=self.tr("Adding the file…"),
            feedback=self.status,
        )
        await op.run()
        if op.error is not None:
            return False
        await self.drafting.edits.remember_attach_folder(path)
        await self._load()
        self.status.ok(self.tr("Added %1").replace("%1", Path(path).name))
        return True

    def _render_banner(self, view: DraftView) -> None:
        status = view.status
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
        text = texts.get(status, status)
        if view.is_sample:  # the demo's code-written reply, never sent
            text = self.tr("Sample") + " · " + text
        self.banner.setText(text)
        self.banner.setStyleSheet(
            f"QLabel#approvalBanner {{ background: {colour}; color: white; font-size: 15px;"
            " font-weight: bold; border-radius: 4px; }"
        )

    def _render_warnings(self, view: DraftView) -> None:
        days = self.drafting.reader.recent_contact_days()
        items = warning_items(view, self.recent, days, self.attachment_warnings())
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
                    and not view.zh_stale  # he must read the Chinese of this English first
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
        edits: tuple[QPlainTextEdit | QLineEdit, ...] = (
            self.en_edit,
            self.to_edit,
            self.subject_edit,
            self.revise_edit,
        )
        for edit in edits:
            edit.setReadOnly(not editable or self.busy)
        self.attachments.set_enabled(
            bool(editable) and not self.busy,
            bool(editable) and not self.busy and view is not None and view.inquiry_id is not None,
        )

    # ------------------------------------------------------------------ actions
    def _on_edit(self, *_: Any) -> None:
        self._dirty = True
        self._update_buttons()

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


def _dictation_button(app: FrontEnd, target: Target, parent: QWidget) -> QWidget | None:
    from desktop.voice.dictation import DictationButton

    return DictationButton(app, target, parent)
