"""Push-to-talk on the dictation button and on F9 in the text box (a mixin of the button).

**Hold** (longer than ``HOLD_SECONDS``) and release: the release ends the recording. **Click** (or
tap F9): recording continues until the next click/tap. Pressing while recognising cancels it; Esc
while recording or recognising cancels too. F9 is claimed only while the text box has focus.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent
from PySide6.QtCore import QObject
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent

if TYPE_CHECKING:
    from desktop.voice.insertion import Target

SHORTCUT = Qt.Key.Key_F9
HOLD_SECONDS = 0.4  # pressed longer than this = push-to-talk; shorter = click to toggle


class PushToTalk:
    """Turns presses and releases (mouse or F9) into start/stop/cancel of the recording."""

    target: Target
    _state: str
    _monotonic: Callable[[], float]
    _pressed_at: float | None
    _started_by_this_press: bool

    if TYPE_CHECKING:  # provided by DictationButton

        def start_recording(self) -> bool: ...
        def stop_recording(self) -> None: ...
        def cancel(self) -> None: ...
        def _show_click_again(self) -> None: ...

    def _on_pressed(self) -> None:
        self._press()

    def _on_released(self) -> None:
        self._release()

    def _press(self) -> None:
        if self._state == "transcribing":
            self.cancel()
            return
        if self._state == "recording":
            self._started_by_this_press = False
            self.stop_recording()  # second click of click-to-toggle
            return
        self._pressed_at = self._monotonic()
        self._started_by_this_press = self.start_recording()

    def _release(self) -> None:
        if not self._started_by_this_press or self._state != "recording":
            return
        self._started_by_this_press = False
        held = self._monotonic() - (self._pressed_at or self._monotonic())
        if held >= HOLD_SECONDS:
            self.stop_recording()  # push-to-talk: release ends it
        else:
            self._show_click_again()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.target and event.type() in (
            QEvent.Type.KeyPress,
            QEvent.Type.KeyRelease,
            QEvent.Type.ShortcutOverride,
        ):
            key_event: QKeyEvent = event  # type: ignore[assignment]
            if key_event.key() == SHORTCUT:
                if event.type() == QEvent.Type.ShortcutOverride:
                    event.accept()  # F9 is ours while the box has focus
                elif not key_event.isAutoRepeat():
                    if event.type() == QEvent.Type.KeyPress:
                        self._press()
                    else:
                        self._release()
                return True
            if (
                key_event.key() == Qt.Key.Key_Escape
                and event.type() == QEvent.Type.KeyPress
                and self._state in ("recording", "transcribing")
            ):
                self.cancel()
                return True
        return bool(super().eventFilter(watched, event))  # type: ignore[misc]
