"""What every drafting capability shares: the store, the clock, the event bus and the rules
that more than one of them applies (which drafts are editable, which files may be attached).

``DraftCore`` is plumbing, not a capability: it has no public verbs. The four capability
objects (``DraftComposer``, ``OwnerEdits``, ``OwnerDecisions``, ``DraftReader``) each hold one
and expose only their own methods, so what a caller can do is decided by which of them it was
handed (see ``core.drafts.drafting``).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from core.clock import Clock, naive_utc
from core.db.models import AuditEntry, Draft
from core.drafts.attachments import inquiry_files
from core.drafts.state import STATUS_ZH, Transition, transition
from core.errors import DraftStateError, LLMNotConfigured, NotFound
from core.services import Services

if TYPE_CHECKING:
    from core.llm.model import ModelClient

# Statuses in which the owner may still change a draft.
EDITABLE = frozenset({"draft", "pending_approval", "approved", "failed"})


def not_editable(draft: Draft, what: str) -> DraftStateError:
    """The refusal for an edit of a draft that left the queue (``what``: 修改/编辑/确认…)."""
    return DraftStateError(
        f"草稿 {draft.id} 处于「{STATUS_ZH.get(draft.status, draft.status)}」，不能{what}"
    )


class DraftCore:
    """Store, clock, bus and the shared rules of one data folder's drafting."""

    def __init__(self, services: Services) -> None:
        self.services = services

    @property
    def clock(self) -> Clock:
        return self.services.clock

    def now(self) -> datetime:
        """Now as the store keeps time (naive UTC)."""
        return naive_utc(self.clock.now())

    def publish(self, transitions: list[Transition]) -> None:
        """After the commit: tell the tray, the views and Telegram what moved."""
        for t in transitions:
            for event in t.events():
                self.services.bus.publish(event)

    def audit(
        self, session: Session, draft_id: int, action: str, actor: str, **detail: Any
    ) -> None:
        session.add(
            AuditEntry(
                entity="draft",
                entity_id=draft_id,
                action=action,
                detail=detail,
                actor=actor,
                at=self.now(),
            )
        )

    @staticmethod
    def get(session: Session, draft_id: int) -> Draft:
        draft = session.get(Draft, draft_id)
        if draft is None:
            raise NotFound(f"草稿 #{draft_id} 不存在 / draft #{draft_id} does not exist")
        return draft

    def back_to_review(self, session: Session, draft: Draft, actor: str, note: str) -> Transition:
        """An owner edit: an approved (or failed, or raw) draft goes back to pending_approval, so
        the words approved are the words sent. Otherwise the status stays, but the returned
        transition still makes the queue refresh the row."""
        if draft.status in {"approved", "failed", "draft"}:
            return transition(
                session, draft, "pending_approval", actor=actor, clock=self.clock, note=note
            )
        return Transition(draft.id, draft.inquiry_id, draft.status, draft.status)

    def check_files(self, session: Session, inquiry_id: int | None, ids: list[int]) -> list[int]:
        """The ids, de-duplicated, if every one is an attachable file of this inquiry."""
        files = {f.id: f for f in inquiry_files(session, self.services.paths, inquiry_id)}
        out: list[int] = []
        for i in ids:
            f = files.get(int(i))
            if f is None:
                raise DraftStateError(f"附件 {i} 不是询盘 {inquiry_id} 的文件")
            if not f.available:
                raise DraftStateError(f"附件「{f.filename}」无法发送：{f.reason}")
            if f.id not in out:
                out.append(f.id)
        return out


def require_llm(llm: ModelClient | None) -> ModelClient:
    """The model client, or the Chinese refusal when no AI endpoint is configured."""
    if llm is None or not getattr(llm, "available", False):
        raise LLMNotConfigured()
    return llm


class AlreadyDrafted(DraftStateError):
    """The inquiry had a draft already when the first reply was to be written (checked in the
    writing transaction): one mail thread gets one waiting first reply, never two; nothing was
    written."""
