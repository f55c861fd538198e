"""The dictation button with live transcription, uncertainty and the multilingual-model offer."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QPlainTextEdit
from pytestqt.qtbot import QtBot

from core.services import Services
from core.voice.audio import read_pcm16k
from core.voice.download import RECOMMENDED, models_dir
from core.voice.models import bundled_model_dir
from core.voice.transcriber import Transcriber
from desktop.voice.dictation import DictationButton
from desktop.voice.model_download import ModelDownloadDialog
from desktop.voice.recorder import GeneratedAudioInput
from tests.support.hub_server import HubServer
from tests.voice.speech import SENTENCES, word_error_rate
from tests.voice.test_dictation import WAIT_MS, FakeTime

pytestmark = pytest.mark.slow


def _button(services: Services, qtbot: QtBot, pcm: bytes):  # type: ignore[no-untyped-def]
    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    source = GeneratedAudioInput(pcm)
    time = FakeTime()
    button = DictationButton(services, edit, audio_input_factory=lambda: source, monotonic=time)
    qtbot.addWidget(button)
    return button, edit, source, time


def test_partial_text_shows_while_he_talks_and_the_rest_follows_release(
    qtbot: QtBot, services: Services, whisper: Transcriber, sentences_wav: Path
) -> None:
    pcm = read_pcm16k(sentences_wav)
    button, edit, source, time = _button(services, qtbot, pcm)
    qtbot.mousePress(button.button, Qt.MouseButton.LeftButton)
    while source.remaining_seconds > 3.5:  # he is still talking
        source.push(0.5)
        whisper.run(lambda: None).result(timeout=60)  # the worker keeps up, as in real time
        qtbot.wait(1)  # deliver the queued partial-text signal
    assert button.state == "recording"
    assert not button.preview.isHidden() and button.preview.text().startswith("Please send")
    assert edit.toPlainText() == ""  # nothing in the box until he lets go
    source.push()
    time.now += 10
    with qtbot.waitSignal(button.transcribed, timeout=WAIT_MS):
        qtbot.mouseRelease(button.button, Qt.MouseButton.LeftButton)
    assert word_error_rate(" ".join(SENTENCES), edit.toPlainText()) <= 0.15, edit.toPlainText()
    assert button.preview.isHidden()


def test_uncertain_transcript_is_shown_not_inserted(
    qtbot: QtBot, services: Services, whisper: Transcriber, mandarin_wav: Path
) -> None:
    services.settings.set("voice.language", "en")  # he forced English; then spoke Chinese
    button, edit, source, time = _button(services, qtbot, read_pcm16k(mandarin_wav))
    qtbot.mousePress(button.button, Qt.MouseButton.LeftButton)
    source.push()
    time.now += 5
    qtbot.mouseRelease(button.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: button.state == "idle", timeout=WAIT_MS)
    assert edit.toPlainText() == ""
    assert button.status.text().startswith("Not sure this was heard right")
    assert button.offer_box is None and button.offer_button.isHidden()  # English was his choice
    shown = button.preview.text()
    assert shown and not button.preview.isHidden() and not button.confirm_button.isHidden()
    with qtbot.waitSignal(button.transcribed, timeout=30_000):
        button.confirm_button.click()  # "Insert anyway"
    assert edit.toPlainText() == shown and button.confirm_button.isHidden()


@pytest.mark.qt_log_ignore("does not support propagateSizeHints")  # offscreen dialogs
def test_chinese_to_the_english_model_offers_the_download_which_then_serves_the_retry(
    qtbot: QtBot,
    services: Services,
    whisper: Transcriber,
    mandarin_wav: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    button, edit, source, time = _button(services, qtbot, read_pcm16k(mandarin_wav))
    qtbot.mousePress(button.button, Qt.MouseButton.LeftButton)
    source.push()
    time.now += 5
    qtbot.mouseRelease(button.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: button.state == "idle", timeout=WAIT_MS)
    assert edit.toPlainText() == ""  # never a transcript
    assert "only understands English" in button.status.text(), button.status.text()
    if button.offer_box is None:
        # tiny.en's noise from Mandarin differs with the CPU's kernels: when it was only unsure,
        # the offer waits beside the shown transcript instead of popping up
        assert not button.offer_button.isHidden() and not button.confirm_button.isHidden()
        button.offer_button.click()
    box: QMessageBox = button.offer_box
    assert box.isVisible() and "486 MB" in box.text() and RECOMMENDED.name in box.text()

    published = tmp_path / "published"
    bundled = bundled_model_dir()
    assert bundled is not None
    shutil.copytree(bundled, published)
    with HubServer() as hub:
        hub.add_folder(RECOMMENDED.repo_id, published)
        monkeypatch.setenv("HF_ENDPOINT", hub.endpoint)
        box.property("download_button").click()
        dialog = next(w for w in box.parent().findChildren(ModelDownloadDialog))
        with qtbot.waitSignal(dialog.installed, timeout=WAIT_MS):
            pass
    installed = models_dir(services.home) / "faster-whisper-small"
    assert services.settings.get("voice.model_dir") == str(installed)
    assert dialog.bar.value() == 1000 and "now used for dictation" in dialog.message.text()
    assert not button.retry_button.isHidden()  # the recording was kept for another try


@pytest.mark.qt_log_ignore("does not support propagateSizeHints")  # offscreen dialogs
def test_an_unsure_transcript_from_the_english_model_offers_the_chinese_model_beside_it(
    qtbot: QtBot,
    services: Services,
    whisper: Transcriber,
    mandarin_wav: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where tiny.en's noise is only unsure, not plainly foreign (it varies with the CPU), he
    still learns that Chinese needs another model; the text waits unshown in the box."""
    from core.voice import confidence

    monkeypatch.setattr(confidence, "looks_foreign", lambda scores: False)
    button, edit, source, time = _button(services, qtbot, read_pcm16k(mandarin_wav))
    qtbot.mousePress(button.button, Qt.MouseButton.LeftButton)
    source.push()
    time.now += 5
    qtbot.mouseRelease(button.button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: button.state == "idle", timeout=WAIT_MS)
    assert edit.toPlainText() == "" and button.offer_box is None  # no pop-up for an unsure one
    assert "only understands English" in button.status.text()
    assert not button.confirm_button.isHidden() and not button.offer_button.isHidden()
    button.offer_button.click()
    box: QMessageBox = button.offer_box
    assert box.isVisible() and RECOMMENDED.name in box.text()
    assert button.offer_button.isHidden() and not button.retry_button.isHidden()
