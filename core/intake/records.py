"""Storing what arrived: message identity, raw bytes, attachment files and the message row.

Why this module exists: principle 3 ("nothing is lost") is won or lost here. The raw RFC 5322 bytes
of every message are written to ``DataPaths.raw_mail`` *before* its row is committed, so a row
never points at a missing file and a ``pending`` message can always be re-parsed by a later run.
Files are content-addressed (sha256), written to a temporary name and renamed, so a crash in the
middle of a write leaves either nothing or a complete file, and writing the same bytes twice
(re-ingest, retry after a kill) is harmless.

Attachments are stored the same way under ``DataPaths.attachments``; anything larger than
``intake.attachment_max_mb`` keeps only its metadata row with a ``skipped_reason``.

On PostgreSQL the same files go into the store (``DataPaths.keep``, ``core.db.shared_files``)
after they are written to this desk's cache and before the row is committed: the same order,
so every desk finds the bytes of every row.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.orm import Session

from core.db.models import Attachment, Message
from core.mail.attachment_risk import mark_of_the_web
from core.mail.filenames import safe_filename
from core.mail.message_ids import normalise_many, normalise_message_id
from core.mail.oversize import OVERSIZE_BYTES
from core.paths import DataPaths
from core.tempfiles import partial_file

SYNTHETIC_DOMAIN = "inquiry-bridge.invalid"


class AttachmentLike(Protocol):
    """What the parser hands us for one attachment (``core.mail.parse.ParsedAttachment``)."""

    filename: str | None
    content_type: str
    size: int
    payload: bytes
    is_inline: bool
    # and maybe ``spooled``: a streamed mail's decoded part, in a file (core.mail.oversize)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def synthetic_message_id(raw: bytes) -> str:
    """A stable identity for a message without a Message-ID header (same bytes, same id)."""
    return f"<{sha256_hex(raw)}@{SYNTHETIC_DOMAIN}>"


def message_identity(message_id: str | None, raw: bytes) -> str:
    return normalise_message_id(message_id) or synthetic_message_id(raw)


def identity_of(message_id: str | None, digest: str) -> str:
    """``message_identity`` from the sha256 hex digest of the bytes (a big mail is not read
    into memory to hash it again)."""
    return normalise_message_id(message_id) or f"<{digest}@{SYNTHETIC_DOMAIN}>"


def _atomic_write(target: Path, data: bytes) -> None:
    if target.exists() and target.stat().st_size == len(data):
        return  # content-addressed: same name, same bytes
    target.parent.mkdir(parents=True, exist_ok=True)
    # No fsync: a killed process loses nothing the page cache holds, and power-loss durability
    # matches the database's (WAL, synchronous=NORMAL). The rename makes the file all-or-nothing;
    # a failed write (disk full) deletes its temporary file.
    with partial_file(target, f".{os.getpid()}.tmp") as tmp:
        tmp.write_bytes(data)


def save_raw(paths: DataPaths, raw: bytes) -> str:
    """Write the raw bytes; returns the path relative to the data folder (stored on the row)."""
    digest = sha256_hex(raw)
    relative = (Path(paths.raw_mail.name) / digest[:2] / f"{digest}.eml").as_posix()
    _atomic_write(paths.file_for(relative), raw)
    paths.keep(relative)  # on PostgreSQL: into the store, before the row
    return relative


def save_raw_file(paths: DataPaths, source: Path, digest: str) -> str:
    """``save_raw`` of a big mail that is in a file: copied a block at a time, never read whole."""
    relative = (Path(paths.raw_mail.name) / digest[:2] / f"{digest}.eml").as_posix()
    target = paths.file_for(relative)
    if not (target.exists() and target.stat().st_size == source.stat().st_size):
        target.parent.mkdir(parents=True, exist_ok=True)
        with partial_file(target, f".{os.getpid()}.tmp") as tmp:
            shutil.copyfile(source, tmp)
    paths.keep(relative)
    return relative


def load_raw(paths: DataPaths, raw_path: str | None, *, big: bool = False) -> bytes | Path | None:
    """The saved bytes; with ``big``, a mail over ``OVERSIZE_BYTES`` as its path (streamed)."""
    if not raw_path:
        return None
    target = paths.stored(raw_path)
    if target is None:
        return None
    try:
        if big and target.stat().st_size > OVERSIZE_BYTES:
            return target
        return target.read_bytes()
    except OSError:
        return None


@dataclass(frozen=True)
class StoredAttachment:
    filename: str
    content_type: str
    size: int
    sha256: str | None
    stored_path: str | None
    skipped_reason: str | None
    is_inline: bool


def store_attachment_files(
    paths: DataPaths, attachments: Iterable[AttachmentLike], max_mb: int
) -> list[StoredAttachment]:
    """Write each attachment under the cap to ``attachments/<sha[:2]>/<sha>/<name>``.

    Done before the database transaction (file first, then the row that points at it). An
    attachment over the cap keeps name, type and size only, so the owner still sees that it
    existed and can open the original in Outlook.
    """
    limit = max(0, int(max_mb)) * 1024 * 1024
    stored: list[StoredAttachment] = []
    for index, item in enumerate(attachments, start=1):
        payload = item.payload or b""
        size = int(item.size or len(payload))
        name = safe_filename(item.filename, f"attachment-{index}")
        content_type = item.content_type or "application/octet-stream"
        spooled = getattr(item, "spooled", None)
        if spooled and size <= limit:
            stored.append(_store_spooled(paths, Path(spooled), name, content_type, item))
            continue
        if size > limit or (size and not payload):  # over the cap, or a part not read
            reason = (
                f"over_size_cap:{size} bytes > {max_mb} MB"
                if size > limit
                else "not_read:in the raw mail on disk"
            )
            stored.append(
                StoredAttachment(
                    filename=name,
                    content_type=content_type,
                    size=size,
                    sha256=sha256_hex(payload) if payload else None,
                    stored_path=None,
                    skipped_reason=reason,
                    is_inline=bool(item.is_inline),
                )
            )
            continue
        digest = sha256_hex(payload)
        relative = (Path(paths.attachments.name) / digest[:2] / digest / name).as_posix()
        _atomic_write(paths.file_for(relative), payload)
        mark_of_the_web(paths.file_for(relative))  # it came from the internet (Windows only)
        paths.keep(relative)
        stored.append(
            StoredAttachment(
                filename=name,
                content_type=content_type,
                size=size,
                sha256=digest,
                stored_path=relative,
                skipped_reason=None,
                is_inline=bool(item.is_inline),
            )
        )
    return stored


def _store_spooled(
    paths: DataPaths, spooled: Path, name: str, content_type: str, item: AttachmentLike
) -> StoredAttachment:
    """A decoded part already on disk: hashed a block at a time and renamed into place."""
    digest = hashlib.sha256()
    with spooled.open("rb") as stream:
        while block := stream.read(1 << 20):
            digest.update(block)
    sha = digest.hexdigest()
    relative = (Path(paths.attachments.name) / sha[:2] / sha / name).as_posix()
    target = paths.file_for(relative)
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        with contextlib.suppress(OSError):
            spooled.unlink()
    else:
        os.replace(spooled, target)
    mark_of_the_web(target)
    paths.keep(relative)
    return StoredAttachment(
        filename=name,
        content_type=content_type,
        size=target.stat().st_size,
        sha256=sha,
        stored_path=relative,
        skipped_reason=None,
        is_inline=bool(item.is_inline),
    )


def discard_spooled(attachments: Iterable[AttachmentLike]) -> None:
    """Delete the spool files of a parse whose message was not stored (known, raced, failed)."""
    for item in attachments:
        spooled = getattr(item, "spooled", None)
        if spooled:
            with contextlib.suppress(OSError):
                os.unlink(spooled)


def sweep_spool(paths: DataPaths, older_than_s: float, now: float) -> None:
    """Spool files a killed run left behind (a live run's are minutes old at most)."""
    with contextlib.suppress(OSError):
        for path in paths.spool.glob("part-*.spool"):
            with contextlib.suppress(OSError):
                if now - path.stat().st_mtime > older_than_s:
                    path.unlink()


def attachment_rows(stored: Iterable[StoredAttachment]) -> list[Attachment]:
    return [
        Attachment(
            filename=s.filename,
            content_type=s.content_type,
            size=s.size,
            sha256=s.sha256,
            stored_path=s.stored_path,
            skipped_reason=s.skipped_reason,
            is_inline=s.is_inline,
        )
        for s in stored
    ]


def find_known(session: Session, message_id: str, source_id: str | None) -> Message | None:
    """The stored message with this identity (Message-ID or id at its source), if any."""
    condition = Message.message_id == message_id
    if source_id:
        condition = or_(condition, Message.source_id == source_id)
    return session.scalars(select(Message).where(condition).limit(1)).first()


def known_pk(session: Session, message_id: str, source_id: str | None) -> tuple[int, bool] | None:
    """(pk, source id needs relinking) of a stored message with this identity, if any."""
    msg = find_known(session, message_id, source_id)
    if msg is None:
        return None
    return msg.id, bool(source_id and msg.source_id != source_id)


def known_many(
    session: Session, pairs: list[tuple[str, str | None]]
) -> list[tuple[int, bool] | None]:
    """``known_pk`` for several identities: one ``IN`` query when (as usual) none is known, the
    exact per-message lookup only for those that matched."""
    mids = [m for m, _ in pairs]
    gids = [g for _, g in pairs if g]
    condition: ColumnElement[bool] = Message.message_id.in_(mids)
    if gids:
        condition = or_(condition, Message.source_id.in_(gids))
    hits = session.execute(select(Message.message_id, Message.source_id).where(condition)).all()
    if not hits:
        return [None] * len(pairs)
    hit_ids = {m for m, _ in hits}
    hit_graph = {g for _, g in hits if g}
    return [
        known_pk(session, m, g) if m in hit_ids or (g and g in hit_graph) else None
        for m, g in pairs
    ]


def relink_source_id(
    session: Session, message_id: str, source_id: str, source: str | None = None
) -> None:
    """The same Message-ID listed under a new source id: the stored row takes the new id.

    Outlook can re-issue immutable ids when mail moves, and an IMAP server renumbers every UID
    when its UIDVALIDITY changes: keep the newest, dedup on the Message-ID. Nothing changes when another row already holds ``source_id`` (the
    unique constraint), or when no row has ``message_id``. Mail sync (ids seen in a delta) and
    admission (a message arriving again) both relink through here.

    ``source`` (the source the new id belongs to) moves with the id, so the row's (source,
    source id) stays one pair: a mail saved as ``.eml`` and then seen by Graph was left saying
    ``eml`` beside a Graph id. None (an older caller) leaves ``source`` as it was.
    """
    if session.scalar(select(Message.id).where(Message.source_id == source_id)) is not None:
        return
    row = session.scalar(select(Message).where(Message.message_id == message_id))
    if row is not None and row.source_id != source_id:
        row.source_id = source_id
        if source is not None:
            row.source = source


__all__ = [
    "StoredAttachment",
    "attachment_rows",
    "discard_spooled",
    "find_known",
    "identity_of",
    "known_many",
    "known_pk",
    "load_raw",
    "message_identity",
    "normalise_many",
    "normalise_message_id",
    "relink_source_id",
    "save_raw",
    "save_raw_file",
    "store_attachment_files",
    "sweep_spool",
    "synthetic_message_id",
]
