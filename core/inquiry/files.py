"""One stored attachment as the front ends need it to show it: its name, where it is on this
computer and how big it is — no ORM row leaves here.

Why a separate answer and not ``AttachmentInfo`` from the detail view: the assistant finds files
by id ("Steward 的平面图在哪"), and the chat panel (open it) and the Telegram bot (send it as a
document) only need to know whether the file is really on disk, and where.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.orm import Session

from core.db.models import Attachment
from core.paths import DataPaths


@dataclass(frozen=True)
class AttachmentFile:
    """A file kept on this computer: ``path`` is absolute and existed when it was looked up."""

    id: int
    filename: str
    path: Path
    size: int  # bytes on disk
    content_type: str


def load_attachment_file(
    session: Session, paths: DataPaths, attachment_id: int
) -> AttachmentFile | None:
    """The stored file of an attachment; None when there is no such attachment, it was never
    stored (over the download cap) or the file has gone from disk."""
    row = session.get(Attachment, attachment_id)
    if row is None:
        return None
    path = paths.stored(row.stored_path)
    if path is None or not path.is_file():
        return None
    return AttachmentFile(
        id=row.id,
        filename=row.filename,
        path=path.resolve(),
        size=path.stat().st_size,
        content_type=row.content_type or "application/octet-stream",
    )
