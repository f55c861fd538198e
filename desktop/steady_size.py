"""Counts that change often without moving the window around them.

A widget whose text changes asks its parent's layout to be laid out again, and Qt passes that
request up to the window: the tab widget holding the board then repaints all of itself. On the
board that happened at every search keystroke, because the stage buttons and the total show
counts (#44: the whole 1600x800 board painted twice per keystroke). Qt stops passing the
request up at a widget whose minimum and maximum sizes are equal, so a counter keeps a fixed
size that only grows when its text needs more room: counts that shrink while he types keep the
button where it was, instead of every button to its right jumping left.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

QWIDGETSIZE_MAX = (1 << 24) - 1


def hold_size(widget: QWidget) -> None:
    """Fix ``widget`` at the larger of its size and what its current text needs.

    Call after each ``setText``; only a text wider than any before lays the row out again."""
    need = widget.sizeHint()
    width = max(need.width(), widget.minimumWidth())
    if width != widget.minimumWidth() or need.height() != widget.minimumHeight():
        widget.setFixedSize(width, need.height())


def release_size(widget: QWidget) -> None:
    """Let ``widget`` size itself again (a new language: its words have other widths)."""
    widget.setMinimumSize(0, 0)
    widget.setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX)
