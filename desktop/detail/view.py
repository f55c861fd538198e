"""The inquiry detail view: assembles the panels (header, thread, customer form, history, notes).

Everything the owner changes goes through the facade (``ctx.app.inquiries`` for fields, notes,
stage moves and translation; the drafting service for replies), awaited on the loop while the store
works on its writer thread, so each change is audited and published as an event exactly like a
change from any other surface. Saving the customer's fields and moving the stage are
``desktop.operations.Operation``s: a busy cursor while they run, a failure shown one way, and
what they changed broadcast on the hub (the board re-reads that row). The view itself only reads (``inquiries.detail``, through the shared
``Loader``) and re-reads when the hub says the inquiry changed; unsaved edits in the customer form
are kept across such refreshes.

Dialogs open with ``open()`` (never a nested ``exec()`` loop) so the qasync loop keeps running.

Signals:
    changed(int): the owner changed this inquiry from here.
    approval_requested(int): 打开待审批草稿 — open that draft in the approval window.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtCore import QUrl
from PySide6.QtCore import Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFrame
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QScrollArea
from PySide6.QtWidgets import QStackedWidget
from PySide6.QtWidgets import QTabWidget
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import ALL_STAGES
from core.app.types import InquiryDetail
from core.app.types import InvalidField
from desktop.aio import spawn
from desktop.approval.compose_dialog import ComposeDialog
from desktop.context import AppContext
from desktop.detail.cards import MessageCard
from desktop.detail.customer_form import CustomerForm
from desktop.detail.dialogs import ReasonDialog
from desktop.detail.dialogs import StageDialog
from desktop.detail.header import DetailHeader
from desktop.detail.history import HistoryPanel
from desktop.detail.notes import NotesPanel
from desktop.detail.proposal_bar import ProposalBar
from desktop.detail.quote_editor import QuoteEditor
from desktop.detail.thread import ThreadPanel
from desktop.detail.visit_dialog import VisitDialog
from desktop.errors_ui import show_error
from desktop.hub import OpChanges
from desktop.loader import Loader
from desktop.operations import Operation
from desktop.voice.dictation import DictationButton


class InquiryDetailView(QWidget):
    changed = Signal(int)
    approval_requested = Signal(int)  # a waiting draft's id: open it in the approval window

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.inquiry_id: int | None = None
        self.detail: InquiryDetail | None = None
        self.inquiries = ctx.app.inquiries
        self._loader = Loader()
        self._build_panels()
        self._wire_panels()
        self._build_layout()
        self._install_dictation()
        ctx.hub.inquiry_updated.connect(self._on_updated)
        self.retranslate()

    def _build_panels(self) -> None:
        """Create the panels and keep the short names tests and callers use for their parts."""
        self.header = DetailHeader()
        self.thread_panel = ThreadPanel()
        self.customer_form = CustomerForm()
        self.history = HistoryPanel()
        self.notes_panel = NotesPanel()
        self.proposal_bar = ProposalBar(self.ctx.app)  # 客户接受了报价…，改为已下单?
        self.title, self.subtitle = self.header.title, self.header.subtitle
        self.advance_button = self.header.advance_button
        self.lost_button = self.header.lost_button
        self.draft_button = self.header.draft_button
        self.drive_button = self.header.drive_button
        self.fields = self.customer_form.fields
        self.product_actions = self.customer_form.product_actions
        self.save_button = self.customer_form.save_button
        self.revert_button = self.customer_form.revert_button
        self.notes = self.notes_panel.notes
        self.note_edit = self.notes_panel.note_edit
        self.note_button = self.notes_panel.note_button
        self.note_row = self.notes_panel.note_row
        self.thread_scroll = self.thread_panel

    def _wire_panels(self) -> None:
        self.advance_button.clicked.connect(self._ask_advance)
        self.lost_button.clicked.connect(self._ask_lost)
        self.draft_button.clicked.connect(self._open_compose)
        self.header.quote_button.clicked.connect(lambda: self.open_quote_editor())
        self.header.visit_button.clicked.connect(lambda: self.open_visit_dialog())
        self.header.approval_button.clicked.connect(self._open_waiting_draft)
        self.drive_button.clicked.connect(self.open_drive_folder)
        self.save_button.clicked.connect(self._save_clicked)
        self.revert_button.clicked.connect(self._revert)
        self.note_button.clicked.connect(self._add_note_clicked)
        self.thread_panel.translate_requested.connect(self._translate_clicked)
        self.proposal_bar.decided.connect(self.changed.emit)

    def _build_layout(self) -> None:
        self.tabs = QTabWidget()
        self.tabs.addTab(self.thread_panel, "")
        # the form is taller than a laptop's share for it: scrolled, it no longer sets the window's
        # minimum height (the board and banners above it pushed the window past a 768 px screen)
        form_scroll = QScrollArea()
        form_scroll.setWidgetResizable(True)
        form_scroll.setFrameShape(QFrame.Shape.NoFrame)
        form_scroll.setWidget(self.customer_form)
        self.tabs.addTab(form_scroll, "")
        self.tabs.addTab(self.history, "")
        self.tabs.addTab(self.notes_panel, "")
        content = QWidget()
        content_layout = QVBoxLayout(content)
        content_layout.setContentsMargins(0, 0, 0, 0)
        content_layout.addWidget(self.header)
        content_layout.addWidget(self.proposal_bar)
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

    @property
    def _cards(self) -> dict[int, MessageCard]:
        return self.thread_panel.cards

    def _install_dictation(self) -> None:
        self.dictation = DictationButton(self.ctx.app, self.note_edit, self)
        self.note_row.insertWidget(0, self.dictation)

    # ------------------------------------------------------------------ loading

    def show_inquiry(self, inquiry_id: int) -> asyncio.Future[None]:
        if inquiry_id != self.inquiry_id:
            self.customer_form.dirty = False
        self.inquiry_id = inquiry_id
        return self._loader.start(lambda generation: self._load(inquiry_id, generation))

    async def ready(self) -> None:
        await self._loader.ready()

    async def _load(self, inquiry_id: int, generation: int) -> None:
        detail = await self.inquiries.detail(inquiry_id)
        offers = await self.proposal_bar.offers(inquiry_id)
        if not self._loader.is_current(generation):
            return
        self.detail = detail
        self.proposal_bar.show_offers(offers)
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
        if not self.customer_form.dirty:
            self.customer_form.fill(d)
        self.thread_panel.show_detail(d, self.ctx.app)
        self.history.show_detail(d)
        self.notes_panel.show_detail(d)

    def _render_header(self) -> None:
        d = self.detail
        if d is None:
            return
        drafts = len(d.pending_drafts)
        note = self.tr("%n draft(s) waiting for approval", "", drafts) if drafts else ""
        self.header.show_detail(d, self.ctx.app.clock.now(), note)

    # ------------------------------------------------------------------ editing fields

    def selected_products(self) -> list[str]:
        return self.customer_form.selected_products()

    def form_values(self) -> dict[str, str | list[str]]:
        return self.customer_form.form_values()

    def _revert(self) -> None:
        self.customer_form.set_dirty(False)
        if self.detail is not None:
            self.customer_form.fill(self.detail)

    def _save_clicked(self) -> None:
        spawn(self.save_fields())

    async def save_fields(self) -> tuple[str, ...]:
        """Save the form through the facade (each changed field audited)."""
        if self.inquiry_id is None:
            return ()
        inquiry_id, values = self.inquiry_id, self.form_values()
        op = Operation(
            self,
            lambda: self.inquiries.update_fields(inquiry_id, values, actor="owner"),
            hub=self.ctx.hub,
            changes=OpChanges(frozenset({inquiry_id})),
        ).failure(self._focus_invalid)
        changed = await op.run()
        if changed is None:
            return ()
        self.customer_form.set_dirty(False)
        self.changed.emit(inquiry_id)
        await self.show_inquiry(inquiry_id)
        return changed

    def _focus_invalid(self, exc: BaseException) -> None:
        """A refused value (the error box names it): the cursor goes to its field."""
        edit = self.fields.get(exc.field) if isinstance(exc, InvalidField) else None
        if edit is not None:
            edit.setFocus()

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
        op = Operation(
            self,
            lambda: self.inquiries.advance_stage(
                inquiry_id, to_stage, reason=reason, triggered_by="owner"
            ),
            hub=self.ctx.hub,
            changes=OpChanges(frozenset({inquiry_id}), stages=True),
        )
        change = await op.run()
        if op.error is not None:
            return False
        self.changed.emit(inquiry_id)
        await self.show_inquiry(inquiry_id)
        return change is not None

    async def mark_lost(self, reason: str) -> bool:
        return await self.advance_stage("lost", reason)

    # ------------------------------------------------------------------ other actions

    def _open_waiting_draft(self) -> None:
        if self.detail is not None and self.detail.pending_drafts:
            self.approval_requested.emit(self.detail.pending_drafts[-1])

    def _open_compose(self) -> None:
        if self.inquiry_id is None:
            return

        dialog = ComposeDialog(self.ctx.app, self.ctx.app.drafts, self.inquiry_id, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()

    def open_quote_editor(self) -> QuoteEditor | None:
        """报价单…: the table editor; the reply it makes waits in 待审批."""
        if self.inquiry_id is None:
            return None
        editor = QuoteEditor(self.ctx.app, self.inquiry_id, self)
        editor.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        editor.made.connect(lambda _draft: self.changed.emit(self.inquiry_id or 0))
        editor.open()
        spawn(editor.prefill())
        return editor

    def open_visit_dialog(self) -> VisitDialog | None:
        """上门量尺…: three free times from his calendar, one click to book."""
        if self.inquiry_id is None:
            return None
        dialog = VisitDialog(self.ctx.app, self.inquiry_id, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.confirmed.connect(self.changed.emit)
        dialog.open()
        dialog.task = spawn(dialog.prefill())
        return dialog

    def open_drive_folder(self) -> bool:
        if self.detail is None or not self.detail.drive_web_url:
            return False
        return QDesktopServices.openUrl(QUrl(self.detail.drive_web_url))

    # ------------------------------------------------------------------ language

    def retranslate(self) -> None:
        self.placeholder.setText(self.tr("Select an inquiry on the left to see its details."))
        self.header.retranslate()
        self.customer_form.retranslate()
        self.notes_panel.retranslate()
        self.tabs.setTabText(0, self.tr("Emails"))
        self.tabs.setTabText(1, self.tr("Customer"))
        self.tabs.setTabText(2, self.tr("Stage history"))
        self.tabs.setTabText(3, self.tr("Notes"))
        self.history.retranslate()
        if self.detail is not None:
            self._render_header()
            self.history.show_detail(self.detail)
        self.thread_panel.retranslate()

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
