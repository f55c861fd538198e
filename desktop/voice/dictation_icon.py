"""How the dictation button looks: its icon per state and the ``0:07`` recording clock."""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QIcon
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPen
from PySide6.QtGui import QPixmap


def state_icon(state: str) -> QIcon:
    """Painted in code (no emoji: the owner's fonts may lack them): a microphone when idle, a red
    dot while recording, an hourglass-like ring while recognising."""
    size = 32
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    if state == "recording":
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("#d1242f"))
        painter.drawEllipse(QRectF(6, 6, 20, 20))
    elif state == "transcribing":
        painter.setPen(QPen(QColor("#6e7781"), 3))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawArc(QRectF(6, 6, 20, 20), 90 * 16, 270 * 16)
    else:
        colour = QColor("#1f6feb")
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour)
        painter.drawRoundedRect(QRectF(11, 3, 10, 17), 5, 5)
        painter.setPen(QPen(colour, 2.5))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawArc(QRectF(7, 8, 18, 16), 180 * 16, 180 * 16)
        painter.drawLine(16, 24, 16, 29)
        painter.drawLine(11, 29, 21, 29)
    painter.end()
    return QIcon(pixmap)


def format_clock(seconds: float) -> str:
    """``m:ss`` for the recording length shown while he speaks."""
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}"
