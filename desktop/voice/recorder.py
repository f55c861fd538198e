"""Microphone capture to a WAV file, with a level meter, elapsed time and a maximum length.

Why a device abstraction: a CI machine has no microphone (and no sound server), and a test that
waits for real speech would be slow and flaky. ``Recorder`` only consumes an ``AudioInput`` — a
QObject that emits ``chunk(bytes)`` of 16 kHz mono 16-bit PCM — so tests feed it a generated
buffer (``GeneratedAudioInput``) and the app feeds it the real microphone (``QtAudioInput``).

Elapsed time and the maximum length are measured in *captured audio* (bytes / 32,000 per second),
not wall-clock time: what the owner sees is exactly what Whisper will hear, and tests need no
clock. Chunks are streamed to disk as they arrive, and the file is kept until the transcript is
inserted (the dictation button deletes it then, unless it is a voice note).

QtMultimedia is imported lazily, only when a real microphone is opened: merely importing it makes
Qt probe PulseAudio/PipeWire and log warnings, which must not happen in windows that never record.

Signals (Recorder):
    level_changed(float)    0.0 … 1.0 loudness of the last chunk (dB scale)
    elapsed_changed(float)  seconds captured so far
    limit_reached()         the maximum length stopped the recording
    finished(object)        Path of the complete WAV file
    failed(str)             a Chinese message: no microphone, permission, device lost
    pcm(bytes)              each piece of audio as it is written (live dictation listens)
"""

from __future__ import annotations

import array
import logging
import secrets
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING
from typing import Protocol

from PySide6.QtCore import QCoreApplication
from PySide6.QtCore import QIODevice
from PySide6.QtCore import QObject
from PySide6.QtCore import QTimer
from PySide6.QtCore import Signal
from PySide6.QtCore import SignalInstance

from core.app.types import BYTES_PER_SECOND
from core.app.types import SAMPLE_RATE
from core.app.types import AudioDeviceError
from core.app.types import Clock
from core.app.types import SystemClock
from core.app.types import WavWriter
from core.app.types import pcm_level
from core.app.types import pcm_seconds
from core.app.types import to_sydney

if TYPE_CHECKING:
    from PySide6.QtMultimedia import QAudioSource

log = logging.getLogger(__name__)

MIN_SECONDS = 0.3  # shorter than this is an accidental click, not speech
CHUNK_SECONDS = 0.1


class AudioInput(Protocol):
    """What the recorder needs from a microphone (a QObject with these signals)."""

    # read-only properties: a class-level ``Signal`` reads as a ``SignalInstance`` on the object

    @property
    def chunk(self) -> SignalInstance:
        """(bytes) 16 kHz mono s16le PCM."""

    @property
    def failed(self) -> SignalInstance:
        """(str) the device stopped with an error mid-recording."""

    def start(self) -> None:
        """Begin capture; raise ``AudioDeviceError`` (Chinese detail) when it cannot."""

    def stop(self) -> None: ...


AudioInputFactory = Callable[[], AudioInput]


