"""WAV and PCM helpers shared by the recorder, the tests and the benchmark.

Dictation audio is always 16 kHz, mono, signed 16-bit little-endian PCM: that is what Whisper
consumes, so the recorder asks the microphone for it and no resampling happens on the hot path.
``WavWriter`` streams chunks to disk while recording, so a crash mid-dictation still leaves a
playable file (the header is rewritten on close; the stdlib ``wave`` module does that for us).
"""

from __future__ import annotations

import array
import math
import sys
import wave
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

from core.errors import TranscriptionError

if TYPE_CHECKING:  # numpy loads on use, not with the app (~0.15 s of start-up)
    import numpy as np

SAMPLE_RATE = 16_000
CHANNELS = 1
SAMPLE_WIDTH = 2  # bytes, signed 16-bit
BYTES_PER_SECOND = SAMPLE_RATE * CHANNELS * SAMPLE_WIDTH
CHUNK_BYTES = BYTES_PER_SECOND // 10  # 100 ms: what a microphone delivers at a time

# Level meter floor: quieter than this shows as an empty meter (room noise of a quiet office).
LEVEL_FLOOR_DB = -60.0


def pcm_seconds(n_bytes: int) -> float:
    """Duration of ``n_bytes`` of dictation PCM."""
    return n_bytes / BYTES_PER_SECOND


def pcm_rms(pcm: bytes) -> float:
    """Root mean square of 16-bit PCM, 0.0 … 1.0 of full scale (0.0 for empty input)."""
    usable = len(pcm) - (len(pcm) % SAMPLE_WIDTH)
    if usable <= 0:
        return 0.0
    # Pure Python, not numpy: the level meter runs on the UI thread from the first microphone
    # chunk, and importing numpy there held the GIL 170–200 ms with a cold disk cache (#28).
    # A 100 ms chunk is 1,600 samples: ~0.1 ms this way.
    samples = array.array("h", pcm[:usable])
    if sys.byteorder == "big":
        samples.byteswap()  # the PCM is little-endian
    return math.sqrt(sum(x * x for x in samples) / len(samples)) / 32768.0


def pcm_level(pcm: bytes) -> float:
    """Loudness for a level meter, 0.0 … 1.0, on a dB scale (what the ear perceives)."""
    rms = pcm_rms(pcm)
    if rms <= 0.0:
        return 0.0
    db = 20.0 * math.log10(rms)
    return max(0.0, min(1.0, (db - LEVEL_FLOOR_DB) / -LEVEL_FLOOR_DB))


class WavWriter:
    """Append-only 16 kHz mono WAV file; ``close()`` finalises the header."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._wav = wave.open(str(path), "wb")  # noqa: SIM115 - closed in close()
        self._wav.setnchannels(CHANNELS)
        self._wav.setsampwidth(SAMPLE_WIDTH)
        self._wav.setframerate(SAMPLE_RATE)
        self.bytes_written = 0
        self._closed = False

    def write(self, pcm: bytes) -> None:
        usable = len(pcm) - (len(pcm) % SAMPLE_WIDTH)
        if usable:
            self._wav.writeframes(pcm[:usable])
            self.bytes_written += usable

    @property
    def seconds(self) -> float:
        return pcm_seconds(self.bytes_written)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._wav.close()

    def __enter__(self) -> WavWriter:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def write_wav(path: Path, pcm: bytes) -> Path:
    """Write dictation PCM to ``path`` in one go."""
    with WavWriter(path) as writer:
        writer.write(pcm)
    return path


def concat_wavs(paths: list[Path], out: Path) -> Path:
    """Join dictation WAVs (same format) into one file, in order: several dictations into one
    note box become one recording for the note."""
    with WavWriter(out) as writer:
        for path in paths:
            with wave.open(str(path), "rb") as wav:
                writer.write(wav.readframes(wav.getnframes()))
    return out


def read_pcm16k(path: Path) -> bytes:
    """Any audio file ``load_audio`` reads → 16 kHz mono 16-bit PCM bytes.

    Used by tests and the benchmark to turn an espeak-ng WAV (22.05 kHz) into what a microphone
    would deliver. Raises ``TranscriptionError`` for unreadable files, like the transcriber.
    """
    samples = load_audio(path)
    clipped = (samples.clip(-1.0, 1.0) * 32767.0).astype("<i2")
    return clipped.tobytes()


def load_audio(path: str | Path) -> np.ndarray:
    """Decode an audio file (wav, flac, ogg with Opus or Vorbis — Telegram's voice notes — and
    mp3) to 16 kHz mono float32.

    libsndfile (``soundfile``, ~1.3 MB) reads these; PyAV's FFmpeg (72 MB in the installer)
    is used only when it is installed and libsndfile cannot read the file (m4a/AAC): the bundle
    leaves PyAV out, and such a file gets the same clear refusal as a damaged one.
    """
    path = Path(path)
    if path.is_dir():
        raise TranscriptionError(
            f"这是一个文件夹，不是音频文件：{path} / this is a folder, not an audio file: {path}"
        )
    if not path.is_file():
        raise TranscriptionError(f"找不到音频文件：{path} / audio file not found: {path}")
    try:
        return _with_soundfile(path)
    except Exception as first:  # libsndfile: RuntimeError/LibsndfileError for what it can't read
        try:
            return _with_pyav(path)
        except Exception:
            raise TranscriptionError(
                f"无法读取音频文件（格式不支持或文件已损坏）：{path.name} / cannot read the "
                f"audio file (format not supported, or the file is damaged): {path.name}"
            ) from first


def _with_soundfile(path: Path) -> np.ndarray:
    import numpy as np
    import soundfile

    samples, rate = soundfile.read(str(path), dtype="float32", always_2d=True)
    mono = samples.mean(axis=1) if samples.shape[1] > 1 else samples[:, 0]
    return resample(np.ascontiguousarray(mono, dtype=np.float32), int(rate), SAMPLE_RATE)


def _with_pyav(path: Path) -> np.ndarray:
    import numpy as np
    from faster_whisper.audio import decode_audio  # imports PyAV, absent from the bundle

    return np.asarray(decode_audio(str(path), sampling_rate=SAMPLE_RATE), dtype=np.float32)


RESAMPLE_BLOCK_S = 60  # FFT resampling block: memory stays small for an hour-long file


def resample(samples: np.ndarray, rate: int, target: int) -> np.ndarray:
    """Band-limited resampling by the discrete Fourier transform, block by block.

    Speech needs nothing finer for Whisper (which looks at 8 kHz and below); numpy alone does it,
    so no resampling library rides along in the installer.
    """
    import numpy as np

    if rate == target or len(samples) == 0:
        return samples.astype(np.float32, copy=False)
    block = RESAMPLE_BLOCK_S * rate
    out = [
        _resample_block(samples[start : start + block], rate, target)
        for start in range(0, len(samples), block)
    ]
    return np.concatenate(out).astype(np.float32, copy=False)


def _resample_block(block: np.ndarray, rate: int, target: int) -> np.ndarray:
    import numpy as np

    n_out = max(1, round(len(block) * target / rate))
    spectrum = np.fft.rfft(block.astype(np.float64))
    keep = n_out // 2 + 1
    if keep <= len(spectrum):
        spectrum = spectrum[:keep]
    else:
        spectrum = np.concatenate([spectrum, np.zeros(keep - len(spectrum), dtype=complex)])
    return np.fft.irfft(spectrum, n_out) * (n_out / len(block))
