"""Status lines with an icon each, from the app's resources, in the colour of what they say.

Why not emoji: with the recommended Chinese font (WenQuanYi Micro Hei) and no colour-emoji font,
✅ ❌ ⚠️ render as empty boxes; and one colour for a whole report painted a failure line as green
as the successes above it. The core writes its findings with those marks
(``core.llm.probe``: "✅ …", "⚠️ …", "❌ …"); here each line's mark becomes an icon
(``resources/icons/status-*.svg``) and its own tone (ok, warning, error), and the text keeps
only the words.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QLabel
from PySide6.QtWidgets import QVBoxLayout
from PySide6.QtWidgets import QWidget

from desktop.look import set_tone

ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"
MARKS = (("✅", "ok"), ("❌", "error"), ("⚠️", "warning"), ("⚠", "warning"))
ICON_FILES = {"ok": "status-ok.svg", "warning": "status-warn.svg", "error": "status-fail.svg"}


def split_mark(line: str) -> tuple[str, str]:
    """(tone, words) of one line: its leading mark read as a tone, and the text after it."""
    for mark, tone in MARKS:
        if line.startswith(mark):
            return tone, line[len(mark) :].lstrip("\ufe0f ").strip()
    return "", line


def status_icon(tone: str) -> QIcon:
    name = ICON_FILES.get(tone)
    return QIcon(str(ICONS / name)) if name else QIcon()


class StatusLines(QWidget):
    """A few lines, each an icon and wrapped text; ``text()`` is the words, one per line."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(2)
        self.rows: list[tuple[QLabel, QLabel, str]] = []  # icon, text, tone

    def clear(self) -> None:
        while self._layout.count():
            item = self._layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.rows = []

    def setText(self, text: str, tone: str = "") -> None:
        """One plain line (a hint, an error), coloured by ``tone``; no mark is read."""
        self.clear()
        if text:
            self._add(tone, text)

    def set_report(self, lines: list[str]) -> None:
        """The core's marked lines ("✅ …"), each with its icon and its own colour."""
        self.clear()
        for line in lines:
            self._add(*split_mark(line))

    def _add(self, tone: str, words: str) -> None:
        row = QWidget(self)
        box = QHBoxLayout(row)
        box.setContentsMargins(0, 0, 0, 0)
        icon = QLabel(row)
        pixmap = status_icon(tone).pixmap(16, 16)
        icon.setPixmap(pixmap)
        icon.setFixedWidth(18 if not pixmap.isNull() else 0)
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        label = QLabel(words, row)
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setWordWrap(True)
        set_tone(label, tone)
        box.addWidget(icon)
        box.addWidget(label, 1)
        self._layout.addWidget(row)
        self.rows.append((icon, label, tone))

    def text(self) -> str:
        return "\n".join(label.text() for _, label, _ in self.rows)

    def tones(self) -> list[str]:
        return [tone for _, _, tone in self.rows]
