"""An audio file's length is read from its Ogg pages or WAV header alone: no PyAV, libsndfile or
numpy, whose first import holds the GIL (and so the Telegram loop) while FFmpeg loads."""

from __future__ import annotations

import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest
import soundfile

from core.voice.length import audio_seconds

NATIVE = ("av", "soundfile", "numpy", "_soundfile")


def measured(path: Path) -> float | None:
    """``audio_seconds(path)`` while importing a native audio library fails (as ``import`` of a
    ``None`` entry in ``sys.modules`` does): a length that needed one comes back ``None``."""
    with pytest.MonkeyPatch.context() as patch:
        for name in NATIVE:
            patch.setitem(sys.modules, name, None)
        return audio_seconds(path)


def _soundfile_ogg(path: Path, seconds: float, rate: int, subtype: str) -> Path:
    frames = round(seconds * rate)
    tone = 0.1 * np.sin(2 * np.pi * 440.0 * np.arange(frames) / rate)
    soundfile.write(str(path), tone.astype(np.float32), rate, format="OGG", subtype=subtype)
    return path


@pytest.mark.parametrize("rate", [48_000, 16_000])
def test_an_opus_voice_note_is_measured_in_48_khz_samples_whatever_its_input_rate(
    tmp_path: Path, rate: int
) -> None:
    path = _soundfile_ogg(tmp_path / "note.ogg", 7.0, rate, "OPUS")
    seconds = measured(path)
    assert seconds is not None and abs(seconds - 7.0) < 0.03  # pre-skip subtracted


def test_a_half_hour_vorbis_file_is_measured_from_its_last_page(tmp_path: Path) -> None:
    path = tmp_path / "long.ogg"
    subprocess.run(
        ["sox", "-n", "-r", "8000", "-c", "1", str(path), "trim", "0", "1800"],
        check=True,
        capture_output=True,
    )
    seconds = measured(path)
    assert seconds is not None and abs(seconds - 1800) < 0.5


def test_a_wav_file_is_measured_from_its_header(tmp_path: Path) -> None:
    path = tmp_path / "note.wav"
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(16_000)
        wav.writeframes(b"\0\0" * 16_000 * 3)
    assert measured(path) == 3.0


def test_a_cut_last_page_and_a_chance_capture_pattern_are_not_believed(tmp_path: Path) -> None:
    """A download cut short ends in half a page, and "OggS" may occur inside the audio: the
    length comes from the last page whose checksum holds, a little short, never made up."""
    whole = _soundfile_ogg(tmp_path / "whole.ogg", 20.0, 48_000, "VORBIS").read_bytes()
    cut = tmp_path / "cut.ogg"
    fake = b"OggS\0\0" + (10**9).to_bytes(8, "little") + whole[14:27] + b"\0" * 10
    cut.write_bytes(whole[: len(whole) - 500] + fake)
    seconds = audio_seconds(cut)
    assert seconds is not None and 15.0 < seconds < 20.0


def test_what_is_not_audio_has_no_length(tmp_path: Path) -> None:
    for name, data in (("empty.ogg", b""), ("text.ogg", b"OggS not really"), ("x.bin", b"x" * 99)):
        (tmp_path / name).write_bytes(data)
        assert audio_seconds(tmp_path / name) is None
    assert audio_seconds(tmp_path / "missing.ogg") is None
