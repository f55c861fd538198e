"""Transcribe a dictation while the owner is still talking, so the text is there when he lets go.

Transcribing a 10 s recording after release made him wait ~1.2 s. Instead, ``LiveDictation`` is
fed the microphone's PCM as it arrives; every 0.1 s (of audio) the worker thread looks at what has
not been transcribed yet with the Silero VAD that faster-whisper ships, and at the first pause of
0.4 s after at least 3 s of audio it transcribes that piece (``choose_cut``). tiny.en spends
~0.5 s of CPU on its 30 s encoder window whatever the length, and a longer piece gives it more
context. Over 20 espeak dictations not used to choose these numbers, live WER was 6.6 % against
6.4 % for each clip transcribed whole (7.7 % for the code before); on the 31 used to choose them,
1 s pieces at 0.3 s pauses came out at 14 % against 7.7 % whole.

The release usually comes a few tenths of a second after the last word, too soon for a 0.4 s
pause to be seen and its ~0.5 s of Whisper to finish. So once the silence reaches 0.1 s the audio
since the last piece is recognised ahead of time as a *guess*: the same samples, prompt and
language its cut would give it. If the pause grows into a cut, or he lets go with nothing said
after it, the guess is the piece; if he speaks again first, it is dropped, so pieces still end
only at 0.4 s pauses and a breath never splits a sentence. A dropped guess costs one Whisper call
on the worker (and, if he lets go while it runs, up to ~0.5 s of waiting for it); a guess is made
once per pause.

Pieces go to Whisper without its own VAD filter (``vad=False``): they are cut at pauses already,
and the filter's re-cropping made words at a piece's start depend on its exact first sample.

- ``on_partial(text)`` is called (from the worker thread) with everything recognised so far, for
  the "you said…" preview while he talks: at every pause, guesses included, so a guess that is
  dropped may be revised by the next preview ("…installed next." → "…installed next week.").
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
from dataclasses import dataclass, replace
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
SCAN_EVERY_S = 0.1  # look for a pause after this much new audio (a VAD pass: ~2 ms per s)
PAUSE_S = 0.4  # a silence at least this long separates pieces
GUESS_S = 0.1  # after this much silence the piece so far is recognised ahead of its cut
TAIL_KEEP = 3 * 512  # samples of its closing pause a piece keeps (0.1 s, 3 VAD windows)
BEHIND_S = 3.0  # audio waiting past the first pause: the worker is behind, take it in one piece
MIN_PIECE_S = 3.0  # a piece before release has at least this much audio: context for Whisper
MAX_PIECE_S = 20.0  # a stretch this long without a pause is cut between two words anyway
LEAD_SILENCE = SAMPLE_RATE // 2  # samples of silence put before each piece

Speech = list[tuple[int, int]]  # (start, end) sample offsets of what the VAD heard


@dataclass(frozen=True)
class Guess:
    """A piece recognised at a 0.1 s pause, before it was known to be one (module doc)."""

    start: int  # absolute sample where the piece starts: ``_done`` when it was made
    end: int  # absolute sample where it ends
    piece: Transcript

    def covers(self, done: int, speech: Speech, until: int) -> bool:
        """True when it starts where the next piece does and every word heard before ``until``
        (offsets from ``done``) ends inside it: then it is that piece."""
        return self.start == done and all(
            end <= self.end - done for start, end in speech if start < until
        )


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
        self._guess: Guess | None = None
        self._shown = ""  # the last preview sent to on_partial
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
            speech = speech_in(audio)
            cut = choose_cut(speech, audio)
            if cut is not None:
                self._take(audio, speech, cut)
            elif (end := guess_end(speech, len(audio))) is not None and not self._guessed(end):
                piece = self._recognise(audio[:end])
                self._guess = Guess(self._done, self._done + end, piece)
                if not self._looks_foreign(piece):  # a preview at every pause, not every 3 s
                    self._show([p for _, p in self._pieces] + [piece])
        except BaseException as exc:  # kept for finish(): the owner sees it at release
            self._error = exc

    def _guessed(self, end: int) -> bool:
        guess = self._guess
        return guess is not None and guess.start == self._done and guess.end >= self._done + end

    def _take(self, audio: np.ndarray, speech: Speech, cut: int) -> None:
        """The piece ``audio[:cut]`` is final: use the guess made for it, or recognise it now."""
        guess = self._guess
        if not any(start < cut for start, _ in words(speech)):
            pass  # silence only: nothing to recognise, and ~0.5 s of Whisper saved
        elif guess is not None and guess.covers(self._done, speech, cut):
            self._accept(guess.piece)
        else:
            self._accept(self._recognise(audio[:cut]))
        self._done += cut
        self._guess = None

    def _recognise(self, samples: np.ndarray) -> Transcript:
        import numpy as np

        # half a second of silence before the piece: Whisper misheard a piece that starts right
        # at a word ("Call the builder" → "Call the meal"); a full second did no better on the
        # held-out dictations (8.0 % against 6.6 % WER).
        padded = np.concatenate([np.zeros(LEAD_SILENCE, dtype=np.float32), samples])
        return self.transcriber.transcribe_samples(
            padded,
            language=self._language or self.wanted,
            cancel=self.cancel_event,
            prompt=self.text,
            judge=False,
            vad=False,  # cut at our VAD's pauses already (``Transcriber.transcribe_samples``)
        )

    def _accept(self, piece: Transcript) -> None:
        """Add the next piece (starting at ``_done``) to the dictation and show it."""
        if self._language is None and piece.text.strip():
            self._language = piece.language
        self._pieces.append(((self._done - LEAD_SILENCE) / SAMPLE_RATE, piece))
        self._foreign = self._foreign or self._looks_foreign(piece)
        self._show([p for _, p in self._pieces])

    def _looks_foreign(self, piece: Transcript) -> bool:
        """Chinese (or other) speech heard by an English-only model: its words are noise."""
        if self.transcriber.multilingual or self.wanted == "en":
            return False
        scores = confidence.score(
            piece.text,
            [(s.end - s.start, s.avg_logprob, s.no_speech_prob) for s in piece.segments],
        )
        return confidence.looks_foreign(scores)

    def _show(self, pieces: list[Transcript]) -> None:
        """The "you said…" preview: ``pieces`` joined, once per change, never foreign noise."""
        text = self._join(pieces)
        if self.on_partial is None or self._foreign or not text.strip() or text == self._shown:
            return
        self._shown = text
        self.on_partial(text)

    def _final(self, released: float) -> Transcript:
        if self.cancel_event.is_set():
            raise TranscriptionCancelled()
        if self._error is not None:
            raise self._error
        if self._foreign:
            raise ChineseNeedsMultilingualModel()
        rest = self._audio(self._done)
        speech = speech_in(rest) if len(rest) >= SAMPLE_RATE // 10 else []
        if words(speech):  # else he had stopped talking: the text is already done
            self._take(rest, speech, len(rest))
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


def speech_in(audio: np.ndarray) -> Speech:
    """Where the VAD (faster-whisper's Silero) hears sound, split at pauses of ``GUESS_S``.

    Silero only ends the last stretch of speech once the silence after it is as long as its
    ``min_silence_duration_ms``; below that it runs to the end of the audio. Asking for the
    shortest pause we act on lets a guess start at 0.1 s. Nothing is dropped here for being
    short: so fine a split leaves short words ("week" after "next") standing alone; ``words``
    joins them back."""
    from faster_whisper.vad import VadOptions, get_speech_timestamps

    options: Any = VadOptions(
        min_silence_duration_ms=int(GUESS_S * 1000), speech_pad_ms=0, min_speech_duration_ms=0
    )
    return [(s["start"], s["end"]) for s in get_speech_timestamps(audio, options)]


def words(speech: Speech, pause_s: float = PAUSE_S) -> Speech:
    """What a VAD splitting only at ``pause_s`` pauses would hear: ``speech`` with the shorter
    gaps closed, then stretches under 150 ms (clicks, breaths) left out."""
    out: Speech = []
    for start, end in speech:
        if out and start - out[-1][1] < pause_s * SAMPLE_RATE:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return [(start, end) for start, end in out if end - start >= 0.15 * SAMPLE_RATE]


def choose_cut(speech: Speech, audio: np.ndarray, *, pause_s: float = PAUSE_S) -> int | None:
    """Where to end the next piece of ``audio``: ``TAIL_KEEP`` into the first pause of
    ``pause_s`` that follows at least ``MIN_PIECE_S`` of audio; None to wait for more.

    The cut depends on the audio alone, not on when the worker got round to looking (the first
    pause, and always the same distance into it), so a dictation splits the same way in real
    time as in the tests. tiny.en's words at a piece's start change with its exact first sample
    ("Call the builder" came out "Call the mail" at some starts), so a timing-dependent cut made
    the live transcript vary from run to run."""
    length = len(audio)
    if length < MIN_PIECE_S * SAMPLE_RATE:
        return None
    fine, speech = speech, words(speech, pause_s)
    if not speech:
        # nothing but silence so far: drop it from what is pending, 2.5 s at a time
        return 5 * SAMPLE_RATE // 2 if length > 3 * SAMPLE_RATE else None
    ends = [a[1] for a, b in itertools.pairwise(speech)]  # joined: every gap is a pause
    if length - speech[-1][1] >= pause_s * SAMPLE_RATE:
        ends.append(speech[-1][1])
    ends = [end for end in ends if end >= MIN_PIECE_S * SAMPLE_RATE]
    if ends:
        behind = length - ends[0] > BEHIND_S * SAMPLE_RATE
        return (ends[-1] if behind else ends[0]) + TAIL_KEEP
    if length > MAX_PIECE_S * SAMPLE_RATE:
        return breath_cut(fine, audio)
    return None


def breath_cut(fine: Speech, audio: np.ndarray) -> int:
    """He has talked for ``MAX_PIECE_S`` without a pause: cut between two words anyway, to stay
    inside Whisper's 30 s window. The widest gap of the fine split after ``MIN_PIECE_S``, else
    (no gap of 0.1 s at all, as in espeak's unpunctuated speech) the quietest VAD window there:
    on 18 s of such speech a cut at a fixed time, mid-word, gave 25 % WER, one in the quietest
    window 12 %. Only gaps wholly inside the first ``MAX_PIECE_S`` count, so the cut does not
    depend on how much audio the worker had when it looked."""
    import numpy as np

    start, limit = int(MIN_PIECE_S * SAMPLE_RATE), int(MAX_PIECE_S * SAMPLE_RATE)
    gaps = [(a[1], b[0]) for a, b in itertools.pairwise(fine) if a[1] >= start and b[0] <= limit]
    if gaps:
        end, resumed = max(gaps, key=lambda g: (g[1] - g[0], g[0]))
        return end + min(TAIL_KEEP, (resumed - end) // 2)
    quiet = audio[start : start + (limit - start) // 512 * 512]
    windows = quiet.reshape(-1, 512)
    quietest = int(np.argmin(np.square(windows).mean(axis=1)))
    return start + quietest * 512 + 256


def guess_end(speech: Speech, length: int) -> int | None:
    """Where a guess would end (where the cut of a pause still going will be), once the silence
    after the last word reaches ``GUESS_S``; None when it is too early. Unlike a cut it needs no
    ``MIN_PIECE_S`` of speech: "Yes, send it." is ready at release too."""
    if not words(speech):
        return None
    if length - speech[-1][1] < max(GUESS_S * SAMPLE_RATE, TAIL_KEEP):
        return None
    return speech[-1][1] + TAIL_KEEP
