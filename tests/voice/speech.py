"""Real speech for voice tests and the benchmark: espeak-ng sentences, re-encoding, WER.

espeak-ng's voice is robotic but real audio: Whisper has to actually recognise it, so a WER
threshold catches a broken decode path, wrong sample rate or a mangled prompt.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

# Sentences from the owner's trade, without digits (Whisper may write "two" or "2").
SENTENCES = (
    "Please send the customer a quote for the kitchen window.",
    "The new glass door will be installed next week.",
    "Call the builder about the measurements for the bathroom.",
)

# More dictations for the benchmark's WER comparison of live pieces against the whole clip.
DICTATIONS = (
    "Thank you for your email about the sliding doors. We can measure the openings on Friday "
    "morning. The quote will include double glazing and new flyscreens.",
    "Please ask the factory when the frames will be ready. The customer wants powder coated "
    "black aluminium. Tell him the delivery takes a few weeks.",
    "The builder needs awning windows for the upstairs bedrooms. Send him our brochure and the "
    "price list. I will call him back this afternoon.",
    "Remind me to follow up with the client next Monday. She was happy with the sample colours. "
    "We should book the installation before Christmas.",
    "The shower screen was damaged during delivery. Apologise to the customer and arrange a "
    "replacement. Our installer can fit it next week.",
)


def espeak(text: str, out: Path, *, speed: int = 150, voice: str = "") -> Path:
    """Speak ``text`` to a WAV file with espeak-ng (22.05 kHz mono); ``voice`` e.g. "en-us"."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise RuntimeError("espeak-ng is not installed (apt-get install espeak-ng)")
    voice_args = ["-v", voice] if voice else []
    subprocess.run(
        [exe, *voice_args, "-s", str(speed), "-w", str(out), text], check=True, capture_output=True
    )
    return out


def to_16k(wav: Path, out: Path) -> Path:
    """Resample to the dictation format with sox (16 kHz, mono, 16-bit)."""
    subprocess.run(
        ["sox", str(wav), "-r", "16000", "-c", "1", "-b", "16", str(out)],
        check=True,
        capture_output=True,
    )
    return out


def encode(wav: Path, out: Path, codec: str) -> Path:
    """Re-encode with PyAV (mp3 via libmp3lame, m4a via aac, ogg via opus) — no ffmpeg binary."""
    import av

    with av.open(str(wav)) as src, av.open(str(out), "w") as dst:
        in_stream = src.streams.audio[0]
        rate = 48000 if codec in ("libopus", "opus") else in_stream.rate
        stream = dst.add_stream(codec, rate=rate)
        stream.layout = "mono"
        resampler = av.AudioResampler(
            format=stream.codec_context.codec.audio_formats[0].name, layout="mono", rate=rate
        )
        for frame in src.decode(in_stream):
            frame.pts = None
            for rf in resampler.resample(frame):
                for packet in stream.encode(rf):
                    dst.mux(packet)
        for rf in resampler.resample(None):
            for packet in stream.encode(rf):
                dst.mux(packet)
        for packet in stream.encode(None):
            dst.mux(packet)
    return out


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z']+", text.lower().replace("’", "'"))


def word_error_rate(reference: str, hypothesis: str) -> float:
    """Levenshtein distance over words / number of reference words (case, punctuation ignored)."""
    ref, hyp = _words(reference), _words(hypothesis)
    if not ref:
        return 0.0 if not hyp else 1.0
    prev = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        cur = [i] + [0] * len(hyp)
        for j, h in enumerate(hyp, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (r != h))
        prev = cur
    return prev[-1] / len(ref)


# Mandarin the owner might dictate, spoken by espeak-ng's cmn voice.
CHINESE_SENTENCES = (
    "请给客户发一份厨房窗户的报价。",
    "新的玻璃门下周安装。",
    "打电话给建筑商，问一下浴室的尺寸。",
)


def espeak_mandarin(text: str, out: Path, *, speed: int = 175) -> Path:
    """Speak Chinese with espeak-ng's Mandarin voice (``-v cmn``)."""
    exe = shutil.which("espeak-ng")
    if exe is None:
        raise RuntimeError("espeak-ng is not installed (apt-get install espeak-ng)")
    subprocess.run(
        [exe, "-v", "cmn", "-s", str(speed), "-w", str(out), text], check=True, capture_output=True
    )
    return out
