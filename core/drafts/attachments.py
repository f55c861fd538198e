"""The files a reply may carry: the attachments the customer (or we) sent in the inquiry's thread.

They are ``Attachment`` rows of the inquiry's messages whose bytes the intake stored in the data
folder (``stored_path`` relative to it, or absolute for older rows). A file the intake skipped
(over its size cap) has no bytes here and is listed as unavailable with the reason, so the owner
sees why he cannot tick it. A draft keeps its choice in ``Draft.attachment_ids``.

Size rules are Outlook's: one attachment up to 150 MB (upload session from 3 MB); a message over
the mailbox's send limit (35 MB by default in Exchange Online) is refused when sent, so the
approval window warns above that total instead of failing later.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.models import Attachment, Message
from core.paths import DataPaths

MAX_ATTACHMENT_BYTES = 150 * 1024 * 1024  # Graph's ceiling for one file
SEND_LIMIT_BYTES = 35 * 1024 * 1024  # Exchange Online's default maximum message size


@dataclass(frozen=True)
class FileOption:
    """One file of the inquiry the owner may attach."""

    id: int
    filename: str
    content_type: str
    size: int
    available: bool
    reason: str  # why it cannot be attached (Chinese), "" when available
    from_addr: str | None
    received_at: Any
    direction: str  # in | out: whether the customer sent it or we did

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "filename": self.filename,
            "content_type": self.content_type,
            "size": self.size,
            "available": self.available,
            "reason": self.reason,
        }


def resolve_path(paths: DataPaths, stored_path: str | None) -> Path | None:
    """The file on disk for a stored path (relative to the data folder, or absolute)."""
    if not stored_path:
        return None
    path = Path(stored_path)
    return path if path.is_absolute() else paths.home / path


def human_size(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    if size >= 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size} B"


def _option(paths: DataPaths, att: Attachment, msg: Message) -> FileOption:
    reason = ""
    path = resolve_path(paths, att.stored_path)
    if path is None:
        reason = "文件未保存在本机（超过收件大小上限），请在 Outlook 中转发原邮件"
    elif not path.is_file():
        reason = "本机文件已不存在"
    elif att.size > MAX_ATTACHMENT_BYTES:
        reason = f"超过 Outlook 单个附件 150 MB 的上限（{human_size(att.size)}）"
    return FileOption(
        id=att.id,
        filename=att.filename,
        content_type=att.content_type or "application/octet-stream",
        size=int(att.size or 0),
        available=not reason,
        reason=reason,
        from_addr=msg.from_addr,
        received_at=msg.received_at,
        direction=msg.direction,
    )


def inquiry_files(session: Session, paths: DataPaths, inquiry_id: int | None) -> list[FileOption]:
    """Every non-inline attachment of the inquiry's messages, newest message first."""
    if inquiry_id is None:
        return []
    rows = session.execute(
        select(Attachment, Message)
        .join(Message, Attachment.message_pk == Message.id)
        .where(
            Message.inquiry_id == inquiry_id,
            Message.removed_at.is_(None),
            Attachment.is_inline.is_(False),
        )
        .order_by(Message.received_at.desc(), Attachment.id)
    )
    return [_option(paths, att, msg) for att, msg in rows]


def selected_files(
    session: Session, paths: DataPaths, inquiry_id: int | None, ids: list[int]
) -> list[FileOption]:
    """The draft's chosen files, in the order chosen (ids no longer found are dropped)."""
    by_id = {f.id: f for f in inquiry_files(session, paths, inquiry_id)}
    return [by_id[i] for i in ids if i in by_id]


def size_warnings(files: list[FileOption]) -> list[str]:
    """Chinese warnings about the chosen files (unavailable ones, total over the send limit)."""
    out = [f"{f.filename}：{f.reason}" for f in files if not f.available]
    total = sum(f.size for f in files)
    if total > SEND_LIMIT_BYTES:
        out.append(f"附件合计 {human_size(total)}，超过 Outlook 通常的 35 MB 发送上限，可能被退回")
    return out
