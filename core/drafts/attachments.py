"""The files a reply may carry: the attachments the customer (or we) sent in the inquiry's thread,
and files the owner added from his own computer (添加本机文件…, e.g. the quote PDF he just made).

Thread files are ``Attachment`` rows of the inquiry's messages whose bytes the intake stored in
the data folder (``stored_path`` relative to it, or absolute for older rows). A file the intake
skipped (over its size cap) has no bytes here and is listed as unavailable with the reason, so
the owner sees why he cannot tick it. An owner-added file is an ``Attachment`` row without a
message (``message_pk`` NULL) that points at the inquiry (``inquiry_id``, ``added_by="owner"``);
its bytes are copied into the data folder the same content-addressed way, so a later edit, move
or OneDrive sync of the original never changes what was approved. From then on it is listed,
chosen, checked and sent exactly like a thread file. A draft keeps its choice in
``Draft.attachment_ids``.

Size rules are Outlook's: one attachment up to 150 MB (upload session from 3 MB); a message over
the mailbox's send limit (35 MB by default in Exchange Online) is refused when sent, so the
approval window warns above that total instead of failing later.
"""

from __future__ import annotations

import hashlib
import mimetypes
import os
import secrets
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.models import Attachment, Message
from core.errors import BadFile
from core.mail.filenames import safe_filename
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
    received_at: datetime | None  # when its message arrived, or when the owner added it
    direction: str  # in | out | owner: the customer sent it, we did, or the owner added it

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "filename": self.filename,
            "content_type": self.content_type,
            "size": self.size,
            "available": self.available,
            "reason": self.reason,
            "added_by": "owner" if self.direction == "owner" else None,
        }


def human_size(size: int) -> str:
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f} MB"
    if size >= 1024:
        return f"{size / 1024:.0f} KB"
    return f"{size} B"


def _option(paths: DataPaths, att: Attachment, msg: Message | None) -> FileOption:
    reason = ""
    path = paths.stored(att.stored_path)
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
        from_addr=msg.from_addr if msg is not None else None,
        received_at=msg.received_at if msg is not None else att.added_at,
        direction=msg.direction if msg is not None else "owner",
    )


def inquiry_files(session: Session, paths: DataPaths, inquiry_id: int | None) -> list[FileOption]:
    """Every non-inline attachment of the inquiry's messages and every file the owner added to
    it, newest first (an owner's file by when he added it)."""
    if inquiry_id is None:
        return []
    owner = session.scalars(
        select(Attachment)
        .where(Attachment.inquiry_id == inquiry_id, Attachment.message_pk.is_(None))
        .order_by(Attachment.id)
    )
    thread = session.execute(
        select(Attachment, Message)
        .join(Message, Attachment.message_pk == Message.id)
        .where(
            Message.inquiry_id == inquiry_id,
            Message.removed_at.is_(None),
            Attachment.is_inline.is_(False),
        )
        .order_by(Message.received_at.desc(), Attachment.id)
    )
    files = [_option(paths, att, None) for att in owner][::-1]  # the last added first
    files += [_option(paths, att, msg) for att, msg in thread]
    # a stable sort: files of one message (or added at one moment) keep their order
    files.sort(key=lambda f: f.received_at or datetime.min, reverse=True)
    return files


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


# ---------------------------------------------------------------------- the owner's own files
_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class CopiedFile:
    """A local file copied into the data folder (not yet a row)."""

    filename: str  # the original name, as the customer will see it
    content_type: str
    size: int
    sha256: str
    stored_path: str  # relative to the data folder
    source: str  # where it was copied from (for the audit trail)


