"""PCM helpers: the level meter's scale and the streaming WAV writer."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

from core.voice.audio import BYTES_PER_SECOND, WavWriter, pcm_level, pcm_seconds


def _tone(amplitude: float, seconds: float = 0.1) -> bytes:
    t = np.arange(int(16000 * seconds)) / 16000
    return (np.sin(2 * np.pi * 440 * t) * amplitude * 32767).astype("<i2").tobytes()


def test_level_grows_with_loudness_on_a_db_scale() -> None:
    silent, quiet, speech, loud = (
        pcm_level(b"\x00\x00" * 1600),
        pcm_level(_tone(0.003)),
        pcm_level(_tone(0.1)),
        pcm_level(_tone(1.0)),
    )
    assert silent == 0.0
    assert 0.0 < quiet < speech < loud <= 1.0
    assert loud > 0.9
    assert pcm_level(b"") == 0.0 and pcm_level(b"\x01") == 0.0


def test_wav_writer_streams_chunks_into_a_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "rec" / "a.wav"
    with WavWriter(path) as writer:
        for _ in range(10):
            writer.write(_tone(0.5))
        writer.write(b"\x01")  # a dangling odd byte is dropped, not corrupting the stream
        assert writer.seconds == 1.0
    with wave.open(str(path)) as wav:
        assert (wav.getframerate(), wav.getnchannels(), wav.getsampwidth()) == (16000, 1, 2)
        assert wav.getnframes() == 16000
    assert pcm_seconds(BYTES_PER_SECOND * 3) == 3.0
