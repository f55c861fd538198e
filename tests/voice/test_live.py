"""Live dictation: pieces are transcribed at pauses while he speaks; release leaves only the last."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from core.voice.audio import CHUNK_BYTES, SAMPLE_RATE, read_pcm16k
from core.voice.live import LiveDictation
from core.voice.transcriber import ChineseNeedsMultilingualModel, Transcriber
from tests.voice.speech import SENTENCES, espeak, word_error_rate

pytestmark = pytest.mark.slow


def _speak(live: LiveDictation, whisper: Transcriber, pcm: bytes) -> None:
    """Feed 100 ms chunks; after each, let the worker catch up (as it does in real time)."""
    for offset in range(0, len(pcm), CHUNK_BYTES):
        live.feed(pcm[offset : offset + CHUNK_BYTES])
        whisper.run(lambda: None).result(timeout=60)


def _quiet(seconds: float) -> bytes:
    return b"\x00\x00" * int(seconds * SAMPLE_RATE)


def _trimmed(pcm: bytes) -> bytes:
    """espeak's speech without the silence it ends with: as if he stops on the last word."""
    samples = np.frombuffer(pcm, dtype="<i2")
    loud = np.nonzero(np.abs(samples.astype(np.int32)) > 300)[0]
    return samples[: int(loud[-1]) + 1].tobytes()


def _recognitions(whisper: Transcriber, monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Each Whisper call a dictation makes from now on (its audio length in seconds)."""
    calls: list[float] = []
    real = whisper.transcribe_samples

    def counted(samples: np.ndarray, **kwargs: object) -> object:
        calls.append(len(samples) / SAMPLE_RATE)
        return real(samples, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(whisper, "transcribe_samples", counted)
    return calls


def test_text_grows_while_he_speaks_and_only_the_last_piece_waits_for_release(
    whisper: Transcriber, sentences_wav: Path
) -> None:
    partials: list[str] = []
    live = LiveDictation(whisper, language="auto", on_partial=partials.append)
    _speak(live, whisper, read_pcm16k(sentences_wav))
    before_release = live.pieces
    assert before_release >= 1  # the first sentences were done before he let go
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


def test_letting_go_a_moment_after_the_last_word_finds_the_text_ready(
    whisper: Transcriber, sentences_wav: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """0.3 s after the last word is too soon for a 0.4 s pause to end the piece, so the piece
    was recognised ahead (at 0.1 s) and release has nothing left for Whisper to do."""
    calls = _recognitions(whisper, monkeypatch)
    live = LiveDictation(whisper, language="en")
    _speak(live, whisper, _trimmed(read_pcm16k(sentences_wav)) + _quiet(0.3))
    made_while_talking = len(calls)
    result = live.finish().result(timeout=60)
    assert len(calls) == made_while_talking  # no recognition after release
    assert word_error_rate(" ".join(SENTENCES), result.text) <= 0.15, result.text


def test_a_breath_inside_a_sentence_neither_splits_it_nor_repeats_it(
    whisper: Transcriber, speech_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 0.3 s breath starts a guess (at 0.1 s); he goes on, so the guess is dropped: the
    sentence stays one piece and no word of it appears twice."""
    said = (
        "Please send the customer a quote for the new kitchen window,",
        "and the sliding glass door for the bathroom.",
    )
    first = read_pcm16k(espeak(said[0], speech_dir / "breath-1.wav"))
    second = read_pcm16k(espeak(said[1], speech_dir / "breath-2.wav"))
    calls = _recognitions(whisper, monkeypatch)
    live = LiveDictation(whisper, language="en")
    _speak(live, whisper, _trimmed(first) + _quiet(0.3) + second)
    result = live.finish().result(timeout=60)
    assert live.pieces == 1, result.text  # the breath did not cut the sentence in two
    assert len(calls) == 2  # the guess at the breath, then the whole sentence
    assert word_error_rate(" ".join(said), result.text) <= 0.15, result.text
    assert result.text.lower().count("kitchen") == 1


def test_what_he_said_is_previewed_at_a_short_pause_while_he_still_holds(
    whisper: Transcriber, short_wav: Path
) -> None:
    """Pieces wait for a 0.4 s pause after 3 s; the preview does not: a 0.3 s pause shows it."""
    partials: list[str] = []
    live = LiveDictation(whisper, language="en", on_partial=partials.append)
    _speak(live, whisper, _trimmed(read_pcm16k(short_wav)) + _quiet(0.3))
    assert live.pieces == 0  # no piece is final yet...
    assert partials and partials[-1].startswith("Please send the customer")  # ...but he sees it
    result = live.finish().result(timeout=60)
    assert result.text == partials[-1]


def test_a_long_breathless_stretch_is_cut_between_words_not_at_a_fixed_time() -> None:
    from core.voice.live import MAX_PIECE_S, breath_cut

    rng = np.random.default_rng(7)
    n = int((MAX_PIECE_S + 1) * SAMPLE_RATE)
    audio = (rng.standard_normal(n) * 0.2).astype(np.float32)  # loud all through
    quiet = int(12.3 * SAMPLE_RATE)
    audio[quiet : quiet + 1024] *= 0.01  # one quiet moment between two words
    cut = breath_cut([(0, n)], audio)
    assert quiet <= cut <= quiet + 1024
    # with a gap the VAD heard, the widest one wins
    heard = [(0, 10 * SAMPLE_RATE), (10 * SAMPLE_RATE + 2000, 15 * SAMPLE_RATE)]
    heard.append((15 * SAMPLE_RATE + 4000, n))
    assert 15 * SAMPLE_RATE < breath_cut(heard, audio) < 15 * SAMPLE_RATE + 4000