def copy_owner_file(paths: DataPaths, source_path: str | os.PathLike[str]) -> CopiedFile:
    """Copy a file from the owner's computer into ``attachments/<sha[:2]>/<sha>/<name>``.

    Refuses (``DraftStateError``, Chinese) what cannot be sent: no such file, a folder, a file
    that cannot be read, an empty one, one over Outlook's 150 MB. Streams in 1 MB pieces while
    hashing (a 150 MB file never sits in memory), into a temporary name renamed at the end, so
    an interrupted copy leaves nothing half-written under the final name.
    """
    raw = os.fspath(source_path or "").strip()
    if not raw:
        raise BadFile("没有选择文件 / no file chosen")
    source = Path(raw).expanduser()
    name = source.name
    try:
        info = source.stat()
    except FileNotFoundError:
        raise BadFile(f"找不到文件：{source} / file not found: {source}") from None
    except OSError as exc:
        raise BadFile(f"无法读取文件「{name}」：{exc.strerror or exc}") from None
    if source.is_dir():
        raise BadFile(f"「{name}」是一个文件夹，请选择一个文件 / {name} is a folder; choose a file")
    if not source.is_file():
        raise BadFile(f"「{name}」不是普通文件，无法附加 / {name} is not a regular file")
    if info.st_size == 0:
        raise BadFile(f"文件「{name}」是空的（0 字节），没有附加")
    if info.st_size > MAX_ATTACHMENT_BYTES:
        raise BadFile(
            f"文件「{name}」有 {human_size(info.st_size)}，超过 Outlook 单个附件 150 MB 的上限"
        )

    paths.attachments.mkdir(parents=True, exist_ok=True)
    tmp = paths.attachments / f".owner-{os.getpid()}-{secrets.token_hex(6)}.tmp"
    digest = hashlib.sha256()
    size = 0
    try:
        try:
            with source.open("rb") as src, tmp.open("wb") as dst:
                while chunk := src.read(_CHUNK):
                    size += len(chunk)
                    if size > MAX_ATTACHMENT_BYTES:  # it grew while we copied (a sync)
                        raise BadFile(f"文件「{name}」超过 Outlook 单个附件 150 MB 的上限")
                    digest.update(chunk)
                    dst.write(chunk)
        except BadFile:
            raise
        except OSError as exc:
            raise BadFile(f"无法读取文件「{name}」：{exc.strerror or exc}") from None
        if size == 0:
            raise BadFile(f"文件「{name}」是空的（0 字节），没有附加")
        sha = digest.hexdigest()
        relative = Path(paths.attachments.name) / sha[:2] / sha / safe_filename(name, "file")
        target = paths.file_for(relative.as_posix())
        if target.is_file() and target.stat().st_size == size:
            tmp.unlink()  # content-addressed: the same bytes are there already
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp.replace(target)
        paths.keep(relative.as_posix())  # on PostgreSQL: into the store, for every desk
    finally:
        if tmp.exists():
            tmp.unlink()
    content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return CopiedFile(
        filename=name,
        content_type=content_type,
        size=size,
        sha256=sha,
        stored_path=relative.as_posix(),
        source=str(source),
    )


def owner_file_row(
    session: Session, inquiry_id: int, copied: CopiedFile, now: datetime
) -> Attachment:
    """The inquiry's row for a copied file: the same file (name and bytes) added again is the
    same row, so re-adding never lists it twice."""
    row = session.scalar(
        select(Attachment).where(
            Attachment.inquiry_id == inquiry_id,
            Attachment.message_pk.is_(None),
            Attachment.sha256 == copied.sha256,
            Attachment.filename == copied.filename,
        )
    )
    if row is not None:
        row.stored_path = copied.stored_path  # the same bytes, just copied (again)
        return row
    row = Attachment(
        message_pk=None,
        inquiry_id=inquiry_id,
        added_by="owner",
        added_at=now,
        filename=copied.filename,
        content_type=copied.content_type,
        size=copied.size,
        sha256=copied.sha256,
        stored_path=copied.stored_path,
        is_inline=False,
    )
    session.add(row)
    session.flush()
    return row


def store_owner_file(
    session: Session,
    paths: DataPaths,
    inquiry_id: int,
    source_path: str | os.PathLike[str],
    now: datetime,
) -> FileOption:
    """Copy a file from the owner's computer and make it one of the inquiry's files.

    (``OwnerEdits.add_owner_file`` copies first, outside the database's write lock, then
    calls ``owner_file_row``: a 150 MB copy must not hold up every other writer.)"""
    row = owner_file_row(session, inquiry_id, copy_owner_file(paths, source_path), now)
    return _option(paths, row, None)


def owner_file_option(paths: DataPaths, row: Attachment) -> FileOption:
    return _option(paths, row, None)
