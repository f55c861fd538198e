"""Dictation in the desktop: recorder (microphone → WAV), push-to-talk button, settings page.

Importing this package repairs PySide6 6.12.0's ``Signal.emit`` reference leak first (see
``pyside_emit_fix``): the level meter emits often enough to crash the interpreter otherwise.
"""

from desktop.voice import pyside_emit_fix

pyside_emit_fix.install()
