"""OwnerDecisions: approve, reject, send — the owner's hands only.

Principle 2 of docs/contracts.md by what is handed over: this is the only object with ``approve`` and
``send``, and it is given only to the owner's own surfaces — the approval window, the local
command line and the paired owner's Telegram buttons (plus the scheduler, which sends what he
already approved). The assistant's tools receive a ``DraftComposer`` and a ``DraftReader``; no
attribute of theirs reaches this class or the sender (a test walks the objects to check).

Approval is by an owner actor (``owner`` from the window, ``cli`` from the local command line,
``telegram`` from the paired owner's button) and is refused while the fact guard lists
unconfirmed values, unless the owner accepts them explicitly. Only an ``approved`` draft is
sent, by its id, at most once (``core.drafts.sender``).
"""

from __future__ import annotations

import logging

from sqlalchemy.orm import Session

from core.drafts.base import DraftCore
from core.drafts.evidence import run_guard
from core.drafts.sender import DraftSender, SendResult
from core.drafts.state import APPROVABLE, APPROVERS, Transition, approve_transition, transition
from core.drafts.translation import is_stale
from core.drafts.view import DraftView, draft_view
from core.errors import DraftStateError, TranslationStaleError, UnconfirmedFactsError

log = logging.getLogger(__name__)


class OwnerDecisions:
    """Approve, reject, send (and the scheduler's send_due / reconcile)."""

    def __init__(self, core: DraftCore, sender: DraftSender) -> None:
        self._core = core
        self.sender = sender

    async def approve(
        self, draft_id: int, *, actor: str, accept_unconfirmed: bool = False
    ) -> DraftView:
        """The ONLY way to ``approved``. Owner actors only; refuses unconfirmed facts unless
        ``accept_unconfirmed`` (then they are recorded as confirmed by this actor)."""
        if actor not in APPROVERS:
            raise DraftStateError(
                f"只有老板本人可以批准草稿（调用者：{actor}） / only the owner can approve a "
                f"draft (caller: {actor})"
            )
        core = self._core

        def do(session: Session) -> tuple[DraftView, Transition]:
            draft = core.get(session, draft_id)
            if not draft.to_addrs:
                raise DraftStateError(
                    f"草稿 {draft_id} 没有收件人 / draft {draft_id} has no recipient"
                )
            if draft.status in APPROVABLE:
                if draft.attachment_ids:
                    core.check_files(session, draft.inquiry_id, list(draft.attachment_ids))
                if is_stale(draft):  # he would approve a Chinese that is not this English
                    raise TranslationStaleError(f"草稿 {draft_id}")
                run_guard(session, draft, core.services.settings)  # evidence may have changed
            if draft.unconfirmed_facts and draft.status in APPROVABLE:
                if not accept_unconfirmed:
                    raise UnconfirmedFactsError("、".join(draft.unconfirmed_facts))
                accepted = list(draft.unconfirmed_facts)
                draft.confirmed_facts = list(
                    dict.fromkeys([*(draft.confirmed_facts or []), *accepted])
                )
                draft.unconfirmed_facts = []
                core.audit(session, draft.id, "accept_unconfirmed", actor, facts=accepted)
            note = "老板批准" if actor == "owner" else f"批准（{actor}）"
            t = approve_transition(session, draft, actor=actor, clock=core.clock, note=note)
            draft.error = None
            return draft_view(session, draft, core.services.paths), t

        view, t = await core.services.store.run(do)
        core.publish([t])
        return view

    async def reject(self, draft_id: int, *, actor: str) -> DraftView:
        """放弃: the draft is kept for the record but can never be sent. Its Outlook copy (if an
        earlier send attempt made one) is deleted so Outlook's Drafts folder does not fill with
        abandoned replies; Outlook being unreachable does not undo the rejection (``send_due``
        deletes the copy later)."""
        core = self._core

        def do(session: Session) -> tuple[DraftView, Transition]:
            draft = core.get(session, draft_id)
            t = transition(session, draft, "rejected", actor=actor, clock=core.clock, note="放弃")
            return draft_view(session, draft, core.services.paths), t

        view, t = await core.services.store.run(do)
        core.publish([t])
        try:
            await self.sender.delete_abandoned(draft_id)
        except Exception as exc:  # offline: the scheduler's next round cleans up
            log.info("deleting the Outlook copy of draft %s postponed: %s", draft_id, exc)
        return view

    async def send(self, draft_id: int, *, actor: str) -> SendResult:
        """Send an approved draft (at most once). Raises DraftStateError if not approved."""
        return await self.sender.send(draft_id, actor=actor)

    async def send_due(self) -> list[SendResult]:
        """For the scheduler: reconcile interrupted sends, then send approved drafts (paced)."""
        return await self.sender.send_due()

    async def reconcile(self) -> list[SendResult]:
        """Settle drafts a crash or a dropped connection left in ``sending``."""
        return await self.sender.reconcile()
