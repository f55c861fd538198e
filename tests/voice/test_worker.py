"""Whisper runs in the App's child process (#28): the real tiny.en model through ``App.voice``.

The App's own process must never load faster-whisper, CTranslate2, PyAV or numpy (their native
imports held the GIL and stalled the event loop 134–174 ms on a cold cache), a file note and a
live dictation still come back right, and a killed child costs one clear Chinese error for the
note it held, after which the next note works in a new child.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core.voice.worker import CRASHED
from tests.voice.speech import SENTENCES, word_error_rate

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def probed(sentences_wav: Path, short_wav: Path) -> dict[str, Any]:
    """One fresh interpreter running ``tests/voice/child_probe.py`` (see its docstring)."""
    done = subprocess.run(
        [
            *(sys.executable, "-m", "tests.voice.child_probe"),
            *(str(short_wav), str(short_wav), str(sentences_wav)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_note_and_a_live_dictation_are_transcribed_in_the_child(
    probed: dict[str, Any],
) -> None:
    assert word_error_rate(SENTENCES[0], probed["note"]) <= 0.15, probed["note"]
    assert word_error_rate(SENTENCES[0], probed["live"]) <= 0.15, probed["live"]
    assert probed["telegram_uses_it"]  # the bot's voice notes go the same way
    assert probed["children"] == 1  # kept warm: one child for both


def test_the_app_process_never_imports_whisper_or_its_native_stack(
    probed: dict[str, Any],
) -> None:
    assert probed["heavy_modules"] == []  # level meter and device format converter included
    assert probed["level"] > 0.0
    assert probed["converted"] == 3200  # and a device format converted, 100 ms of 16 kHz s16
    assert probed["heavy_modules_at_end"] == []


def test_a_killed_child_fails_its_note_clearly_and_the_next_note_works(
    probed: dict[str, Any],
) -> None:
    assert CRASHED in probed["killed"]
    assert word_error_rate(SENTENCES[0], probed["retry"]) <= 0.15, probed["retry"]
    assert probed["children_after_retry"] == 2  # a new child took the retry


def test_the_desktop_dictation_of_an_app_goes_through_its_child(
    qtbot: Any, services: Any, short_wav: Path
) -> None:
    """Hold to talk over an ``App``: the live dictation runs in the App's child, the text lands
    at the cursor, and the widget's transcriber is the remote one (not this process's model)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QPlainTextEdit

    from core.app import App
    from core.voice.audio import read_pcm16k
    from core.voice.worker import RemoteTranscriber
    from desktop.voice.dictation import DictationButton
    from desktop.voice.recorder import GeneratedAudioInput
    from tests.voice.test_dictation import WAIT_MS, FakeTime

    app = App(services)
    try:
        edit = QPlainTextEdit()
        qtbot.addWidget(edit)
        source, clock = GeneratedAudioInput(read_pcm16k(short_wav)), FakeTime()
        button = DictationButton(app, edit, audio_input_factory=lambda: source, monotonic=clock)
        qtbot.addWidget(button)
        qtbot.mousePress(button.button, Qt.MouseButton.LeftButton)
        source.push()
        clock.now += 6.0
        with qtbot.waitSignal(button.transcribed, timeout=WAIT_MS):
            qtbot.mouseRelease(button.button, Qt.MouseButton.LeftButton)
        assert word_error_rate(SENTENCES[0], edit.toPlainText()) <= 0.15, edit.toPlainText()
        assert isinstance(button.voice.transcriber(), RemoteTranscriber)
        assert app.voice._process is not None and app.voice._process.started == 1
    finally:
        app.voice.close()
