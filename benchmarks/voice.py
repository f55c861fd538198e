"""Voice benchmark: model load, whole-clip transcription, and live dictation's release-to-text.

    .venv/bin/python benchmarks/voice.py [--runs 5] [--model-dir DIR] [--language auto|zh|en]

Prints model load time (cold, in this process), the clip length, the warm transcription time of
the whole ~10 s espeak-ng clip (median and best of ``--runs``: what the owner waited after release
before live dictation), the real-time factor, the WER against the spoken text, then the same clip
**fed in real time** (100 ms chunks, like the microphone) to ``LiveDictation``: the release-to-text
latency (median and worst of ``--runs``; target < 0.5 s on 2 cores with tiny.en) when he lets
go a moment after the last word, 0.5 s later, and on the last sound itself (the floor), the
number of pieces and the WER of the live transcript; then the WER of whole-clip and live
transcription over ten more dictations (the live one must be no worse).
Uses the app's own ``Transcriber`` with the default settings (CPU, int8, VAD on) and the model
the app would use (``--model-dir`` / ``INQUIRY_BRIDGE_WHISPER_MODEL`` / bundled tiny.en).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.config import Settings  # noqa: E402
from core.voice.audio import CHUNK_BYTES, read_pcm16k  # noqa: E402
from core.voice.live import LiveDictation  # noqa: E402
from core.voice.transcriber import Transcriber, Transcript  # noqa: E402
from tests.voice.speech import DICTATIONS, SENTENCES, espeak, word_error_rate  # noqa: E402

VOICES = ("en-us", "en-gb")  # espeak voices for the more dictations


def peak_rss_mb() -> float:
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / (1024 * 1024) if sys.platform == "darwin" else kb / 1024


def live_run(transcriber: Transcriber, pcm: bytes, language: str) -> tuple[Transcript, int, float]:
    """Feed ``pcm`` in real time (100 ms chunks at their own pace), release, wait for the text.

    Returns the transcript, the number of pieces and the CPU seconds spent after release."""
    partials: list[str] = []
    live = LiveDictation(transcriber, language=language, on_partial=partials.append)
    started = time.perf_counter()
    for i, offset in enumerate(range(0, len(pcm), CHUNK_BYTES)):
        live.feed(pcm[offset : offset + CHUNK_BYTES])
        time.sleep(max(0.0, started + (i + 1) * 0.1 - time.perf_counter()))
    cpu_started = time.process_time()
    result = live.finish().result()
    return result, live.pieces, time.process_time() - cpu_started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--model-dir", default="")
    parser.add_argument("--language", default="auto")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        environ = dict(os.environ)
        if args.model_dir:
            environ["INQUIRY_BRIDGE_WHISPER_MODEL"] = args.model_dir
        settings = Settings(Path(tmp) / "settings.toml", environ=environ)
        text = " ".join(SENTENCES)
        clip = espeak(text, Path(tmp) / "clip.wav")
        transcriber = Transcriber(settings)
        rss_before = peak_rss_mb()
        started = time.perf_counter()
        transcriber.load()
        load_s = time.perf_counter() - started
        median, wer = whole_clip(transcriber, settings, clip, text, load_s, args)
        live_median, live_wer = live_cases(transcriber, read_pcm16k(clip), text, args)
        whole_more, live_more = more_dictations(transcriber, Path(tmp), args.language)
        print(f"peak RSS         : {peak_rss_mb():.0f} MB (before load {rss_before:.0f} MB)")
        verdict = "OK" if median < 2.0 else "OVER TARGET"
        print(f"target < 2 s warm for 10 s: {verdict}")
        verdict = "OK" if live_median < 0.5 else "OVER TARGET"
        print(f"target < 0.5 s release-to-text: {verdict}")
        # judged over all eleven dictations: on any one clip tiny.en's words at a piece's edge
        # come and go (the first clip alone was 0 % one way and 7 % the other)
        n = len(DICTATIONS) * len(VOICES)
        pooled_whole = (wer + n * whole_more) / (n + 1)
        pooled_live = (live_wer + n * live_more) / (n + 1)
        verdict = "OK" if pooled_live <= pooled_whole + 0.005 else "WORSE"
        print(
            f"live WER no worse than whole clip over {n + 1} dictations "
            f"({pooled_live:.1%} against {pooled_whole:.1%}): {verdict}"
        )
    return 0


def whole_clip(
    transcriber: Transcriber,
    settings: Settings,
    clip: Path,
    text: str,
    load_s: float,
    args: argparse.Namespace,
) -> tuple[float, float]:
    """Time the whole clip (one warming call, then ``--runs``), print it; returns (median, WER)."""
    first = transcriber.transcribe_file(clip, language=args.language)  # first call: warms caches
    times, cpu, results = [], [], []
    for _ in range(args.runs):
        cpu_started = time.process_time()
        result = transcriber.transcribe_file(clip, language=args.language)
        cpu.append(time.process_time() - cpu_started)
        times.append(result.elapsed_s)
        results.append(result)
    median = statistics.median(times)
    duration = results[-1].duration_s
    wer = word_error_rate(text, results[-1].text)

    print(
        f"machine          : {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"model            : {transcriber.choice.name} ({transcriber.choice.path})")
    print(f"device/compute   : {settings.get('voice.device')}/{settings.get('voice.compute_type')}")
    print(f"model load       : {load_s:.2f} s")
    print(f"clip             : {duration:.1f} s espeak-ng speech")
    print(f"first transcribe : {first.elapsed_s:.2f} s")
    print(
        f"warm transcribe  : median {median:.2f} s, best {min(times):.2f} s over {args.runs} runs"
    )
    print(f"real-time factor : {median / duration:.3f} (median)")
    print(
        f"CPU time per run : median {statistics.median(cpu):.2f} s (all threads; wall time "
        "above grows when other processes compete for the cores)"
    )
    print(f"WER              : {wer:.1%}  -> {results[-1].text!r}")
    return median, wer


def live_cases(
    transcriber: Transcriber, speech: bytes, text: str, args: argparse.Namespace
) -> tuple[float, float]:
    """Live dictation released at three moments; returns the judged cases' worse
    (median release-to-text, WER).

    espeak's clip ends about 0.4 s after the last word: letting go there is "a moment after the
    last word", the usual case and the one the < 0.5 s target is judged on, with 0.5 s more quiet as
    the second judged case. The third lets go on the last sound itself (the clip's quiet end cut
    off); nothing can be recognised ahead then, so it shows the floor: one Whisper call on the
    audio since the last piece. It is printed, not judged."""
    samples = np.frombuffer(speech, dtype="<i2")
    loud = np.nonzero(np.abs(samples.astype(np.int32)) > 300)[0]
    on_last_sound = samples[: int(loud[-1]) + 1].tobytes()
    tail_s = (len(samples) - len(on_last_sound) // 2) / 16_000
    pause = b"\x00\x00" * int(0.5 * 16_000)  # he stops talking, then lets go
    judged: list[tuple[float, float]] = []  # (median latency, WER) per judged case
    for label, pcm, judge in (
        (f"released {tail_s:.2f} s after the last word", speech, True),
        (f"released {tail_s + 0.5:.2f} s after it", speech + pause, True),
        ("released on the last sound", on_last_sound, False),
    ):
        live_times, live_cpu, live_results = [], [], []
        for _ in range(args.runs):
            live_result, pieces, cpu_s = live_run(transcriber, pcm, args.language)
            live_times.append(live_result.elapsed_s)
            live_cpu.append(cpu_s)
            live_results.append(live_result)
        wer_here = statistics.median(word_error_rate(text, r.text) for r in live_results)
        if judge:
            judged.append((statistics.median(live_times), wer_here))
        print(
            f"live, {label:<36}: release-to-text median {statistics.median(live_times):.2f} s, "
            f"worst {max(live_times):.2f} s, CPU {statistics.median(live_cpu):.2f} s "
            f"over {args.runs} runs fed in real time ({pieces} pieces), WER {wer_here:.1%}"
            + ("" if judge else "  (floor, not judged)")
        )
    print(f"live transcript  : {live_results[-1].text!r}")
    return max(m for m, _ in judged), max(w for _, w in judged)


def more_dictations(transcriber: Transcriber, tmp: Path, language: str) -> tuple[float, float]:
    """WER of whole-clip and live transcription over ten more dictations (five texts, two
    espeak voices); returns the two means. Live pieces are cut from the audio alone, so feeding
    each chunk once the worker has caught up splits them as real time does, only faster."""
    whole, live = [], []
    worst = (0.0, "")
    for i, text in enumerate(DICTATIONS):
        for voice in VOICES:
            clip = espeak(text, tmp / f"dictation-{i}-{voice}.wav", speed=160, voice=voice)
            whole.append(
                word_error_rate(text, transcriber.transcribe_file(clip, language=language).text)
            )
            pcm = read_pcm16k(clip)
            dictation = LiveDictation(transcriber, language=language)
            for offset in range(0, len(pcm), CHUNK_BYTES):
                dictation.feed(pcm[offset : offset + CHUNK_BYTES])
                transcriber.run(lambda: None).result()
            result = dictation.finish().result()
            live.append(word_error_rate(text, result.text))
            worst = max(worst, (live[-1], result.text))
    print(
        f"{len(live)} more dictations  : WER whole clip mean {statistics.mean(whole):.1%}, "
        f"live mean {statistics.mean(live):.1%} (worst live {worst[0]:.1%}: {worst[1]!r})"
    )
    return statistics.mean(whole), statistics.mean(live)


if __name__ == "__main__":
    raise SystemExit(main())
