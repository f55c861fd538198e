"""The owner's decisions in the approval window: save edits, translate again, approve and
send, discard, revise — each a coroutine that reports on the window's status line.

A mixin of ``ApprovalWindow`` (kept apart so the window's module is about its layout and
rendering). Its strings use the window's translation context explicitly, so they read the same
translations as before the split.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication

from desktop import ai_needed
from desktop.approval.panels import split_addresses
from desktop.errors_ui import message_for
from desktop.inert import make_plain
from desktop.look import set_tone

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QCheckBox, QLabel, QLineEdit, QPlainTextEdit, QProgressBar

    from core.app.types import DraftView
    from desktop.approval.parts import DraftingParts


class OwnerActions:
    """What the owner's buttons do (the window provides the widgets and ``_load``)."""

    drafting: DraftingParts
    draft_id: int
    view: DraftView | None
    busy: bool
    _dirty: bool
    progress: QProgressBar
    status_label: QLabel
    en_edit: QPlainTextEdit
    subject_edit: QLineEdit
    to_edit: QLineEdit
    confirm_check: QCheckBox
    revise_edit: QLineEdit
    finished: SignalInstance  # Signal(int, str) of the window
    draft_replaced: SignalInstance  # Signal(int, int) of the window

    if TYPE_CHECKING:

        async def _load(self) -> None: ...

        def _update_buttons(self) -> None: ...

    def _set_busy(self, busy: bool, message: str = "") -> None:
        self.busy = busy
        self.progress.setVisible(busy)
        if message:
            self.status_label.setText(message)
        self._update_buttons()

    def _show_error(self, exc: BaseException) -> None:
        set_tone(self.status_label, "error")
        self.status_label.setText(message_for(exc))
        if ai_needed.not_configured(exc):  # 重新翻译 / 修改 without a model: the way to one
            ai_needed.offer(self)  # type: ignore[arg-type]

    def _show_ok(self, message: str) -> None:
        set_tone(self.status_label, "ok")
        self.status_label.setText(message)

    async def save_edits(self) -> bool:
        """Store the owner's edits (recipients, subject, body); the fact guard runs again."""
        if self.view is None:
            return False
        try:
            await self.drafting.edits.update_body(
                self.draft_id,
                self.en_edit.toPlainText(),
                actor="owner",
                subject=self.subject_edit.text(),
                to=split_addresses(self.to_edit.text()),
            )
        except Exception as exc:
            self._show_error(exc)
            return False
        await self._load()
        return True

    async def rerender(self) -> None:
        if self._dirty and not await self.save_edits():
            return
        self._set_busy(
            True, QCoreApplication.translate("ApprovalWindow", "Translating into Chinese…")
        )
        try:
            await self.drafting.edits.rerender_zh(self.draft_id)
        except Exception as exc:
            self._set_busy(False)
            self._show_error(exc)
            return
        self._set_busy(False)
        await self._load()
        # the busy line goes once the Chinese is in (it stayed, as if still translating)
        self._show_ok(QCoreApplication.translate("ApprovalWindow", "The Chinese is up to date."))

    async def approve_and_send(self) -> str:
        """批准并发送: approve as the owner, then send once. Returns the final status."""
        if self.view is None or self.busy:
            return "busy"
        if self.view.is_sample:  # the demo's sample: nothing in the demo is ever sent
            self._show_error_text(
                QCoreApplication.translate(
                    "ApprovalWindow",
                    "This is a sample reply from the demo data, so it is not sent. Once your "
                    "mailbox is connected, approving a reply sends it.",
                )
            )
            return "sample"
        if self._dirty:
            if not await self.save_edits():
                return "error"
            if self.view.unconfirmed_facts and not self.confirm_check.isChecked():
                self._show_error_text(
                    QCoreApplication.translate(
                        "ApprovalWindow", "Please check the highlighted unconfirmed values first."
                    )
                )
                return "unconfirmed"
        self._set_busy(True, QCoreApplication.translate("ApprovalWindow", "Sending…"))
        try:
            if self.view.status != "approved":
                await self.drafting.decisions.approve(
                    self.draft_id, actor="owner", accept_unconfirmed=self.confirm_check.isChecked()
                )
            result = await self.drafting.decisions.send(self.draft_id, actor="owner")
        except Exception as exc:
            self._set_busy(False)
            await self._load()
            self._show_error(exc)
            return "error"
        self._set_busy(False)
        await self._load()
        if result.status == "sent":
            self._show_ok(QCoreApplication.translate("ApprovalWindow", "Sent"))
            self.finished.emit(self.draft_id, "sent")
        else:
            self._show_error_text(
                QCoreApplication.translate(
                    "ApprovalWindow", "Not sent: %1 (the draft is kept)"
                ).replace("%1", result.message)
            )
        return result.status

    def _show_error_text(self, text: str) -> None:
        set_tone(self.status_label, "error")
        self.status_label.setText(text)

    async def reject(self) -> None:
        """放弃: the draft is kept for the record and can never be sent."""
        try:
            # also deletes an Outlook copy an earlier send attempt left in Drafts
            await self.drafting.decisions.reject(self.draft_id, actor="owner")
        except Exception as exc:
            self._show_error(exc)
            return
        await self._load()
        self._show_ok(QCoreApplication.translate("ApprovalWindow", "Discarded. Nothing was sent."))
        self.finished.emit(self.draft_id, "rejected")

    async def revise(self) -> int | None:
        """修改: a new Chinese instruction → a revised draft; this window follows it."""
        instruction = self.revise_edit.text().strip()
        if not instruction:
            self._show_error_text(
                QCoreApplication.translate("ApprovalWindow", "Write what should change first.")
            )
            return None
        if self._dirty and not await self.save_edits():
            return None
        self._set_busy(True, QCoreApplication.translate("ApprovalWindow", "Revising the draft…"))

        def progress(text_so_far: str) -> None:  # a slow model is seen working
            make_plain(self.status_label)  # the model's words, shown literally
            tail = " ".join(text_so_far.split())[-120:]
            self.status_label.setText(
                QCoreApplication.translate("ApprovalWindow", "Generating… %1").replace("%1", tail)
            )

        try:
            new_id = await self.drafting.composer.revise(
                self.draft_id, instruction, actor="owner", progress=progress
            )
        except Exception as exc:
            self._set_busy(False)
            self._show_error(exc)
            return None
        old = self.draft_id
        self.draft_id = new_id
        self.revise_edit.clear()
        self.confirm_check.setChecked(False)
        self._set_busy(
            False,
            QCoreApplication.translate(
                "ApprovalWindow", "Revised draft ready — please review it again."
            ),
        )
        await self._load()
        self.draft_replaced.emit(old, new_id)
        return new_id
