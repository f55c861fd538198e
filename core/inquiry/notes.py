"""Customer notes, typed or dictated: a ``Memory`` row of kind ``customer_note``.

A dictated note keeps its recording (``audio_path``) beside the transcript the owner saved, so
a misheard word can be checked against what he actually said. The transcript is whatever he saved
after editing, never the raw model output acted on by itself. Audio paths are stored relative to
the data folder when the file lives inside it, so moving the whole folder keeps notes playable.

The inquiry's ``context_data["notes"]`` gets a short copy so the one-read customer context (used
by drafting and the assistant) sees the note; the Memory row stays the source of truth.
``NoteAdded`` is published after the commit.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict, Unpack

from sqlalchemy.orm import Session

from core.clock import naive_utc
from core.db.models import AuditEntry, Inquiry, Memory
from core.errors import InquiryBridgeError
from core.events import InquiryUpdated, NoteAdded
from core.memory.expiry import event_date, expires_at_for, today_in_sydney

if TYPE_CHECKING:
    from core.services import Services

NOTE_SOURCES = (
    "desktop",
    "voice",
    "telegram",
    "agent",
    "cli",
    "forwarded",
)  # forwarded: a stranger's


class NoteError(InquiryBridgeError):
    """A note that cannot be stored (empty text, unknown inquiry, missing recording)."""


def stored_audio_path(home: Path, audio_path: Path) -> str:
    """Relative to the data folder when inside it (portable), else absolute."""
    audio_path = Path(audio_path).resolve()
    try:
        return audio_path.relative_to(Path(home).resolve()).as_posix()
    except ValueError:
        return str(audio_path)


def resolve_audio_path(home: Path, stored: str | None) -> Path | None:
    """The file a note's ``audio_path`` points at (None when the note has no recording)."""
    if not stored:
        return None
    path = Path(stored)
    return path if path.is_absolute() else Path(home) / path


class NoteOrigin(TypedDict, total=False):
    """Where a note came from: ``source`` (one of ``NOTE_SOURCES``; desktop when not said), its
    recording, and who wrote it (the owner when not said)."""

    source: str
    audio_path: Path | None
    actor: str


def add_customer_note(
    services: Services, inquiry_id: int | None, text: str, **origin: Unpack[NoteOrigin]
) -> int:
    """Store a note (optionally with its recording); returns the Memory id.

    Audited like ``InquiryEditor.add_note`` (an ``add_note`` audit entry by ``actor``); publishes
    ``NoteAdded`` and, for a note on an inquiry, ``InquiryUpdated(fields=("notes",))``.
    """
    write = _note_writer(services, inquiry_id, text, **origin)
    note_id: int = services.store.write(write)
    _publish_note(services, note_id, inquiry_id)
    return note_id


async def add_customer_note_async(
    services: Services, inquiry_id: int | None, text: str, **origin: Unpack[NoteOrigin]
) -> int:
    """``add_customer_note`` on the store's writer thread, awaited from the event loop."""
    write = _note_writer(services, inquiry_id, text, **origin)
    note_id: int = await services.store.run(write)
    _publish_note(services, note_id, inquiry_id)
    return note_id


def _publish_note(services: Services, note_id: int, inquiry_id: int | None) -> None:
    services.bus.publish(NoteAdded(note_id=note_id, inquiry_id=inquiry_id))
    if inquiry_id is not None:
        services.bus.publish(InquiryUpdated(inquiry_id, ("notes",)))


def _note_writer(
    services: Services,
    inquiry_id: int | None,
    text: str,
    *,
    source: str = "desktop",
    audio_path: Path | None = None,
    actor: str = "owner",
) -> Callable[[Session], int]:
    """Check the note, then the one transaction both twins run."""
    text = text.strip()
    if not text:
        raise NoteError("笔记内容为空 / the note is empty")
    if source not in NOTE_SOURCES:
        raise NoteError(f"unknown note source {source!r}")
    stored_audio = None
    if audio_path is not None:
        if not Path(audio_path).is_file():
            raise NoteError(f"录音文件不存在：{audio_path} / recording not found: {audio_path}")
        stored_audio = stored_audio_path(services.paths.home, Path(audio_path))
    now = naive_utc(services.clock.now())
    # "下周二上门": a note about a day is over after it (core.memory.expiry, Sydney time)
    expires_at = expires_at_for(event_date(text, today_in_sydney(services.clock.now())))

    def _write(session: Session) -> int:
        inquiry = None
        if inquiry_id is not None:
            inquiry = session.get(Inquiry, inquiry_id)
            if inquiry is None:
                raise NoteError(f"询盘 {inquiry_id} 不存在 / inquiry {inquiry_id} does not exist")
        note = Memory(
            kind="customer_note",
            inquiry_id=inquiry_id,
            text=text,
            source=source,
            audio_path=stored_audio,
            # the assistant's own note is not the owner's word until he confirms it
            confidence="medium" if actor == "agent" else "high",
            status="active",
            expires_at=expires_at,
            created_at=now,
            updated_at=now,
        )
        session.add(note)
        session.flush()
        if inquiry is not None:
            context = dict(inquiry.context_data or {})
            notes = list(context.get("notes") or [])
            notes.append(
                {"id": note.id, "text": text, "at": now.isoformat() + "Z", "source": source}
            )
            context["notes"] = notes
            inquiry.context_data = context  # reassign: JSON columns do not track in-place edits
            inquiry.updated_at = now
        session.add(
            AuditEntry(
                entity="note",
                entity_id=note.id,
                action="add_note",
                detail={"inquiry_id": inquiry_id, "text": text, "audio_path": stored_audio},
                actor=actor,
                at=now,
            )
        )
        return note.id

    return _write


def add_voice_note(
    services: Services,
    inquiry_id: int | None,
    transcript: str,
    audio_path: Path,
    *,
    actor: str = "owner",
) -> int:
    """A dictated note: the (edited) transcript plus the recording it came from."""
    return add_customer_note(
        services, inquiry_id, transcript, source="voice", audio_path=audio_path, actor=actor
    )


def notes_for(services: Services, inquiry_id: int) -> list[Memory]:
    """Active customer notes of an inquiry, oldest first."""
    with services.store.session() as session:
        rows = (
            session.query(Memory)
            .filter(
                Memory.inquiry_id == inquiry_id,
                Memory.kind == "customer_note",
                Memory.status == "active",
            )
            .order_by(Memory.created_at, Memory.id)
            .all()
        )
        session.expunge_all()
        return rows
