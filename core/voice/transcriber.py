"""Local transcription with faster-whisper: loaded once, kept warm, run off the UI thread.

Why it looks like this:
- Loading a Whisper model costs 0.3–2 s and ~200 MB; dictation must feel instant, so a
  ``Transcriber`` loads lazily on first use and keeps the model for the life of the process
  (``shared_transcriber`` returns the same warm instance for the same model/device/compute type).
- Whisper is CPU work: every transcription runs on one dedicated worker thread (``submit``), so
  the Qt UI thread never waits and two dictations never fight for the two cores.
- The owner dictates Mandarin or English. For Mandarin we give Whisper a Simplified-Chinese initial
  prompt and convert any Traditional characters it still writes with OpenCC (``t2s``). In ``auto``
  mode a multilingual model decides between zh and en only (a tiny model otherwise sometimes hears
  Cantonese, Japanese or Welsh in a noisy office).
- Errors the owner can fix (missing/broken model folder, unreadable audio, an English-only model
  asked for Chinese) raise ``TranscriptionError`` with a Chinese sentence; nothing here crashes.
- Never gibberish: an English-only model given Chinese speech writes confident English noise. In
  ``auto`` (and ``zh``) mode such output is refused with ``ChineseNeedsMultilingualModel`` (the
  desktop offers the download), judged by ``core.voice.confidence``; a low-confidence transcript
  comes back with ``uncertain=True`` so the caller asks before using it.
- Chinese output is Simplified with full-width punctuation (``core.voice.chinese``).

Progress is reported after each segment (fraction of the audio done, text so far); ``cancel`` is a
``threading.Event`` checked between segments, which raises ``TranscriptionCancelled``.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypedDict, TypeVar, Unpack

from core import tasks
from core.errors import TranscriptionError
from core.text.reading import to_simplified
from core.voice import confidence
from core.voice.audio import SAMPLE_RATE, load_audio
from core.voice.chinese import to_chinese_punctuation
from core.voice.models import LANGUAGES as LANGUAGES
from core.voice.models import ModelChoice, VoiceSettings, resolve_model_dir

if TYPE_CHECKING:  # numpy loads with the model, not with the app (~0.15 s of start-up)
    import numpy as np

log = logging.getLogger(__name__)

ProgressFn = Callable[[float, str], None]
T = TypeVar("T")
P = ParamSpec("P")

# Whisper conditions on the prompt's script and style: Simplified characters with full-width
# punctuation, plus the trade's words so "推拉门" is not heard as something else.
ZH_INITIAL_PROMPT = "以下是普通话的句子，内容关于铝合金门窗的询价、测量、报价和安装。"
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


class TranscriptionCancelled(TranscriptionError):
    """The caller set the cancel event; no transcript is produced."""

    def __init__(self, detail: str = "已取消") -> None:
        super().__init__(detail)


class ChineseNeedsMultilingualModel(TranscriptionError):
    """Chinese (or Chinese-sounding) speech reached an English-only model: no transcript, and the
    desktop offers to download a multilingual model."""

    def __init__(self, detail: str = "") -> None:
        super().__init__(
            detail
            or "当前语音模型（英文专用）听不懂中文，没有生成文字。请在“设置 → 语音”中下载多语言模型"
            "（faster-whisper-small，约 486 MB），或把识别语言改为“英文”"
        )


@dataclass(frozen=True)
class Segment:
    start: float
    end: float
    text: str
    avg_logprob: float = 0.0
    no_speech_prob: float = 0.0


@dataclass(frozen=True)
class Transcript:
    text: str
    language: str  # "zh" | "en" | other Whisper code
    duration_s: float  # length of the audio
    elapsed_s: float  # wall time of this transcription (decode + recognise), model load excluded
    segments: tuple[Segment, ...] = ()
    language_probability: float = 1.0
    load_s: float = 0.0  # model load time paid by this call (0.0 when the model was warm)
    model: str = ""
    avg_logprob: float = 0.0  # Whisper's mean token log-probability (duration-weighted)
    no_speech_prob: float = 0.0
    uncertain: bool = False  # low confidence: show it for confirmation, do not insert silently

    @property
    def real_time_factor(self) -> float:
        return self.elapsed_s / self.duration_s if self.duration_s > 0 else 0.0


class FileOptions(TypedDict, total=False):
    """``transcribe_file``'s options, named once for every transcriber that forwards them
    (``submit`` here, ``core.voice.worker.RemoteTranscriber`` in the child process)."""

    language: str | None
    progress: ProgressFn | None
    cancel: threading.Event | None


class Transcriber:
    """One Whisper model, loaded lazily and kept warm. Thread-safe; one transcription at a time."""

    def __init__(self, settings: VoiceSettings, *, choice: ModelChoice | None = None) -> None:
        self._settings = settings
        self._choice = choice
        self._device = settings.text("voice.device") or "cpu"
        self._compute_type = settings.text("voice.compute_type") or "int8"
        self._model: Any = None
        self._load_lock = threading.Lock()
        self._run_lock = threading.Lock()
        self._executor: tasks.Lane | None = None
        self.load_seconds: float | None = None

    # -- model ---------------------------------------------------------------------------------
    @property
    def choice(self) -> ModelChoice:
        if self._choice is None:
            self._choice = resolve_model_dir(self._settings)
        return self._choice

    @property
    def loaded(self) -> bool:
        return self._model is not None

    @property
    def multilingual(self) -> bool:
        if self._model is not None:
            return bool(self._model.model.is_multilingual)
        return bool(self.choice.multilingual)

    def load(self) -> float:
        """Load the model if needed; returns the seconds this call spent loading (0.0 if warm)."""
        if self._model is not None:
            return 0.0
        with self._load_lock:
            if self._model is not None:
                return 0.0
            choice = self.choice
            started = time.perf_counter()
            try:
                from faster_whisper import WhisperModel

                model = WhisperModel(
                    str(choice.path),
                    device=self._device,
                    compute_type=self._compute_type,
                    local_files_only=True,
                )
            except Exception as exc:  # CTranslate2 raises RuntimeError/ValueError for bad files
                hint = "（请检查设置中的设备，没有显卡时请用 cpu）" if self._device != "cpu" else ""
                raise TranscriptionError(
                    f"语音模型无法加载，文件可能已损坏或格式不对：{choice.path}{hint}：{exc}"
                ) from exc
            self.load_seconds = time.perf_counter() - started
            self._model = model
            log.info("whisper model loaded from %s in %.2f s", choice.path, self.load_seconds)
            return self.load_seconds

    # -- transcription -------------------------------------------------------------------------
    def transcribe_file(
        self,
        path: str | Path,
        *,
        language: str | None = None,
        progress: ProgressFn | None = None,
        cancel: threading.Event | None = None,
    ) -> Transcript:
        """Transcribe an audio file. Blocking: call from a worker thread (see ``submit``)."""
        _check_cancel(cancel)
        samples = load_audio(path)
        return self.transcribe_samples(samples, language=language, progress=progress, cancel=cancel)

    def transcribe_samples(
        self,
        samples: np.ndarray,
        *,
        language: str | None = None,
        progress: ProgressFn | None = None,
        cancel: threading.Event | None = None,
        prompt: str = "",
        judge: bool = True,
        vad: bool = True,
    ) -> Transcript:
        """Transcribe 16 kHz mono float32 samples. Blocking.

        ``prompt``: text said just before (live dictation passes the previous pieces), so Whisper
        continues the sentence. ``judge=False`` skips the English-only/Chinese refusal and the
        uncertainty verdict: live dictation judges the whole recording at the end instead.
        ``vad=False``: the samples are already cut at pauses by the caller's VAD (live pieces);
        Whisper's own VAD filter would crop them again with 400 ms pads, and that re-cropping
        changed "Call the builder" into "Call the meal" at 5 of 21 piece starts 20 ms apart
        (0 of 21 without it).
        """
        wanted = self.wanted_language(language)
        load_s = self.load()
        _check_cancel(cancel)
        with self._run_lock:
            started = time.perf_counter()
            duration = len(samples) / SAMPLE_RATE
            if progress:
                progress(0.0, "")
            if duration < 0.1:
                return Transcript("", _fallback_language(wanted), duration, 0.0, load_s=load_s)
            lang, probability = self._pick_language(samples, wanted)
            _check_cancel(cancel)
            text, segments, info = self._recognise(
                samples,
                lang,
                prompt,
                duration,
                progress,
                cancel,
                single_pass=wanted != "en",
                vad=vad,
            )
            scores = _scores(text, segments)
            result = Transcript(
                text=text,
                language=lang,
                duration_s=float(getattr(info, "duration", duration)),
                elapsed_s=time.perf_counter() - started,
                segments=tuple(segments),
                language_probability=probability,
                load_s=load_s,
                model=self.choice.name,
                avg_logprob=scores.avg_logprob,
                no_speech_prob=scores.no_speech_prob,
            )
        if judge:
            result = self.judge(result, wanted)
        if progress:
            progress(1.0, result.text)
        return result

    def _recognise(
        self,
        samples: np.ndarray,
        lang: str,
        prompt: str,
        duration: float,
        progress: ProgressFn | None,
        cancel: threading.Event | None,
        *,
        single_pass: bool = False,
        vad: bool = True,
    ) -> tuple[str, list[Segment], Any]:
        """Run Whisper in ``lang``: the joined text (Chinese finished), its segments, its info.

        ``single_pass``: the speech may be in a language other than English."""
        kwargs: dict[str, object] = {  # faster-whisper's transcribe options
            "language": lang,
            "vad_filter": vad,
            "beam_size": 5,
            "condition_on_previous_text": False,  # stops a tiny model looping on itself
        }
        if single_pass and not self.multilingual:
            # the speech may be Chinese, which this model cannot read: its first pass is enough
            # to tell (``judge``). Whisper's temperature ladder re-decoded 16 s of Mandarin up
            # to six times (24 s on 2 busy cores) only to produce noise that is refused anyway.
            kwargs["temperature"] = 0.0
        if lang == "zh":
            kwargs["initial_prompt"] = ZH_INITIAL_PROMPT + prompt[-60:]
        elif prompt:
            kwargs["initial_prompt"] = prompt[-200:]
        try:
            segments_iter, info = self._model.transcribe(samples, **kwargs)
            segments: list[Segment] = []
            parts: list[str] = []
            for seg in segments_iter:  # lazy: the real work happens while iterating
                segments.append(
                    Segment(
                        float(seg.start),
                        float(seg.end),
                        seg.text,
                        float(seg.avg_logprob),
                        float(seg.no_speech_prob),
                    )
                )
                parts.append(seg.text)
                if progress:
                    progress(min(1.0, float(seg.end) / duration), _join(parts, lang))
                _check_cancel(cancel)
        except TranscriptionError:
            raise
        except Exception as exc:
            raise TranscriptionError(f"语音识别过程中出错：{exc}") from exc
        text = _join(parts, lang)
        if lang == "zh" or _CJK.search(text):
            text = finish_chinese(text)
            segments = [
                Segment(s.start, s.end, finish_chinese(s.text), s.avg_logprob, s.no_speech_prob)
                for s in segments
            ]
        return text, segments, info

    def wanted_language(self, language: str | None = None) -> str:
        """The language asked for: the argument, else the ``voice.language`` setting."""
        return (language or self._settings.text("voice.language") or "auto").strip().lower()

    def judge(self, result: Transcript, wanted: str) -> Transcript:
        """Refuse English noise made from Chinese speech; mark a low-confidence transcript.

        Raises ``ChineseNeedsMultilingualModel`` when an English-only model, asked for ``auto`` or
        ``zh``, produced text that looks like it did not understand the speech.
        """
        if not result.text.strip():
            return result
        scores = _scores(result.text, list(result.segments))
        log.info(  # the figures behind the verdict, never the words (logs hold no content)
            "judged %.1f s: logprob %.2f, odd %.2f, compression %.2f, no-speech %.2f",
            result.duration_s,
            scores.avg_logprob,
            scores.odd_ratio,
            scores.compression,
            scores.no_speech_prob,
        )
        if not self.multilingual and wanted != "en" and confidence.looks_foreign(scores):
            log.info(
                "english-only model heard non-English speech (logprob %.2f, odd %.2f)",
                scores.avg_logprob,
                scores.odd_ratio,
            )
            raise ChineseNeedsMultilingualModel()
        return replace(result, uncertain=confidence.is_uncertain(scores))

    def _pick_language(self, samples: np.ndarray, wanted: str) -> tuple[str, float]:
        multilingual = bool(self._model.model.is_multilingual)
        if wanted not in ("", "auto"):
            if not multilingual and wanted != "en":
                raise ChineseNeedsMultilingualModel(
                    "当前语音模型仅支持英文，无法识别中文。请在“设置 → 语音”中下载或选择多语言模型"
                    "（faster-whisper-small，约 486 MB），或把识别语言改为“英文”"
                )
            return wanted, 1.0
        if not multilingual:
            return "en", 1.0
        _lang, _prob, all_probs = self._model.detect_language(audio=samples)
        probs = dict(all_probs or [])
        zh, en = probs.get("zh", 0.0), probs.get("en", 0.0)
        return ("zh", zh) if zh >= en else ("en", en)

    # -- worker thread -------------------------------------------------------------------------
    def _worker(self) -> tasks.Lane:
        if self._executor is None:
            with self._load_lock:
                if self._executor is None:
                    self._executor = tasks.Lane("whisper", 1)
        return self._executor

    def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        """Run ``fn`` on this transcriber's single worker thread (live dictation's pieces)."""
        return self._worker().submit(fn, *args, **kwargs)

    def submit(self, path: str | Path, **options: Unpack[FileOptions]) -> Future[Transcript]:
        """Run ``transcribe_file`` on this transcriber's single worker thread."""
        return self._worker().submit(self.transcribe_file, path, **options)

    def warm_up(self) -> Future[float]:
        """Load the model on the worker thread (the desktop calls this at start-up)."""
        return self._worker().submit(self.load)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.close(wait=False, cancel_futures=True)
            self._executor = None


