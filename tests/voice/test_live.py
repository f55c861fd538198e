"""Live dictation: pieces are transcribed at pauses while he speaks; release leaves only the last."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.voice.audio import CHUNK_BYTES, read_pcm16k
from core.voice.live import LiveDictation
from core.voice.transcriber import ChineseNeedsMultilingualModel, Transcriber
from tests.voice.speech import SENTENCES, word_error_rate

pytestmark = pytest.mark.slow


def _speak(live: LiveDictation, whisper: Transcriber, pcm: bytes) -> None:
    """Feed 100 ms chunks; after each, let the worker catch up (as it does in real time)."""
    for offset in range(0, len(pcm), CHUNK_BYTES):
        live.feed(pcm[offset : offset + CHUNK_BYTES])
        whisper.run(lambda: None).result(timeout=60)


def test_text_grows_while_he_speaks_and_only_the_last_piece_waits_for_release(
    whisper: Transcriber, sentences_wav: Path
) -> None:
    partials: list[str] = []
    live = LiveDictation(whisper, language="auto", on_partial=partials.append)
    _speak(live, whisper, read_pcm16k(sentences_wav))
    before_release = live.pieces
    assert before_release >= 2  # the first sentences were done before he let go
    assert partials[0].startswith("Please send the customer")
    assert partials == sorted(partials, key=len)  # the preview only grows

    result = live.finish().result(timeout=60)
    assert word_error_rate(" ".join(SENTENCES), result.text) <= 0.15, result.text
    assert result.text.startswith(partials[-1])
    assert live.pieces - before_release <= 1  # one short piece after release, at most
    assert 9.0 < result.duration_s < 12.0 and not result.uncertain
    assert result.segments[-1].end <= result.duration_s + 0.5


def test_mandarin_to_the_english_only_model_is_refused_and_never_previewed(
    whisper: Transcriber, mandarin_wav: Path
) -> None:
    partials: list[str] = []
    live = LiveDictation(whisper, language="auto", on_partial=partials.append)
    _speak(live, whisper, read_pcm16k(mandarin_wav))
    with pytest.raises(ChineseNeedsMultilingualModel):
        live.finish().result(timeout=60)
    assert partials == []


def test_cancel_throws_the_dictation_away(whisper: Transcriber, short_wav: Path) -> None:
    from core.voice.transcriber import TranscriptionCancelled

    live = LiveDictation(whisper, language="en")
    live.feed(read_pcm16k(short_wav))
    live.cancel()
    live.feed(b"\x00\x00" * 1600)  # a late chunk after cancel is ignored
    with pytest.raises(TranscriptionCancelled):
        live.finish().result(timeout=60)


def test_when_he_pauses_before_letting_go_release_needs_no_more_recognition(
    whisper: Transcriber, sentences_wav: Path
) -> None:
    live = LiveDictation(whisper, language="en")
    _speak(live, whisper, read_pcm16k(sentences_wav) + b"\x00\x00" * 16_000)  # 1 s of quiet
    done_before_release = live.pieces
    result = live.finish().result(timeout=60)
    assert live.pieces == done_before_release  # everything was recognised while he held it
    assert word_error_rate(" ".join(SENTENCES), result.text) <= 0.15, result.text