class GeneratedAudioInput(QObject):
    """An ``AudioInput`` playing a PCM buffer: tests, demos and the screenshot tool.

    ``push(seconds)`` delivers that much audio synchronously (``None``: everything left);
    with ``realtime=True`` it plays itself on a timer in 100 ms chunks like a microphone.
    """

    chunk = Signal(bytes)
    failed = Signal(str)

    def __init__(
        self, pcm: bytes, *, realtime: bool = False, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._pcm = pcm
        self._pos = 0
        self.started = False
        self.stopped = False
        self._timer: QTimer | None = None
        if realtime:
            self._timer = QTimer(self)
            self._timer.setInterval(int(CHUNK_SECONDS * 1000))
            self._timer.timeout.connect(lambda: self.push(CHUNK_SECONDS))

    @property
    def remaining_seconds(self) -> float:
        return pcm_seconds(len(self._pcm) - self._pos)

    def start(self) -> None:
        self.started, self.stopped = True, False
        if self._timer is not None:
            self._timer.start()

    def stop(self) -> None:
        self.stopped = True
        if self._timer is not None:
            self._timer.stop()

    def push(self, seconds: float | None = None) -> None:
        end = len(self._pcm) if seconds is None else self._pos + int(seconds * BYTES_PER_SECOND)
        step = int(CHUNK_SECONDS * BYTES_PER_SECOND)
        while self._pos < min(end, len(self._pcm)) and self.started and not self.stopped:
            piece = self._pcm[self._pos : min(self._pos + step, end)]
            self._pos += len(piece)
            self.chunk.emit(piece)


class QtAudioInput(QObject):
    """The default microphone through QtMultimedia's ``QAudioSource`` (pull mode)."""

    chunk = Signal(bytes)
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._source: QAudioSource | None = None
        self._io: QIODevice | None = None
        self._convert: Callable[[bytes], bytes] | None = None

    def start(self) -> None:
        from PySide6.QtMultimedia import QAudioFormat
        from PySide6.QtMultimedia import QAudioSource
        from PySide6.QtMultimedia import QMediaDevices
        from PySide6.QtMultimedia import QtAudio

        _check_permission()
        devices = QMediaDevices.audioInputs()
        if not devices:
            raise AudioDeviceError(
                QCoreApplication.translate(
                    "Recorder",
                    "No microphone found. Connect a microphone or headset and try again.",
                )
            )
        device = QMediaDevices.defaultAudioInput()
        if device.isNull():
            device = devices[0]
        wanted = QAudioFormat()
        wanted.setSampleRate(SAMPLE_RATE)
        wanted.setChannelCount(1)
        wanted.setSampleFormat(QAudioFormat.SampleFormat.Int16)
        fmt = wanted if device.isFormatSupported(wanted) else device.preferredFormat()
        self._convert = None if fmt == wanted else _converter(fmt)
        source = QAudioSource(device, fmt, self)
        io = source.start()
        if io is None or source.error() != QtAudio.Error.NoError:
            source.deleteLater()
            raise AudioDeviceError(
                QCoreApplication.translate(
                    "Recorder",
                    "The microphone “%1” cannot be opened; another program may be using it, "
                    "or access is not allowed.",
                ).replace("%1", device.description())
            )
        self._source, self._io = source, io
        io.readyRead.connect(self._read)
        source.stateChanged.connect(self._state_changed)

    def _read(self) -> None:
        if self._io is None:
            return
        data = bytes(self._io.readAll().data())
        if data:
            self.chunk.emit(self._convert(data) if self._convert else data)

    def _state_changed(self) -> None:
        """No parameter on purpose: PySide6 6.11 cannot convert the signal's ``QAudio::State``
        argument ("Cannot call meta function … cannot be converted"), so a slot taking it was
        never called and an unplugged microphone went unnoticed."""
        from PySide6.QtMultimedia import QtAudio

        if self._source is not None and self._source.error() not in (
            QtAudio.Error.NoError,
            QtAudio.Error.UnderrunError,
        ):
            self.failed.emit(
                QCoreApplication.translate(
                    "Recorder", "The microphone failed or was unplugged; recording stopped."
                )
            )

    def stop(self) -> None:
        if self._source is not None:
            self._read()
            source, self._source, self._io = self._source, None, None
            source.stateChanged.disconnect(self._state_changed)
            source.stop()
            source.deleteLater()


def _check_permission() -> None:
    """Windows/macOS privacy settings can deny the microphone; say so instead of recording silence."""
    try:
        from PySide6.QtCore import QMicrophonePermission
        from PySide6.QtCore import Qt
    except ImportError:  # pragma: no cover - Qt < 6.5
        return
    app = QCoreApplication.instance()
    if app is None:
        return
    status = app.checkPermission(QMicrophonePermission())
    if status == Qt.PermissionStatus.Denied:
        raise AudioDeviceError(
            QCoreApplication.translate(
                "Recorder",
                "Windows does not allow this app to use the microphone. Turn it on in "
                "Settings → Privacy & security → Microphone.",
            )
        )
    if status == Qt.PermissionStatus.Undetermined:
        # PySide6 wants a context object: the two-argument form raised TypeError here
        app.requestPermission(QMicrophonePermission(), app, lambda _p: None)
        raise AudioDeviceError(
            QCoreApplication.translate(
                "Recorder", "Allow microphone access in the system prompt, then try again."
            )
        )


def _converter(fmt: object) -> Callable[[bytes], bytes]:
    """PCM in the device's preferred format → 16 kHz mono s16le (linear resampling)."""
    from PySide6.QtMultimedia import QAudioFormat

    sf = fmt.sampleFormat()  # type: ignore[attr-defined]
    channels = max(1, fmt.channelCount())  # type: ignore[attr-defined]
    rate = fmt.sampleRate()  # type: ignore[attr-defined]
    code, scale, offset = {
        QAudioFormat.SampleFormat.UInt8: ("B", 128.0, 128.0),
        QAudioFormat.SampleFormat.Int16: ("h", 32768.0, 0.0),
        QAudioFormat.SampleFormat.Int32: ("i", 2147483648.0, 0.0),
        QAudioFormat.SampleFormat.Float: ("f", 1.0, 0.0),
    }.get(sf, ("h", 32768.0, 0.0))
    return pcm_converter(code, channels, rate, scale, offset)


def pcm_converter(
    code: str, channels: int, rate: int, scale: float, offset: float
) -> Callable[[bytes], bytes]:
    """Samples of ``array`` type ``code`` (little-endian), interleaved ``channels`` at ``rate``
    → 16 kHz mono s16le: channels averaged, linear interpolation (as ``np.interp`` did).

    Pure Python, not numpy: this runs on the UI thread from the first microphone chunk, and
    importing numpy there held the GIL 170–200 ms with a cold disk cache (#28). A 100 ms chunk
    of 48 kHz stereo float is ~4.4 ms here (numpy: ~0.1 ms, after its one-time import)."""
    width = array.array(code).itemsize * channels

    def convert(data: bytes) -> bytes:
        usable = len(data) - len(data) % width
        samples = array.array(code, data[:usable])
        if sys.byteorder == "big" and samples.itemsize > 1:
            samples.byteswap()
        divisor = scale * channels
        if channels == 1:
            mono = [(x - offset) / scale for x in samples]
        else:
            mono = [
                (sum(samples[i : i + channels]) - offset * channels) / divisor
                for i in range(0, len(samples), channels)
            ]
        if rate != SAMPLE_RATE and mono:
            mono = _interpolate(mono, round(len(mono) * SAMPLE_RATE / rate))
        out = array.array("h", (int(max(-1.0, min(1.0, x)) * 32767) for x in mono))
        if sys.byteorder == "big":
            out.byteswap()
        return out.tobytes()

    return convert


def _interpolate(values: list[float], n_out: int) -> list[float]:
    """``n_out`` points spaced evenly from the first value to the last, read off the line
    through the neighbouring values (``np.interp`` over ``np.linspace(0, n - 1, n_out)``)."""
    last = len(values) - 1
    if n_out <= 0:
        return []
    if n_out == 1 or last == 0:
        return [values[0]] * n_out
    step = last / (n_out - 1)
    out = []
    for k in range(n_out):
        position = k * step
        i = min(int(position), last - 1)
        out.append(values[i] + (position - i) * (values[i + 1] - values[i]))
    return out


class Recorder(QObject):
    """One recording at a time into ``audio_dir``; see the module docstring for the signals."""

    level_changed = Signal(float)
    elapsed_changed = Signal(float)
    limit_reached = Signal()
    finished = Signal(object)
    failed = Signal(str)
    pcm = Signal(bytes)

    def __init__(
        self,
        audio_dir: Path,
        *,
        max_seconds: float,
        input_factory: AudioInputFactory | None = None,
        clock: Clock | None = None,
        stall_ms: int | None = 4000,
        open_wav: Callable[[Path], WavWriter] | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``open_wav``: how a recording's file is opened (``App.voice.wav_writer``)."""
        super().__init__(parent)
        self.audio_dir = Path(audio_dir)
        self.max_seconds = float(max_seconds)
        self.input_factory: AudioInputFactory = input_factory or QtAudioInput
        self._clock = clock or SystemClock()
        self._open_wav = open_wav or WavWriter
        self._input: AudioInput | None = None
        self._writer: WavWriter | None = None
        self._limit_bytes = int(self.max_seconds * BYTES_PER_SECOND)
        self._stall = QTimer(self)
        self._stall.setSingleShot(True)
        if stall_ms:
            self._stall.setInterval(stall_ms)
            self._stall.timeout.connect(self._on_stall)

    @property
    def recording(self) -> bool:
        return self._writer is not None

    @property
    def elapsed(self) -> float:
        return self._writer.seconds if self._writer else 0.0

    def start(self) -> None:
        """Open the microphone and start writing; raises ``AudioDeviceError`` when impossible."""
        if self.recording:
            return
        self._limit_bytes = int(self.max_seconds * BYTES_PER_SECOND)
        audio_input = self.input_factory()
        audio_input.chunk.connect(self._on_chunk)
        audio_input.failed.connect(self._on_input_failed)
        stamp = to_sydney(self._clock.now()).strftime("%Y%m%d-%H%M%S")
        path = self.audio_dir / f"dictation-{stamp}-{secrets.token_hex(3)}.wav"
        self._writer = self._open_wav(path)
        self._input = audio_input
        try:
            audio_input.start()
        except Exception:
            self._discard()
            raise
        if self._stall.interval() > 0:
            self._stall.start()
        self.elapsed_changed.emit(0.0)
        self.level_changed.emit(0.0)

    def stop(self) -> Path | None:
        """Finish the file and emit ``finished``; a too-short recording is discarded (None)."""
        if self._writer is None:
            return None
        self._close_input()
        writer, self._writer = self._writer, None
        writer.close()
        self.level_changed.emit(0.0)
        if writer.seconds < MIN_SECONDS:
            writer.path.unlink(missing_ok=True)
            self.failed.emit(
                QCoreApplication.translate(
                    "Recorder", "Too short — hold the button while you speak"
                )
            )
            return None
        self.finished.emit(writer.path)
        return writer.path

    def cancel(self) -> None:
        """Stop and throw the recording away (Esc)."""
        if self._writer is not None:
            self._discard()
            self.level_changed.emit(0.0)
            self.elapsed_changed.emit(0.0)

    # ---------------------------------------------------------------------------------------
    def _on_chunk(self, pcm: bytes) -> None:
        writer = self._writer
        if writer is None:
            return
        self._stall.stop()
        room = self._limit_bytes - writer.bytes_written
        piece = pcm[: max(0, room)]
        writer.write(piece)
        if piece:
            self.pcm.emit(piece)
        self.level_changed.emit(pcm_level(pcm))
        self.elapsed_changed.emit(writer.seconds)
        if writer.bytes_written >= self._limit_bytes:
            self.limit_reached.emit()
            self.stop()

    def _on_input_failed(self, message: str) -> None:
        writer = self._writer
        if writer is not None and writer.seconds >= MIN_SECONDS:
            self.stop()  # keep (and transcribe) what was said before the device failed
        else:
            self._discard()
        self.failed.emit(message)

    def _on_stall(self) -> None:
        if self._writer is not None and self._writer.bytes_written == 0:
            self._discard()
            self.failed.emit(
                QCoreApplication.translate(
                    "Recorder",
                    "No sound is coming from the microphone. Check that it is connected and "
                    "that microphone access is allowed in the system privacy settings.",
                )
            )

    def _close_input(self) -> None:
        self._stall.stop()
        audio_input, self._input = self._input, None
        if audio_input is not None:
            audio_input.chunk.disconnect(self._on_chunk)
            audio_input.failed.disconnect(self._on_input_failed)
            audio_input.stop()

    def _discard(self) -> None:
        self._close_input()
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()
            writer.path.unlink(missing_ok=True)