def _check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise TranscriptionCancelled()


def _join(parts: list[str], lang: str) -> str:
    if lang == "zh":
        return "".join(p.strip() for p in parts)
    return " ".join(p.strip() for p in parts if p.strip())


def finish_chinese(text: str) -> str:
    """Simplified characters and full-width punctuation: how the owner writes Chinese."""
    return to_chinese_punctuation(to_simplified(text))


def _scores(text: str, segments: list[Segment]) -> confidence.Scores:
    return confidence.score(
        text, [(s.end - s.start, s.avg_logprob, s.no_speech_prob) for s in segments]
    )


def _fallback_language(wanted: str) -> str:
    return wanted if wanted in ("zh", "en") else "en"


@dataclass
class _SharedCache:
    lock: threading.Lock = field(default_factory=threading.Lock)
    by_key: dict[tuple[str, str, str], Transcriber] = field(default_factory=dict)


_shared = _SharedCache()


def shared_transcriber(settings: VoiceSettings) -> Transcriber:
    """The process-wide warm ``Transcriber`` for the current model settings.

    Keyed by (model folder, device, compute type): changing the model in settings gives a new
    instance on next use; the same settings always get the same loaded model.
    """
    choice = resolve_model_dir(settings)
    key = (
        str(choice.path.resolve()),
        settings.text("voice.device") or "cpu",
        settings.text("voice.compute_type") or "int8",
    )
    with _shared.lock:
        found = _shared.by_key.get(key)
        if found is None:
            for old in _shared.by_key.values():
                old.close()
            _shared.by_key.clear()  # keep one model in memory, not one per setting tried
            found = Transcriber(settings, choice=choice)
            _shared.by_key[key] = found
        found._settings = settings  # language is read per call from the caller's settings
        return found
