"""The recorder with a generated audio buffer in place of a microphone (and the real, absent one)."""

from __future__ import annotations

import wave
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from core.clock import FakeClock
from core.errors import AudioDeviceError
from core.voice.audio import pcm_seconds, read_pcm16k
from desktop.voice.recorder import GeneratedAudioInput, QtAudioInput, Recorder

MULTIMEDIA_NOISE = (
    r"Couldn't (load|resolve) .*",  # optional PipeWire / VA-API libraries probed by QtMultimedia
    r"PulseAudioService: pa_context_connect\(\) failed",  # no sound server on CI
    r"No audio device detected",
    r"Using Qt multimedia with FFmpeg.*",
)


@pytest.fixture(scope="module")
def speech_pcm(short_wav: Path) -> bytes:
    return read_pcm16k(short_wav)


def _recorder(tmp_path: Path, source: object, max_seconds: float = 60) -> Recorder:
    return Recorder(
        tmp_path / "audio",
        max_seconds=max_seconds,
        input_factory=lambda: source,  # type: ignore[arg-type,return-value]
        clock=FakeClock(),
        stall_ms=None,
    )


def test_speech_is_written_to_a_wav_file_with_a_moving_level_meter(
    qtbot: QtBot, tmp_path: Path, speech_pcm: bytes
) -> None:
    source = GeneratedAudioInput(speech_pcm)
    recorder = _recorder(tmp_path, source)
    levels: list[float] = []
    elapsed: list[float] = []
    recorder.level_changed.connect(levels.append)
    recorder.elapsed_changed.connect(elapsed.append)

    recorder.start()
    assert recorder.recording and source.started
    source.push()
    with qtbot.waitSignal(recorder.finished, timeout=30_000) as finished:
        path = recorder.stop()

    assert finished.args == [path] and path is not None and path.parent == tmp_path / "audio"
    assert path.name.startswith("dictation-20260401-")  # named by the (Sydney) clock
    with wave.open(str(path)) as wav:
        assert (wav.getframerate(), wav.getnchannels(), wav.getsampwidth()) == (16000, 1, 2)
        assert wav.getnframes() * 2 == len(speech_pcm)
    assert elapsed[-1] == pytest.approx(pcm_seconds(len(speech_pcm)))
    assert elapsed == sorted(elapsed)
    spoken = [lv for lv in levels if lv > 0]
    assert max(spoken) > 0.5  # speech shows on the meter
    assert len({round(lv, 2) for lv in spoken}) > 5  # and it moves, syllable by syllable
    assert levels[-1] == 0.0  # the meter drops when recording stops
    assert source.stopped and not recorder.recording


def test_maximum_length_stops_the_recording_by_itself(
    qtbot: QtBot, tmp_path: Path, speech_pcm: bytes
) -> None:
    source = GeneratedAudioInput(speech_pcm)
    recorder = _recorder(tmp_path, source, max_seconds=1)
    recorder.start()
    with qtbot.waitSignals([recorder.limit_reached, recorder.finished], timeout=30_000):
        source.push()
    assert not recorder.recording and source.stopped
    assert source.remaining_seconds > 1  # the rest of the buffer was never taken
    (path,) = (tmp_path / "audio").iterdir()
    with wave.open(str(path)) as wav:
        assert wav.getnframes() == 16000


def test_an_accidental_click_is_discarded(qtbot: QtBot, tmp_path: Path, speech_pcm: bytes) -> None:
    source = GeneratedAudioInput(speech_pcm)
    recorder = _recorder(tmp_path, source)
    recorder.start()
    source.push(0.1)
    with qtbot.waitSignal(recorder.failed, timeout=30_000) as failed:
        assert recorder.stop() is None
    assert "Too short" in failed.args[0]
    assert list((tmp_path / "audio").iterdir()) == []


def test_cancel_throws_the_recording_away(tmp_path: Path, speech_pcm: bytes) -> None:
    source = GeneratedAudioInput(speech_pcm)
    recorder = _recorder(tmp_path, source)
    recorder.start()
    source.push(1.0)
    recorder.cancel()
    assert not recorder.recording and source.stopped
    assert list((tmp_path / "audio").iterdir()) == []


