"""The dictation button's state and the status line under it (a mixin of the button).

The state (``idle`` | ``recording`` | ``transcribing``) drives the level meter, the button's
label and icon (``retranslate``) and ``recording_changed``; the status line shows the recording
clock, progress and errors (red; with "Retry" when a recording is kept to recognise again).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from desktop.look import set_tone
from desktop.voice.dictation_icon import format_clock

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QLabel
    from PySide6.QtWidgets import QProgressBar
    from PySide6.QtWidgets import QPushButton
    from PySide6.QtWidgets import QToolButton

    from desktop.voice.recorder import Recorder


class StatusLine:
    """State changes and what the status line says."""

    button: QPushButton
    level: QProgressBar
    status: QLabel
    retry_button: QToolButton
    recorder: Recorder
    recording_changed: SignalInstance  # Signal(bool) of DictationButton
    _state: str
    _pending: Path | None

    if TYPE_CHECKING:  # provided by DictationButton

        def retranslate(self) -> None: ...

    def _set_state(self, state: str) -> None:
        was_recording = self._state == "recording"
        self._state = state
        self.level.setVisible(state == "recording")
        if state != "recording":
            self.level.setValue(0)
        self.button.setProperty("state", state)
        self.retranslate()
        if was_recording != (state == "recording"):
            self.recording_changed.emit(state == "recording")

    def _set_status(self, text: str, *, error: bool = False) -> None:
        self.status.setText(text)
        set_tone(self.status, "error" if error else "muted")
        self.status.setVisible(bool(text))

    def _clear_status(self) -> None:
        self.retry_button.setVisible(False)
        self._set_status("")

    def _show_error(self, message: str, *, retry: bool = False) -> None:
        self._set_status(message, error=True)
        self.retry_button.setVisible(retry and self._pending is not None)

    def _show_elapsed(self, seconds: float) -> None:
        if self._state == "recording":
            self._set_status(f"{format_clock(seconds)} / {format_clock(self.recorder.max_seconds)}")
