"""Voice notes: a dictated note is a customer_note Memory with its recording and transcript."""

from __future__ import annotations

from datetime import datetime

import pytest

from core.db.models import AuditEntry, Inquiry, Memory
from core.events import InquiryUpdated, NoteAdded
from core.inquiry.notes import (
    NoteError,
    add_customer_note,
    add_voice_note,
    notes_for,
    resolve_audio_path,
)
from core.services import Services
from core.voice.audio import write_wav


def _inquiry(services: Services) -> int:
    now = datetime(2026, 4, 1)

    def _add(session) -> int:  # type: ignore[no-untyped-def]
        inquiry = Inquiry(
            stage_changed_at=now, created_at=now, updated_at=now, customer_name="Jane"
        )
        session.add(inquiry)
        session.flush()
        return inquiry.id

    return services.store.write(_add)


def test_voice_note_keeps_recording_and_transcript(services: Services) -> None:
    inquiry_id = _inquiry(services)
    audio = write_wav(services.paths.audio / "note-1.wav", b"\x00\x01" * 16000)

    note_id = add_voice_note(services, inquiry_id, "  客户想要双层玻璃  ", audio)

    with services.store.session() as session:
        note = session.get(Memory, note_id)
        inquiry = session.get(Inquiry, inquiry_id)
        assert note is not None and inquiry is not None
        assert (note.kind, note.source, note.status, note.text) == (
            "customer_note",
            "voice",
            "active",
            "客户想要双层玻璃",
        )
        assert note.audio_path == "audio/note-1.wav"  # relative: the data folder can move
        assert resolve_audio_path(services.home, note.audio_path) == audio
        assert note.created_at == services.clock.now().replace(tzinfo=None)
        assert inquiry.context_data["notes"][-1]["text"] == "客户想要双层玻璃"
    with services.store.session() as session:
        audit = session.query(AuditEntry).filter_by(entity="note", entity_id=note_id).one()
        assert (audit.action, audit.actor) == ("add_note", "owner")
        assert audit.detail["audio_path"] == "audio/note-1.wav"
    assert InquiryUpdated(inquiry_id, ("notes",)) in services.bus.events  # type: ignore[attr-defined]
    assert NoteAdded(note_id=note_id, inquiry_id=inquiry_id) in services.bus.events  # type: ignore[attr-defined]
    assert [n.id for n in notes_for(services, inquiry_id)] == [note_id]


def test_typed_note_has_no_audio(services: Services) -> None:
    inquiry_id = _inquiry(services)
    note_id = add_customer_note(services, inquiry_id, "Measure on Friday")
    assert notes_for(services, inquiry_id)[0].audio_path is None
    assert notes_for(services, inquiry_id)[0].id == note_id


def test_bad_notes_are_refused_and_nothing_is_stored(services: Services) -> None:
    inquiry_id = _inquiry(services)
    with pytest.raises(NoteError, match="笔记内容为空"):
        add_customer_note(services, inquiry_id, "   ")
    with pytest.raises(NoteError, match="不存在"):
        add_customer_note(services, 999, "hello")
    with pytest.raises(NoteError, match="录音文件不存在"):
        add_voice_note(services, inquiry_id, "hi", services.paths.audio / "missing.wav")
    assert notes_for(services, inquiry_id) == []
    assert not [e for e in services.bus.events if isinstance(e, NoteAdded)]  # type: ignore[attr-defined]
