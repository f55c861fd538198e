"""Putting dictated words where the owner's cursor is, spaced the way he writes.

English words get a space between them; Chinese (and full-width punctuation) takes none, and
nothing is added after whitespace. The insertion replaces a selection and is one undo step, so
Ctrl+Z takes the whole dictation back out.
"""

from __future__ import annotations

from PySide6.QtWidgets import QLineEdit
from PySide6.QtWidgets import QPlainTextEdit
from PySide6.QtWidgets import QTextEdit

Target = QLineEdit | QPlainTextEdit | QTextEdit
_CJK_RANGES = ((0x3000, 0x303F), (0x3400, 0x9FFF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF))


def _is_cjk(ch: str) -> bool:
    return bool(ch) and any(lo <= ord(ch) <= hi for lo, hi in _CJK_RANGES)


def _joiner(before: str, text: str) -> str:
    """A space between English words, none around Chinese (or after whitespace)."""
    if not before or before.isspace() or not text:
        return ""
    if _is_cjk(before) or _is_cjk(text[0]):
        return ""
    return " "


def insert_at_cursor(target: Target, text: str) -> None:
    """Insert ``text`` where the owner's cursor is (replacing a selection), as one undo step."""
    if isinstance(target, QLineEdit):
        pos = target.selectionStart() if target.hasSelectedText() else target.cursorPosition()
        before = target.text()[pos - 1 : pos] if pos > 0 else ""
        target.insert(_joiner(before, text) + text)
        return
    cursor = target.textCursor()
    pos = cursor.selectionStart() if cursor.hasSelection() else cursor.position()
    before = target.document().characterAt(pos - 1) if pos > 0 else ""
    cursor.insertText(_joiner(before, text) + text)
    target.setTextCursor(cursor)
