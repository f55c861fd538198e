"""The dictation button's link to the worker thread, and its live preview line.

Whisper runs on the transcriber's worker thread; ``WorkerBridge`` carries its results to the UI
thread through queued signals (``emit_from_worker`` survives the widget being closed meanwhile).
While the owner talks, the recording is recognised at his pauses (``core.voice.live``) and the
words so far appear in the preview line under the box (``LivePreview``, mixed into
``DictationButton``); the same line shows an uncertain transcript awaiting his confirmation.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QObject
from PySide6.QtCore import Signal

if TYPE_CHECKING:
    from PySide6.QtWidgets import QLabel
    from PySide6.QtWidgets import QToolButton

    from core.app.types import Dictation


class WorkerBridge(QObject):
    """Carries worker-thread results to the UI thread (queued connections)."""

    done = Signal(object, object)  # (Transcript | None, BaseException | None)
    progress = Signal(float)
    partial = Signal(str)  # live dictation: everything recognised so far


def emit_from_worker(bridge: WorkerBridge, name: str, *args: object) -> None:
    """Emit from the worker thread; the widget may have been closed meanwhile."""
    if shiboken6.isValid(bridge):
        with contextlib.suppress(RuntimeError):  # deleted between the check and the emit
            getattr(bridge, name).emit(*args)


class LivePreview:
    """Feeding the live dictation and showing what it heard so far (a mixin of the button)."""

    preview: QLabel
    confirm_button: QToolButton
    discard_button: QToolButton
    offer_button: QToolButton
    _live: Dictation | None
    _state: str

    def _feed_live(self, pcm: bytes) -> None:
        if self._live is not None:
            self._live.feed(pcm)

    def _drop_live(self) -> None:
        live, self._live = self._live, None
        if live is not None:
            live.cancel()
        self._show_preview("")

    def _on_partial(self, text: str) -> None:
        if self._state in ("recording", "transcribing"):
            self._show_preview(text)

    def _show_preview(self, text: str) -> None:
        self.preview.setText(text)
        self.preview.setVisible(bool(text))

    def _clear_uncertain(self) -> None:
        """Hide an uncertain transcript and its "Insert anyway" / "Discard" / offer buttons."""
        self.confirm_button.setVisible(False)
        self.discard_button.setVisible(False)
        self.offer_button.setVisible(False)
        self._show_preview("")
