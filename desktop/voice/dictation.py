"""The push-to-talk button that sits beside every box taking an instruction or a note.

How the owner uses it (the WeChat habit, plus a keyboard):
- **Hold** the button (or F9 while the text box has focus), speak, release: the words appear at
  the cursor. **Click** (or tap F9) instead: recording continues until the next click/tap.
  Esc while recording throws the recording away.
- While recording: a level meter and ``0:07 / 2:00``; the maximum length stops it by itself.
- While he talks, the words recognised so far appear in a preview line under the box: the
  recording is transcribed at his pauses (``core.voice.live``), so after release only the last
  short piece remains. While that finishes: progress; clicking the button cancels.
- The transcript is *inserted for editing* at the cursor (replacing a selection, undoable with
  Ctrl+Z) and never sent or saved by itself. A low-confidence transcript is not inserted: it is
  shown with "Insert anyway" / "Discard". Chinese heard by the English-only model inserts nothing
  and opens a dialog offering the multilingual model (download or import); after it is installed
  "Retry" recognises the kept recording with it.
- No microphone, permission denied, a missing model: a Chinese sentence under the button; nothing
  else in the window is affected. A failed transcription keeps the recording and offers a retry.

Whisper runs on the transcriber's worker thread; results come back through a queued Qt signal,
so widgets only change on the UI thread. The model starts loading the moment recording starts,
so by the time the owner stops speaking it is usually warm.

Voice notes: construct with ``keep_audio=True`` beside a note box; its save handler calls
``take_note_audio()`` (the recordings behind the dictated text, joined into one WAV) and stores it
with ``core.inquiry.notes.add_voice_note``. Without ``keep_audio`` a recording is deleted once its
text is inserted.

Signals:
    transcribed(str text, str audio_path)  after insertion; ``audio_path`` is "" unless
                                           ``keep_audio`` (voice notes keep the recording)
    recording_changed(bool)
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QEvent
from PySide6.QtCore import Qt
from PySide6.QtCore import Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QMessageBox
from PySide6.QtWidgets import QProgressBar
from PySide6.QtWidgets import QPushButton
from PySide6.QtWidgets import QToolButton
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from core.app.types import ChineseNeedsMultilingualModel
from core.app.types import Dictation
from core.app.types import InquiryBridgeError
from core.app.types import Transcript
from core.app.types import TranscriptionCancelled
from desktop.i18n import current_language
from desktop.voice.dictation_icon import state_icon
from desktop.voice.insertion import Target
from desktop.voice.insertion import insert_at_cursor
from desktop.voice.live_preview import LivePreview
from desktop.voice.live_preview import WorkerBridge
from desktop.voice.live_preview import emit_from_worker
from desktop.voice.model_download import offer_multilingual_model
from desktop.voice.model_download import voice_of
from desktop.voice.note_audio import NoteAudio
from desktop.voice.push_to_talk import HOLD_SECONDS
from desktop.voice.push_to_talk import SHORTCUT
from desktop.voice.push_to_talk import PushToTalk
from desktop.voice.recorder import AudioInputFactory
from desktop.voice.recorder import Recorder
from desktop.voice.status_line import StatusLine

if TYPE_CHECKING:
    from core.app import FrontEnd

__all__ = ["HOLD_SECONDS", "SHORTCUT", "DictationButton", "Target", "insert_at_cursor"]

log = logging.getLogger(__name__)


class DictationButton(PushToTalk, LivePreview, StatusLine, NoteAudio, QWidget):
    transcribed = Signal(str, str)
    recording_changed = Signal(bool)

    def __init__(
        self,
        app: FrontEnd,
        target: Target,
        parent: QWidget | None = None,
        *,
        audio_input_factory: AudioInputFactory | None = None,
        keep_audio: bool = False,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(parent)
        self.voice = voice_of(app)  # an App; a bare Services still works (deprecated)
        self.target = target
        self.keep_audio = keep_audio
        self._monotonic = monotonic
        self._pressed_at: float | None = None
        self._started_by_this_press = False
        self._cancel_box: list[threading.Event | None] = [None]
        self._pending: Path | None = None  # recording awaiting (re)transcription
        self._future: Future[Transcript] | None = None
        self.last_audio_path: Path | None = None
        self._kept: list[Path] = []  # keep_audio: recordings behind the text now in the box
        self._live: Dictation | None = None
        self._uncertain: Transcript | None = None  # shown for confirmation, not yet inserted
        # the "download the multilingual model" dialog, when shown
        self.offer_box: QMessageBox | None = None
        self._maybe_chinese = False  # this recognition ran an English-only model in auto mode

        self.recorder = Recorder(
            self.voice.paths.audio,
            max_seconds=self.voice.settings.number("voice.max_seconds"),
            input_factory=audio_input_factory,
            clock=app.clock,
            open_wav=self.voice.wav_writer,
            parent=self,
        )
        self._bridge = WorkerBridge(self)

        self._build_widgets()
        self._connect_signals()
        target.installEventFilter(self)
        # closing the window mid-transcription stops the worker at the next segment
        box = self._cancel_box

        def cancel_worker(*_: object) -> None:
            if box[0] is not None:
                box[0].set()

        self.destroyed.connect(cancel_worker)

        self._state = "idle"
        self.retranslate()
        self._set_status("")

    def _build_widgets(self) -> None:
        """The button, level meter, status, retry, preview and the confirm/discard pair."""
        self.button = QPushButton(self)
        self.button.setObjectName("dictationButton")
        self.button.setAutoDefault(False)
        self.button.setCheckable(False)
        self.level = QProgressBar(self)
        self.level.setRange(0, 100)
        self.level.setTextVisible(False)
        self.level.setFixedHeight(6)
        self.level.setMaximumWidth(140)
        self.level.setVisible(False)
        self.status = QLabel(self)
        self.status.setObjectName("dictationStatus")
        self.status.setWordWrap(True)
        self.retry_button = QToolButton(self)
        self.retry_button.setVisible(False)
        self.preview = QLabel(self)
        self.preview.setObjectName("dictationPreview")
        self.preview.setWordWrap(True)
        self.preview.setStyleSheet("color: palette(mid); font-style: italic;")
        self.preview.setVisible(False)
        self.confirm_button = QToolButton(self)
        self.confirm_button.setVisible(False)
        self.discard_button = QToolButton(self)
        self.discard_button.setVisible(False)
        self.offer_button = QToolButton(self)  # "maybe Chinese": the multilingual-model offer
        self.offer_button.setVisible(False)

        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.button)
        row.addWidget(self.level)
        row.addWidget(self.retry_button)
        row.addWidget(self.confirm_button)
        row.addWidget(self.discard_button)
        row.addWidget(self.offer_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.status)
        layout.addWidget(self.preview)

    def _connect_signals(self) -> None:
        self.button.pressed.connect(self._on_pressed)
        self.button.released.connect(self._on_released)
        self.retry_button.clicked.connect(self.retry)
        self.confirm_button.clicked.connect(self.insert_uncertain)
        self.discard_button.clicked.connect(self.discard_uncertain)
        self.offer_button.clicked.connect(self._offer_model)
        self.recorder.pcm.connect(self._feed_live)
        self.recorder.level_changed.connect(lambda v: self.level.setValue(int(v * 100)))
        self.recorder.elapsed_changed.connect(self._show_elapsed)
        self.recorder.finished.connect(self._on_recorded)
        self.recorder.failed.connect(self._on_recorder_failed)
        self.recorder.limit_reached.connect(self._on_limit)
        self._bridge.done.connect(self._on_done)
        self._bridge.progress.connect(self._on_progress)
        self._bridge.partial.connect(self._on_partial)

    # -- public ------------------------------------------------------------------------------
    @property
    def state(self) -> str:
        """``idle`` | ``recording`` | ``transcribing``."""
        return self._state

    @property
    def audio_input_factory(self) -> AudioInputFactory:
        """Where the next recording comes from (the microphone unless a test/demo swaps it)."""
        return self.recorder.input_factory

    @audio_input_factory.setter
    def audio_input_factory(self, factory: AudioInputFactory) -> None:
        self.recorder.input_factory = factory

    def start_recording(self) -> bool:
        if self._state != "idle":
            return False
        self._clear_status()
        self._clear_uncertain()
        try:
            transcriber = self.voice.transcriber()
            transcriber.warm_up()  # load while the owner speaks
        except InquiryBridgeError as exc:
            self._show_error(exc.user_message(_lang()))
            return False
        self.recorder.max_seconds = float(self.voice.settings.number("voice.max_seconds"))
        bridge = self._bridge
        live = self.voice.live(
            transcriber, on_partial=lambda text: emit_from_worker(bridge, "partial", text)
        )
        self._live = live
        try:
            self.recorder.start()
        except InquiryBridgeError as exc:
            self._drop_live()
            self._show_error(exc.user_message(_lang()))
            return False
        self._set_state("recording")
        return True

    def stop_recording(self) -> None:
        if self._state == "recording":
            self.recorder.stop()  # → finished → transcription, or failed (too short)
            if self._state == "recording":
                self._set_state("idle")

    def cancel(self) -> None:
        """Esc: drop the recording, or stop a running transcription (the file is kept)."""
        if self._state == "recording":
            self.recorder.cancel()
            self._drop_live()
            self._set_state("idle")
            self._set_status(self.tr("Recording discarded"))
        elif self._state == "transcribing" and self._cancel_box[0] is not None:
            self._cancel_box[0].set()

    def retry(self) -> None:
        if self._pending is not None and self._pending.is_file() and self._state == "idle":
            self._transcribe(self._pending)

    def insert_uncertain(self) -> None:
        """ "Insert anyway": the owner read the uncertain transcript and wants it."""
        result, self._uncertain = self._uncertain, None
        self._clear_uncertain()
        if result is not None:
            self._insert(result)

    def discard_uncertain(self) -> None:
        self._uncertain = None
        self._clear_uncertain()
        path, self._pending = self._pending, None
        self._discard_audio(path)
        self._set_status(self.tr("Discarded"))

    # -- recording ---------------------------------------------------------------------------
    def _on_recorder_failed(self, message: str) -> None:
        if not self.recorder.recording and self._state == "recording":
            self._drop_live()  # too short, or the device died: no dictation to finish
        if self._state == "recording" and not self.recorder.recording:
            self._set_state("idle")  # the device died or never delivered sound
        if self._state == "transcribing":
            log.warning("microphone: %s", message)  # what was said is being recognised
            return
        self._show_error(message)

    def _on_limit(self) -> None:
        log.info("dictation stopped at the maximum length")

    def _on_recorded(self, path: Path) -> None:
        self.last_audio_path = path
        live, self._live = self._live, None
        self._transcribe(path, live)

    # -- transcription -----------------------------------------------------------------------
    def _transcribe(self, path: Path, live: Dictation | None = None) -> None:
        """Finish the live dictation (release), or recognise the kept file again (retry)."""
        self._pending = path
        self.retry_button.setVisible(False)
        try:
            transcriber = self.voice.transcriber()
        except InquiryBridgeError as exc:
            if live is not None:
                live.cancel()
            self._set_state("idle")
            self._show_error(exc.user_message(_lang()), retry=True)
            return
        # an English-only model asked for any language: an unsure result may be Chinese speech
        self._maybe_chinese = not transcriber.multilingual and transcriber.wanted_language() != "en"
        self._set_state("transcribing")
        self._set_status(self.tr("Recognising…"))
        bridge = self._bridge
        if live is not None and live.transcriber is transcriber:
            self._cancel_box[0] = live.cancel_event
            future = live.finish()
        else:
            if live is not None:
                live.cancel()  # the model changed while he spoke: recognise the file instead
            cancel = self._cancel_box[0] = threading.Event()

            def progress(fraction: float, _text: str) -> None:
                emit_from_worker(bridge, "progress", fraction)

            future = transcriber.submit(path, progress=progress, cancel=cancel)
        self._future = future

        def finished(fut: Future[Transcript]) -> None:
            exc = fut.exception()
            emit_from_worker(bridge, "done", None if exc else fut.result(), exc)

        future.add_done_callback(finished)

    def _on_progress(self, fraction: float) -> None:
        if self._state == "transcribing":
            self._set_status(self.tr("Recognising… %1%").replace("%1", str(int(fraction * 100))))

    def _on_done(self, result: Transcript | None, error: BaseException | None) -> None:
        self._future, self._cancel_box[0] = None, None
        self._set_state("idle")
        self._show_preview("")
        if isinstance(error, TranscriptionCancelled):
            self._set_status(self.tr("Recognition cancelled; the recording is kept"))
            self.retry_button.setVisible(True)
            return
        if isinstance(error, ChineseNeedsMultilingualModel):
            self._show_error(
                self.tr("The current voice model only understands English; nothing was inserted."),
                retry=True,
            )
            self._offer_model()
            return
        if error is not None:
            message = (
                error.user_message(_lang())
                if isinstance(error, InquiryBridgeError)
                else self.tr("Recognition failed: %1").replace("%1", str(error))
            )
            if not isinstance(error, InquiryBridgeError):
                log.error("transcription crashed", exc_info=error)
            self._show_error(message, retry=True)
            return
        assert result is not None
        if not result.text.strip():
            path, self._pending = self._pending, None
            self._discard_audio(path)
            self._show_error(self.tr("No speech was heard — please try again"))
            return
        if result.uncertain:
            self._uncertain = result
            if self._maybe_chinese:  # the model cannot tell Chinese from unclear English
                self._set_status(
                    self.tr(
                        "Not sure this was heard right. If you spoke Chinese: the current voice "
                        "model only understands English, nothing was inserted."
                    ),
                    error=True,
                )
                self.offer_button.setVisible(True)
            else:
                self._set_status(self.tr("Not sure this was heard right — check it:"), error=True)
            self._show_preview(result.text)
            self.confirm_button.setVisible(True)
            self.discard_button.setVisible(True)
            return
        self._insert(result)

    def _offer_model(self) -> None:
        """The download (or import) of a model that understands Chinese; the recording is kept
        so 重试 recognises it again with the new model."""
        self.offer_button.setVisible(False)
        self.retry_button.setVisible(self._pending is not None)
        self.offer_box = offer_multilingual_model(self.voice, self.window())

    def _insert(self, result: Transcript) -> None:
        path, self._pending = self._pending, None
        if shiboken6.isValid(self.target):
            insert_at_cursor(self.target, result.text)
            self.target.setFocus(Qt.FocusReason.OtherFocusReason)
        kept = ""
        if self.keep_audio and path is not None:
            kept = str(path)
            self._kept.append(path)
        else:
            self._discard_audio(path)
        self._set_status(self.tr("Inserted — edit it before sending or saving"))
        self.transcribed.emit(result.text, kept)

    # -- display -----------------------------------------------------------------------------
    def _show_click_again(self) -> None:
        """A short press started click-to-toggle recording: say how to finish it."""
        self._set_status(self.tr("Recording… click again (or F9) to finish"))

    def retranslate(self) -> None:
        key = QKeySequence(SHORTCUT).toString(QKeySequence.SequenceFormat.NativeText)
        labels = {
            "idle": self.tr("Hold to talk"),
            "recording": self.tr("Release to finish"),
            "transcribing": self.tr("Cancel"),
        }
        self.button.setText(labels[self._state])
        self.button.setIcon(state_icon(self._state))
        self.button.setToolTip(
            self.tr(
                "Hold to speak and release to finish, or click once to start and again to stop.\n"
                "Shortcut: %1 in the text box. Esc discards the recording.\n"
                "The words are inserted at the cursor for you to edit."
            ).replace("%1", key)
        )
        self.retry_button.setText(self.tr("Retry"))
        self.retry_button.setToolTip(self.tr("Recognise the kept recording again"))
        self.confirm_button.setText(self.tr("Insert anyway"))
        self.discard_button.setText(self.tr("Discard"))
        self.offer_button.setText(self.tr("Download the Chinese voice model…"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)


def _lang() -> str:
    return current_language()
