"""Transcribe a dictation while the owner is still talking, so the text is there when he lets go.

Transcribing a 10 s recording after release made him wait ~1.2 s. Instead, ``LiveDictation`` is
fed the microphone's PCM as it arrives; every half second (of audio) the worker thread looks at
what has not been transcribed yet with the Silero VAD that faster-whisper ships, and when it finds
a pause after at least a second of speech it transcribes up to the middle of that pause. After
release only the piece since the last pause remains (typically 1–3 s; tiny.en spends ~0.5 s of
CPU on its 30 s encoder window whatever the length). When he stops talking before letting go
(~0.3 s of silence is enough), that last piece is done before release too, and release costs
one VAD pass.

- ``on_partial(text)`` is called (from the worker thread) with everything recognised so far, for
  the "you said…" preview while he talks.
- Pieces use one language: in ``auto`` mode a multilingual model detects it on the first piece
  and keeps it (a tiny model otherwise flips between zh and en mid-sentence); each piece gets the
  text before it as Whisper's prompt so sentences continue naturally.
- The whole dictation is judged once at the end (``Transcriber.judge``): Chinese heard by an
  English-only model raises ``ChineseNeedsMultilingualModel`` and partial previews of such pieces
  are never shown; low confidence comes back as ``uncertain``.
- All Whisper/VAD work runs on the transcriber's single worker thread (``Transcriber.run``), so
  live pieces, file transcriptions and Telegram voice notes never compete for the two cores.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from core.voice import confidence
from core.voice.audio import SAMPLE_RATE
from core.voice.chinese import join_pieces
from core.voice.transcriber import (
    ChineseNeedsMultilingualModel,
    Segment,
    Transcriber,
    Transcript,
    TranscriptionCancelled,
)

if TYPE_CHECKING:
    import numpy as np

log = logging.getLogger(__name__)

PartialFn = Callable[[str], None]
SCAN_EVERY_S = 0.5  # look for a pause after this much new audio
PAUSE_S = 0.3  # a silence at least this long separates pieces
MIN_PIECE_S = 1.0  # never transcribe a piece shorter than this before release
MAX_PIECE_S = 20.0  # Whisper's window is 30 s: cut a long breathless stretch anyway
LEAD_SILENCE = SAMPLE_RATE // 2  # samples of silence put before each piece


class LiveDictation:
    """One dictation: ``feed`` PCM while recording, ``finish`` at release (see module doc)."""

    def __init__(
        self,
        transcriber: Transcriber,
        *,
        language: str | None = None,
        on_partial: PartialFn | None = None,
        scan_every_s: float = SCAN_EVERY_S,
    ) -> None:
        self.transcriber = transcriber
        self.wanted = transcriber.wanted_language(language)
        self.on_partial = on_partial
        self.cancel_event = threading.Event()
        self._scan_every = int(scan_every_s * SAMPLE_RATE)
        self._lock = threading.Lock()
        self._pcm = bytearray()
        self._done = 0  # samples already transcribed (the start of the next piece)
        self._last_scan = 0
        self._scan_queued = False
        self._closed = False
        self._pieces: list[tuple[float, Transcript]] = []  # (offset_s, piece)
        self._language: str | None = None
        self._foreign = False
        self._error: BaseException | None = None

    # -- UI thread -----------------------------------------------------------------------------
    def feed(self, pcm: bytes) -> None:
        """Append 16 kHz mono s16le PCM; cheap, never blocks on Whisper."""
        with self._lock:
            if self._closed:
                return
            self._pcm += pcm
            samples = len(self._pcm) // 2
            if self._scan_queued or samples - self._last_scan < self._scan_every:
                return
            self._scan_queued = True
            self._last_scan = samples
        self.transcriber.run(self._scan)

    def finish(self) -> Future[Transcript]:
        """Release: transcribe what is left and return the whole dictation's transcript."""
        with self._lock:
            self._closed = True
            released = time.perf_counter()
        return self.transcriber.run(self._final, released)

    def cancel(self) -> None:
        with self._lock:
            self._closed = True
        self.cancel_event.set()

    @property
    def text(self) -> str:
        return self._join([p for _, p in self._pieces])

    @property
    def pieces(self) -> int:
        return len(self._pieces)

    # -- worker thread -------------------------------------------------------------------------
    def _audio(self, start: int) -> np.ndarray:
        import numpy as np

        with self._lock:
            raw = bytes(self._pcm[start * 2 : len(self._pcm) - len(self._pcm) % 2])
        return np.frombuffer(raw, dtype="<i2").astype(np.float32) / 32768.0

    def _scan(self) -> None:
        with self._lock:
            self._scan_queued = False
            if self._closed:
                return
        if self._error is not None or self.cancel_event.is_set() or self._foreign:
            return  # once the speech is known to be Chinese the English model's guesses are noise
        try:
            audio = self._audio(self._done)
            cut = find_cut(audio)
            if cut is not None:
                self._transcribe_piece(audio[:cut])
                self._done += cut
        except BaseException as exc:  # kept for finish(): the owner sees it at release
            self._error = exc

    def _transcribe_piece(self, samples: np.ndarray) -> None:
        import numpy as np

        previous = self.text
        # half a second of silence before the piece: Whisper misheard a piece that starts right
        # at a word ("Call the builder" → "Call the meal"); with it, the live WER on the benchmark
        # clip matches the whole-clip WER (0 %).
        padded = np.concatenate([np.zeros(LEAD_SILENCE, dtype=np.float32), samples])
        piece = self.transcriber.transcribe_samples(
            padded,
            language=self._language or self.wanted,
            cancel=self.cancel_event,
            prompt=previous,
            judge=False,
        )
        if self._language is None and piece.text.strip():
            self._language = piece.language
        self._pieces.append(((self._done - LEAD_SILENCE) / SAMPLE_RATE, piece))
        if not self.transcriber.multilingual and self.wanted != "en":
            scores = confidence.score(
                piece.text,
                [(s.end - s.start, s.avg_logprob, s.no_speech_prob) for s in piece.segments],
            )
            self._foreign = self._foreign or confidence.looks_foreign(scores)
        if self.on_partial is not None and not self._foreign and piece.text.strip():
            self.on_partial(self.text)

    def _final(self, released: float) -> Transcript:
        if self.cancel_event.is_set():
            raise TranscriptionCancelled()
        if self._error is not None:
            raise self._error
        if self._foreign:
            raise ChineseNeedsMultilingualModel()
        rest = self._audio(self._done)
        if len(rest) >= SAMPLE_RATE // 10 and _has_speech(rest):
            self._transcribe_piece(rest)  # else he had stopped talking: the text is already done
        if self._foreign:
            raise ChineseNeedsMultilingualModel()
        pieces = [p for _, p in self._pieces]
        segments = tuple(
            Segment(s.start + offset, s.end + offset, s.text, s.avg_logprob, s.no_speech_prob)
            for offset, piece in self._pieces
            for s in piece.segments
        )
        duration = len(self._pcm) / 2 / SAMPLE_RATE
        language = self._language or (pieces[0].language if pieces else "en")
        combined = Transcript(
            text=self._join(pieces),
            language=language,
            duration_s=duration,
            elapsed_s=time.perf_counter() - released,  # release → text: what the owner waits
            segments=segments,
            language_probability=pieces[0].language_probability if pieces else 1.0,
            load_s=sum(p.load_s for p in pieces),
            model=self.transcriber.choice.name,
        )
        if segments:
            total = sum(max(s.end - s.start, 0.01) for s in segments)
            combined = replace(
                combined,
                avg_logprob=sum(max(s.end - s.start, 0.01) * s.avg_logprob for s in segments)
                / total,
                no_speech_prob=sum(max(s.end - s.start, 0.01) * s.no_speech_prob for s in segments)
                / total,
            )
        log.info(
            "live dictation: %.1f s in %d pieces, %.2f s after release",
            duration,
            len(pieces),
            combined.elapsed_s,
        )
        return self.transcriber.judge(combined, self.wanted)

    def _join(self, pieces: list[Transcript]) -> str:
        texts = [p.text for p in pieces if p.text.strip()]
        if (self._language or "") == "zh":
            return join_pieces(texts)
        return " ".join(t.strip() for t in texts)


