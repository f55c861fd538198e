"""Step 1 of a send: claim an approved draft (``approved → sending``) and snapshot what goes.

One SQLite write compares and sets the status, so a second process or a double click finds
``sending`` and is refused; nothing has been sent yet. The snapshot carries everything the
Outlook steps need (recipients, words, the customer's message to reply to, the chosen files on
disk), so no ORM row leaves the transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.orm import Session

from core.clock import Clock
from core.db.models import Attachment, Draft, Message
from core.drafts.attachments import selected_files
from core.drafts.state import STATUS_ZH, Transition, transition
from core.errors import DraftStateError, NotFound
from core.mail.message_ids import original_message_id
from core.paths import DataPaths


@dataclass(frozen=True)
class SendSnapshot:
    """What one send attempt sends, read in the claiming transaction."""

    id: int
    inquiry_id: int | None
    to: list[str]
    cc: list[str]
    subject: str
    body: str
    outlook_id: str | None
    internet_message_id: str | None
    reply_graph_id: str | None
    # (filename, content type, path on disk, size) of each chosen file
    attachments: list[tuple[str, str, str, int]] = field(default_factory=list)
    created_at: datetime | None = None  # keys the send journal (ids can be reused after a restore)
    # threading for a mailbox that sends raw MIME (SMTP): the customer's Message-ID and the
    # thread's References, so the reply lands in his conversation
    reply_message_id: str | None = None
    references: list[str] = field(default_factory=list)


def refuse_unless_approved(session: Session, draft_id: int) -> Draft:
    """The draft, if it is approved and has recipients; else the Chinese refusal (not sent)."""
    draft = session.get(Draft, draft_id)
    if draft is None:
        raise NotFound(
            f"草稿 #{draft_id} 不存在，未发送 / draft #{draft_id} does not exist, not sent"
        )
    if draft.status != "approved":
        raise DraftStateError(
            f"草稿 {draft_id} 处于「{STATUS_ZH.get(draft.status, draft.status)}」，"
            "只有老板批准的草稿才能发送；未发送 / "
            f"draft {draft_id} is {draft.status}: only a draft the owner approved can be sent; "
            "not sent"
        )
    if not draft.to_addrs:
        raise DraftStateError(
            f"草稿 {draft_id} 没有收件人，未发送 / draft {draft_id} has no recipient; not sent"
        )
    return draft


def _chosen_files(
    session: Session, paths: DataPaths, draft: Draft
) -> list[tuple[str, str, str, int]]:
    wanted = [int(i) for i in (draft.attachment_ids or [])]
    if not wanted:
        return []
    chosen = selected_files(session, paths, draft.inquiry_id, wanted)
    bad = [f for f in chosen if not f.available]
    if len(chosen) != len(wanted) or bad:
        names = "、".join(f"{f.filename}（{f.reason}）" for f in bad) or "已被删除"
        raise DraftStateError(
            f"草稿 {draft.id} 的附件无法发送：{names}；未发送 / the attachments of draft "
            f"{draft.id} cannot be sent: {names}; not sent"
        )
    files = []
    for f in chosen:
        row = session.get(Attachment, f.id)
        path = paths.stored(row.stored_path if row is not None else None)
        files.append((f.filename, f.content_type, str(path), f.size))
    return files


def claim_for_send(
    session: Session, draft_id: int, *, actor: str, clock: Clock, paths: DataPaths
) -> tuple[SendSnapshot, Transition]:
    """``approved → sending`` and the snapshot of what to send (refused if not approved)."""
    draft = refuse_unless_approved(session, draft_id)
    reply_graph_id = reply_mid = None
    references: list[str] = []
    if draft.reply_to_message_pk is not None:
        msg = session.get(Message, draft.reply_to_message_pk)
        if msg is not None:
            reply_graph_id = msg.source_id if msg.source == "graph" else None
            reply_mid = original_message_id(msg.message_id)
            references = [*(msg.references or []), reply_mid][-20:]
    snap = SendSnapshot(
        draft.id,
        draft.inquiry_id,
        list(draft.to_addrs),
        list(draft.cc_addrs or []),
        draft.subject,
        draft.body_en,
        draft.outlook_draft_id,
        draft.internet_message_id,
        reply_graph_id,
        _chosen_files(session, paths, draft),
        draft.created_at,
        reply_message_id=reply_mid,
        references=references,
    )
    t = transition(session, draft, "sending", actor=actor, clock=clock, note="开始发送")
    draft.error = None
    return snap, t
