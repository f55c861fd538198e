"""Notes moved to ``core.inquiry.notes``; this path stays for core/notify/bot.py."""

from __future__ import annotations

from core.inquiry.notes import (
    NOTE_SOURCES,
    NoteError,
    add_customer_note,
    add_customer_note_async,
    add_voice_note,
    notes_for,
    resolve_audio_path,
    stored_audio_path,
)

__all__ = [
    "NOTE_SOURCES",
    "NoteError",
    "add_customer_note",
    "add_customer_note_async",
    "add_voice_note",
    "notes_for",
    "resolve_audio_path",
    "stored_audio_path",
]