def test_device_failure_mid_recording_keeps_what_was_said(
    qtbot: QtBot, tmp_path: Path, speech_pcm: bytes
) -> None:
    source = GeneratedAudioInput(speech_pcm)
    recorder = _recorder(tmp_path, source)
    recorder.start()
    source.push(1.5)
    with qtbot.waitSignals([recorder.finished, recorder.failed], timeout=30_000):
        source.failed.emit("unplugged")
    (path,) = (tmp_path / "audio").iterdir()
    with wave.open(str(path)) as wav:
        assert wav.getnframes() == 24000


def test_a_silent_device_is_reported_not_recorded_forever(qtbot: QtBot, tmp_path: Path) -> None:
    source = GeneratedAudioInput(b"")
    recorder = Recorder(
        tmp_path / "audio", max_seconds=60, input_factory=lambda: source, stall_ms=50
    )
    recorder.start()
    with qtbot.waitSignal(recorder.failed, timeout=30000) as failed:
        pass
    assert "No sound is coming from the microphone" in failed.args[0]
    assert not recorder.recording and list((tmp_path / "audio").iterdir()) == []


class _RefusingInput(GeneratedAudioInput):
    def start(self) -> None:
        raise AudioDeviceError("denied")


def test_a_refusing_device_leaves_no_file(tmp_path: Path) -> None:
    recorder = _recorder(tmp_path, _RefusingInput(b""))
    with pytest.raises(AudioDeviceError):
        recorder.start()
    assert not recorder.recording and list((tmp_path / "audio").iterdir()) == []


@pytest.mark.qt_log_ignore(*MULTIMEDIA_NOISE)
def test_no_microphone_is_a_clear_error(qtbot: QtBot) -> None:
    from PySide6.QtMultimedia import QMediaDevices

    if QMediaDevices.audioInputs():
        pytest.skip("this machine has a microphone")
    with pytest.raises(AudioDeviceError) as info:
        QtAudioInput().start()
    assert info.value.user_message().startswith("没有可用的麦克风或没有权限：No microphone found")


@pytest.mark.parametrize(
    ("dtype", "code", "channels", "rate", "scale", "offset"),
    [
        ("<f4", "f", 2, 48_000, 1.0, 0.0),  # a Windows device's usual shared-mode format
        ("<i2", "h", 1, 44_100, 32768.0, 0.0),
        ("<i4", "i", 2, 48_000, 2147483648.0, 0.0),
        ("u1", "B", 1, 8_000, 128.0, 128.0),
        ("<i2", "h", 2, 16_000, 32768.0, 0.0),  # channels only, no resampling
    ],
)
def test_the_device_format_converter_matches_the_numpy_one_it_replaced(
    dtype: str, code: str, channels: int, rate: int, scale: float, offset: float
) -> None:
    """The converter is pure Python (numpy's import stalled the UI thread at the first chunk,
    #28); it gives what the numpy version gave, to one step of 16-bit rounding."""
    import numpy as np

    from desktop.voice.recorder import pcm_converter

    t = np.arange(rate // 10 * channels) / (rate * channels)  # one 100 ms chunk, interleaved
    wave_ = 0.6 * np.sin(2 * np.pi * 440 * t) + 0.3 * np.sin(2 * np.pi * 97 * t + 1.0)
    raw = (wave_ * scale + offset).clip(np.iinfo(dtype).min if dtype != "<f4" else -1, None)
    whole = raw.astype(dtype).tobytes()
    data = whole + b"\x01" if np.dtype(dtype).itemsize * channels > 1 else whole  # torn: dropped
    samples = (np.frombuffer(whole, dtype=dtype).astype(np.float32) - offset) / scale
    mono = samples.reshape(-1, channels).mean(axis=1)
    if rate != 16_000:
        n_out = round(len(mono) * 16_000 / rate)
        positions = np.linspace(0, len(mono) - 1, n_out)
        mono = np.interp(positions, np.arange(len(mono)), mono).astype(np.float32)
    expected = np.frombuffer((np.clip(mono, -1.0, 1.0) * 32767).astype("<i2").tobytes(), "<i2")

    got = np.frombuffer(pcm_converter(code, channels, rate, scale, offset)(data), "<i2")
    assert len(got) == len(expected) == 1600
    assert int(np.abs(got.astype(np.int32) - expected.astype(np.int32)).max()) <= 1