def _has_speech(audio: np.ndarray) -> bool:
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    options: Any = VadOptions(min_speech_duration_ms=150, speech_pad_ms=0)
    return bool(get_speech_timestamps(audio, options))


def find_cut(audio: np.ndarray, *, pause_s: float = PAUSE_S) -> int | None:
    """Where to end the next piece: the middle of the last pause that follows at least
    ``MIN_PIECE_S`` of audio; None to wait for more. Uses faster-whisper's Silero VAD."""
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    if len(audio) < MIN_PIECE_S * SAMPLE_RATE:
        return None
    options: Any = VadOptions(
        min_silence_duration_ms=int(pause_s * 1000), speech_pad_ms=0, min_speech_duration_ms=150
    )
    speech = get_speech_timestamps(audio, options)
    if not speech:
        # nothing but silence so far: drop it from what is pending once it is long
        return len(audio) - SAMPLE_RATE // 2 if len(audio) > 3 * SAMPLE_RATE else None
    gaps = [(a["end"], b["start"]) for a, b in itertools.pairwise(speech)]
    tail_silence = len(audio) - speech[-1]["end"]
    if tail_silence >= pause_s * SAMPLE_RATE:
        gaps.append((speech[-1]["end"], len(audio)))
    minimum = MIN_PIECE_S * SAMPLE_RATE
    for end, start in reversed(gaps):
        if start - end >= pause_s * SAMPLE_RATE and end >= minimum:
            return int((end + start) // 2) if start < len(audio) else int(end + SAMPLE_RATE * 0.15)
    if len(audio) > MAX_PIECE_S * SAMPLE_RATE:
        widest = max(gaps, key=lambda g: g[1] - g[0], default=None)
        return int((widest[0] + widest[1]) // 2) if widest else int(MAX_PIECE_S * SAMPLE_RATE)
    return None
