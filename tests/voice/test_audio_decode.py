"""Audio files decode without PyAV: the installer leaves FFmpeg out (72 MB), so Telegram's
Opus voice notes, mp3 and espeak's 22 kHz WAVs must come through libsndfile and numpy alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from core.errors import TranscriptionError
from core.voice.audio import SAMPLE_RATE, load_audio, resample
from tests.voice.speech import encode


def test_resampling_keeps_the_pitch_and_the_loudness() -> None:
    rate = 22_050
    t = np.arange(rate * 2) / rate
    tone = (0.5 * np.sin(2 * np.pi * 440.0 * t)).astype(np.float32)
    out = resample(tone, rate, SAMPLE_RATE)
    assert len(out) == 2 * SAMPLE_RATE
    spectrum = np.abs(np.fft.rfft(out))
    peak_hz = np.argmax(spectrum) * SAMPLE_RATE / len(out)
    assert abs(peak_hz - 440.0) < 1.0
    middle = out[SAMPLE_RATE // 2 : -SAMPLE_RATE // 2]
    assert abs(np.sqrt(np.mean(middle**2)) - 0.5 / np.sqrt(2)) < 0.01


def test_a_long_recording_is_resampled_in_blocks_without_losing_length() -> None:
    rate = 48_000
    samples = np.zeros(rate * 150 + 123, dtype=np.float32)  # 2.5 min: three blocks
    assert abs(len(resample(samples, rate, SAMPLE_RATE)) - (150 * SAMPLE_RATE + 41)) <= 3


@pytest.mark.parametrize("codec,ext", [("libopus", "ogg"), ("libmp3lame", "mp3")])
def test_voice_notes_decode_when_pyav_is_absent(
    short_wav: Path, tmp_path: Path, codec: str, ext: str
) -> None:
    clip = encode(short_wav, tmp_path / f"note.{ext}", codec)
    script = (
        "import sys, json; sys.modules['av'] = None\n"  # as in the bundle: no PyAV
        "from core.voice.audio import load_audio\n"
        f"s = load_audio({str(clip)!r}); print(json.dumps([len(s), float(abs(s).max())]))"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    length, peak = json.loads(done.stdout)
    reference = load_audio(short_wav)
    assert abs(length - len(reference)) < SAMPLE_RATE * 0.1  # codec padding, nothing more
    assert peak > 0.1


def test_a_file_that_is_not_audio_is_refused_clearly(tmp_path: Path) -> None:
    bogus = tmp_path / "voice.ogg"
    bogus.write_bytes(b"not audio at all" * 100)
    with pytest.raises(TranscriptionError) as caught:
        load_audio(bogus)
    assert "voice.ogg" in str(caught.value.user_message("zh"))
