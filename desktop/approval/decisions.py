"""The owner's decisions in the approval window: save edits, translate again, approve and
send, discard, revise — each an ``Operation`` reported on the window's status line.

``ApprovalActions`` is a component the window owns, not a mixin: it is handed the drafting
capabilities, the hub, the window's ``StatusLine`` and a way to reload, and it reads the owner's
form as one ``DraftForm`` value the window builds. It never touches a widget; what the window
must do afterwards (follow a revised draft, close) it says with its signals. Its strings use the
window's translation context explicitly, so they read the same translations as before.

Signals:
    finished(int, str): the draft id and its final status (sent / rejected).
    draft_replaced(int, int): the old and the new draft id after 修改.
"""

from __future__ import annotations

from collections.abc import Awaitable
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from typing import TypeVar

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QObject
from PySide6.QtCore import Signal

from desktop.hub import OpChanges
from desktop.inert import make_plain
from desktop.operations import Operation
from desktop.operations import StatusLine

if TYPE_CHECKING:
    from core.app.types import DraftView
    from desktop.approval.parts import DraftingParts
    from desktop.hub import SignalHub

T = TypeVar("T")


@dataclass(frozen=True)
class DraftForm:
    """The approval window as the owner left it: which draft, and what he typed or ticked."""

    draft_id: int
    view: DraftView | None
    body: str
    subject: str
    to: list[str]
    confirmed: bool  # 我已核对未经确认的内容
    instruction: str  # 修改's box
    dirty: bool  # edits not saved yet


class ApprovalActions(QObject):
    """What the owner's buttons do (the window owns one and hands it its form on each click)."""

    finished = Signal(int, str)
    draft_replaced = Signal(int, int)

    def __init__(
        self,
        drafting: DraftingParts,
        hub: SignalHub | None,
        status: StatusLine,
        reload: Callable[[], Awaitable[None]],
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.drafting = drafting
        self.hub = hub
        self.status = status
        self.reload = reload

    @property
    def busy(self) -> bool:
        return self.status.is_busy

    def _op(
        self,
        form: DraftForm,
        op: Callable[[], Awaitable[T]],
        busy: str = "",
        *,
        stage: bool = False,
    ) -> Operation[T]:
        """An operation on ``form``'s draft: its row and (after a send) its stage change."""
        inquiry = form.view.inquiry_id if form.view is not None else None
        changes = OpChanges(
            frozenset({inquiry}) if inquiry is not None else frozenset(),
            drafts=frozenset({form.draft_id}),
            stages=stage,
        )
        return Operation(None, op, hub=self.hub, changes=changes, busy=busy, feedback=self.status)

    async def save_edits(self, form: DraftForm) -> bool:
        """Store the owner's edits (recipients, subject, body); the fact guard runs again."""
        if form.view is None:
            return False
        op = self._op(
            form,
            lambda: self.drafting.edits.update_body(
                form.draft_id, form.body, actor="owner", subject=form.subject, to=form.to
            ),
        )
        await op.run()
        if op.error is not None:
            return False
        await self.reload()
        return True

    async def rerender(self, form: DraftForm) -> None:
        if form.dirty and not await self.save_edits(form):
            return
        op = self._op(
            form,
            lambda: self.drafting.edits.rerender_zh(form.draft_id),
            QCoreApplication.translate("ApprovalWindow", "Translating into Chinese…"),
        )
        await op.run()
        if op.error is not None:
            return
        await self.reload()
        # the busy line goes once the Chinese is in (it stayed, as if still translating)
        self.status.ok(QCoreApplication.translate("ApprovalWindow", "The Chinese is up to date."))

    async def approve_and_send(self, form: DraftForm) -> str:
        """批准并发送: approve as the owner, then send once. Returns the final status."""
        view = form.view
        if view is None or self.busy:
            return "busy"
        if view.is_sample:  # the demo's sample: nothing in the demo is ever sent
            self.status.error(
                QCoreApplication.translate(
                    "ApprovalWindow",
                    "This is a sample reply from the demo data, so it is not sent. Once your "
                    "mailbox is connected, approving a reply sends it.",
                )
            )
            return "sample"
        if form.dirty:
            if not await self.save_edits(form):
                return "error"
            if view.unconfirmed_facts and not form.confirmed:
                self.status.error(
                    QCoreApplication.translate(
                        "ApprovalWindow", "Please check the highlighted unconfirmed values first."
                    )
                )
                return "unconfirmed"
        decisions = self.drafting.decisions

        async def approve_then_send() -> tuple[str, str]:
            if view.status != "approved":
                await decisions.approve(
                    form.draft_id, actor="owner", accept_unconfirmed=form.confirmed
                )
            result = await decisions.send(form.draft_id, actor="owner")
            return result.status, result.message

        op = self._op(
            form,
            approve_then_send,
            QCoreApplication.translate("ApprovalWindow", "Sending…"),
            stage=True,
        )
        outcome = await op.run()
        await self.reload()
        if outcome is None:  # the status line says why (the reload leaves it)
            return "error"
        status, message = outcome
        if status == "sent":
            self.status.ok(QCoreApplication.translate("ApprovalWindow", "Sent"))
            self.finished.emit(form.draft_id, "sent")
        else:
            self.status.error(
                QCoreApplication.translate(
                    "ApprovalWindow", "Not sent: %1 (the draft is kept)"
                ).replace("%1", message)
            )
        return status

    async def reject(self, form: DraftForm) -> None:
        """放弃: the draft is kept for the record and can never be sent."""
        # also deletes an Outlook copy an earlier send attempt left in Drafts
        op = self._op(form, lambda: self.drafting.decisions.reject(form.draft_id, actor="owner"))
        await op.run()
        if op.error is not None:
            return
        await self.reload()
        self.status.ok(QCoreApplication.translate("ApprovalWindow", "Discarded. Nothing was sent."))
        self.finished.emit(form.draft_id, "rejected")

    async def revise(self, form: DraftForm) -> int | None:
        """修改: a new Chinese instruction → a revised draft; the window follows it."""
        instruction = form.instruction.strip()
        if not instruction:
            self.status.error(
                QCoreApplication.translate("ApprovalWindow", "Write what should change first.")
            )
            return None
        if form.dirty and not await self.save_edits(form):
            return None
        label = self.status.label

        def progress(text_so_far: str) -> None:  # a slow model is seen working
            make_plain(label)  # the model's words, shown literally
            tail = " ".join(text_so_far.split())[-120:]
            label.setText(
                QCoreApplication.translate("ApprovalWindow", "Generating… %1").replace("%1", tail)
            )

        op = self._op(
            form,
            lambda: self.drafting.composer.revise(
                form.draft_id, instruction, actor="owner", progress=progress
            ),
            QCoreApplication.translate("ApprovalWindow", "Revising the draft…"),
        )
        new_id = await op.run()
        if new_id is None:
            return None
        self.status.idle(
            QCoreApplication.translate(
                "ApprovalWindow", "Revised draft ready — please review it again."
            )
        )
        self.draft_replaced.emit(form.draft_id, new_id)
        return new_id
