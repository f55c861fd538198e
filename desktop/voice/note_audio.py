"""Voice notes: the recordings behind dictated text, kept or deleted (a mixin of the button).

With ``keep_audio=True`` (beside a note box) each recording whose text was inserted is kept, and
the note box's save handler takes them, joined into one WAV, with ``take_note_audio()`` to store
with ``core.inquiry.notes.add_voice_note``. Without it a recording is deleted once it is used.
"""

from __future__ import annotations

from pathlib import Path

from core.app.types import VoiceService


class NoteAudio:
    """The recordings kept for a voice note, and deleting the ones not kept."""

    keep_audio: bool
    voice: VoiceService
    _kept: list[Path]

    def take_note_audio(self) -> Path | None:
        """For voice notes (``keep_audio=True``): the recording(s) behind what was dictated into
        the box since the last call, joined into one WAV; None when nothing was dictated.

        The note box's save handler calls this and stores the path with the note
        (``core.inquiry.notes.add_voice_note``)."""
        kept = [p for p in self._kept if p.is_file()]
        self._kept = []
        if not kept:
            return None
        if len(kept) == 1:
            return kept[0]
        joined = self.voice.concat_wavs(kept, kept[0].with_name(kept[0].stem + "-note.wav"))
        for path in kept:
            path.unlink(missing_ok=True)
        return joined

    def _discard_audio(self, path: Path | None) -> None:
        if path is not None and not self.keep_audio:
            path.unlink(missing_ok=True)
