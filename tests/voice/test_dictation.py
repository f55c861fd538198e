"""Dictation end to end: generated speech → recorder → real Whisper → text at the cursor."""

from __future__ import annotations

import wave
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QLineEdit, QPlainTextEdit
from pytestqt.qtbot import QtBot

from core.db.models import Inquiry, Memory
from core.inquiry.notes import add_voice_note
from core.services import Services
from core.voice.audio import read_pcm16k
from core.voice.transcriber import Transcriber
from desktop.voice.dictation import DictationButton, insert_at_cursor
from desktop.voice.recorder import GeneratedAudioInput
from tests.voice.speech import SENTENCES, word_error_rate
from tests.voice.test_recorder import MULTIMEDIA_NOISE

pytestmark = pytest.mark.slow
WAIT_MS = 90_000  # a slow shared CI core; warm tiny.en normally answers in ~1 s


class FakeTime:
    """Monotonic time moved by hand (press-and-hold vs click without sleeping)."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def speech_pcm(short_wav: Path) -> bytes:
    return read_pcm16k(short_wav)


def _button(services: Services, target, pcm: bytes, qtbot: QtBot, **kw):  # type: ignore[no-untyped-def]
    source = GeneratedAudioInput(pcm)
    time = FakeTime()
    button = DictationButton(
        services, target, audio_input_factory=lambda: source, monotonic=time, **kw
    )
    qtbot.addWidget(button)
    return button, source, time


def test_hold_to_talk_inserts_the_transcript_at_the_cursor(
    qtbot: QtBot, services: Services, whisper: Transcriber, speech_pcm: bytes
) -> None:
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    edit.setPlainText("Note:\nThanks.")
    cursor = edit.textCursor()
    cursor.setPosition(len("Note:"))
    edit.setTextCursor(cursor)
    button, source, time = _button(services, edit, speech_pcm, qtbot)

    qtbot.mousePress(button.button, Qt.MouseButton.LeftButton)
    assert button.state == "recording" and not button.level.isHidden()
    values: list[int] = []
    button.level.valueChanged.connect(values.append)
    source.push()  # the owner speaks while holding
    assert max(values) > 50  # the level meter moved with the speech
    seconds = int(len(speech_pcm) / 32000)
    assert button.status.text() == f"0:{seconds:02d} / 2:00"  # elapsed / maximum
    time.now += 4.0
    with qtbot.waitSignal(button.transcribed, timeout=WAIT_MS) as done:
        qtbot.mouseRelease(button.button, Qt.MouseButton.LeftButton)
        assert button.state == "transcribing"

    text = edit.toPlainText()
    assert text.startswith("Note: Please") and text.endswith("\nThanks.")
    inserted = text[len("Note: ") : -len("\nThanks.")]
    assert word_error_rate(SENTENCES[0], inserted) <= 0.15, inserted
    assert done.args == [inserted, ""]
    assert button.state == "idle"
    assert list(services.paths.audio.iterdir()) == []  # transcribed → the recording is gone
    edit.undo()
    assert edit.toPlainText() == "Note:\nThanks."  # one undo step removes the dictation


def test_click_to_toggle_and_f9_work_too(
    qtbot: QtBot, services: Services, whisper: Transcriber, speech_pcm: bytes
) -> None:
    line = QLineEdit()
    qtbot.addWidget(line)
    button, source, time = _button(services, line, speech_pcm, qtbot)

    qtbot.mouseClick(button.button, Qt.MouseButton.LeftButton)  # short click: keeps recording
    assert button.state == "recording"
    source.push(1.0)
    time.now += 0.1
    qtbot.mouseClick(button.button, Qt.MouseButton.LeftButton)  # second click: stop
    qtbot.waitUntil(lambda: button.state == "idle", timeout=WAIT_MS)

    line.clear()
    source2 = GeneratedAudioInput(speech_pcm)
    button.audio_input_factory = lambda: source2  # next recording: a fresh "microphone"
    line.setFocus()
    qtbot.keyPress(line, Qt.Key.Key_F9)
    assert button.state == "recording"
    source2.push()
    time.now += 3.0
    with qtbot.waitSignal(button.transcribed, timeout=WAIT_MS):
        qtbot.keyRelease(line, Qt.Key.Key_F9)  # held F9 = push-to-talk
    assert word_error_rate(SENTENCES[0], line.text()) <= 0.15, line.text()
    assert "F9" not in line.text()


def test_escape_discards_the_recording(
    qtbot: QtBot, services: Services, whisper: Transcriber, speech_pcm: bytes
) -> None:
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    button, source, _time = _button(services, edit, speech_pcm, qtbot)
    qtbot.keyPress(edit, Qt.Key.Key_F9)
    source.push(1.0)
    qtbot.keyPress(edit, Qt.Key.Key_Escape)
    assert button.state == "idle" and edit.toPlainText() == ""
    assert list(services.paths.audio.iterdir()) == []


def test_voice_note_keeps_the_recording_with_the_saved_transcript(
    qtbot: QtBot, services: Services, whisper: Transcriber, speech_pcm: bytes
) -> None:
    from datetime import datetime

    now = datetime(2026, 4, 1)

    def _add(session) -> int:  # type: ignore[no-untyped-def]
        inquiry = Inquiry(stage_changed_at=now, created_at=now, updated_at=now)
        session.add(inquiry)
        session.flush()
        return inquiry.id

    inquiry_id = services.store.write(_add)
    box = QPlainTextEdit()
    qtbot.addWidget(box)
    button, source, time = _button(services, box, speech_pcm, qtbot, keep_audio=True)
    qtbot.mousePress(button.button, Qt.MouseButton.LeftButton)
    source.push()
    time.now += 4
    with qtbot.waitSignal(button.transcribed, timeout=WAIT_MS) as done:
        qtbot.mouseRelease(button.button, Qt.MouseButton.LeftButton)
    text, audio = done.args
    assert Path(audio).is_file()
    # a second dictation into the same box: one note, one recording holding both
    source2 = GeneratedAudioInput(speech_pcm)
    button.audio_input_factory = lambda: source2
    qtbot.mousePress(button.button, Qt.MouseButton.LeftButton)
    source2.push()
    time.now += 4
    with qtbot.waitSignal(button.transcribed, timeout=WAIT_MS):
        qtbot.mouseRelease(button.button, Qt.MouseButton.LeftButton)
    box.appendPlainText("(edited)")  # the owner edits, then presses save
    note_audio = button.take_note_audio()
    assert note_audio is not None and button.take_note_audio() is None
    with wave.open(str(note_audio)) as wav:
        assert wav.getnframes() * 2 == 2 * len(speech_pcm)
    assert list(services.paths.audio.iterdir()) == [note_audio]
    note_id = add_voice_note(services, inquiry_id, box.toPlainText(), note_audio)
    with services.store.session() as session:
        note = session.get(Memory, note_id)
        assert note is not None and note.text.startswith(text) and note.text.endswith("(edited)")
        assert note.audio_path and services.home.joinpath(note.audio_path).is_file()


def test_missing_model_is_shown_and_nothing_is_recorded(
    qtbot: QtBot, services: Services, speech_pcm: bytes, tmp_path: Path
) -> None:
    services.settings.set("voice.model_dir", str(tmp_path / "no-model"))
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    button, source, _time = _button(services, edit, speech_pcm, qtbot)
    qtbot.mouseClick(button.button, Qt.MouseButton.LeftButton)
    assert button.state == "idle" and not source.started
    assert "语音模型文件夹不存在" in button.status.text()


def test_failed_transcription_keeps_the_recording_and_retry_works(
    qtbot: QtBot, services: Services, whisper: Transcriber, speech_pcm: bytes, tmp_path: Path
) -> None:
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    button, source, time = _button(services, edit, speech_pcm, qtbot)
    qtbot.mousePress(button.button, Qt.MouseButton.LeftButton)
    source.push()
    services.settings.set("voice.model_dir", str(tmp_path / "moved-away"))  # model vanished
    time.now += 4
    qtbot.mouseRelease(button.button, Qt.MouseButton.LeftButton)
    assert button.state == "idle" and "语音模型文件夹不存在" in button.status.text()
    assert not button.retry_button.isHidden()
    (kept,) = services.paths.audio.iterdir()

    services.settings.set("voice.model_dir", "")  # back to the bundled model
    with qtbot.waitSignal(button.transcribed, timeout=WAIT_MS):
        qtbot.mouseClick(button.retry_button, Qt.MouseButton.LeftButton)
    assert word_error_rate(SENTENCES[0], edit.toPlainText()) <= 0.15
    assert not kept.exists()


@pytest.mark.qt_log_ignore(*MULTIMEDIA_NOISE)
def test_no_microphone_shows_a_message_and_the_box_still_works(
    qtbot: QtBot, services: Services, whisper: Transcriber
) -> None:
    from PySide6.QtMultimedia import QMediaDevices

    if QMediaDevices.audioInputs():
        pytest.skip("this machine has a microphone")
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    button = DictationButton(services, edit)  # the real microphone path
    qtbot.addWidget(button)
    qtbot.mouseClick(button.button, Qt.MouseButton.LeftButton)
    assert button.state == "idle"
    assert "没有可用的麦克风或没有权限" in button.status.text()
    qtbot.keyClicks(edit, "typed by hand")
    assert edit.toPlainText() == "typed by hand"


def test_insertion_spacing_follows_the_language() -> None:
    line = QLineEdit("Hello")
    insert_at_cursor(line, "world")
    assert line.text() == "Hello world"
    line.setText("客户说")
    insert_at_cursor(line, "要推拉门")
    assert line.text() == "客户说要推拉门"
    edit = QPlainTextEdit("replace THIS please")
    cursor = edit.textCursor()
    cursor.setPosition(8)
    cursor.setPosition(12, QTextCursor.MoveMode.KeepAnchor)
    edit.setTextCursor(cursor)
    insert_at_cursor(edit, "that")
    assert edit.toPlainText() == "replace that please"


def test_maximum_length_from_settings_stops_and_escape_cancels_recognition(
    qtbot: QtBot, services: Services, whisper: Transcriber, speech_pcm: bytes
) -> None:
    services.settings.set("voice.max_seconds", 1)
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    button, source, _time = _button(services, edit, speech_pcm, qtbot)
    qtbot.mousePress(button.button, Qt.MouseButton.LeftButton)
    source.push()  # the owner keeps talking past the limit
    assert button.state == "transcribing"  # stopped by itself at 0:01
    assert source.stopped and source.remaining_seconds > 1
    qtbot.keyPress(edit, Qt.Key.Key_Escape)  # and changes his mind
    qtbot.waitUntil(lambda: button.state == "idle", timeout=WAIT_MS)
    qtbot.mouseRelease(button.button, Qt.MouseButton.LeftButton)
    assert edit.toPlainText() == ""
    assert button.status.text() == "Recognition cancelled; the recording is kept"
    assert not button.retry_button.isHidden() and len(list(services.paths.audio.iterdir())) == 1


def test_microphone_dying_at_once_returns_the_button_to_idle(
    qtbot: QtBot, services: Services, speech_pcm: bytes
) -> None:
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    button, source, _time = _button(services, edit, speech_pcm, qtbot)
    qtbot.mouseClick(button.button, Qt.MouseButton.LeftButton)
    assert button.state == "recording"
    source.failed.emit("The microphone failed or was unplugged; recording stopped.")
    assert button.state == "idle"
    assert button.status.text() == "The microphone failed or was unplugged; recording stopped."
    assert list(services.paths.audio.iterdir()) == []
