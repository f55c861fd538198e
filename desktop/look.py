"""Fonts, colours and icons: the look shared by every window.

CJK font fallback is declared explicitly: the app font lists a Latin UI face first and then the
Chinese faces of each platform (Microsoft YaHei on Windows, PingFang SC on macOS, Noto Sans CJK /
WenQuanYi on Linux), so Chinese never renders as boxes when the default face lacks the glyphs.
Icons are painted in code (crisp at every size, no binary assets to keep in sync); the same
drawing exists as ``resources/icons/inquiry-bridge.svg`` for installers and desktop entries.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QIcon, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import QApplication

UI_FAMILIES = [
    "Segoe UI",
    "Microsoft YaHei UI",
    "Microsoft YaHei",
    "PingFang SC",
    "Hiragino Sans GB",
    "Noto Sans CJK SC",
    "Source Han Sans SC",
    "WenQuanYi Micro Hei",
    "Droid Sans Fallback",
    "DejaVu Sans",
    "sans-serif",
]

ACCENT = QColor("#1f6feb")
ATTENTION = QColor("#d1242f")
OVERDUE = QColor("#b35900")
MUTED = QColor("#6e7781")

STAGE_COLOURS: dict[str, str] = {
    "inquiry": "#1f6feb",
    "measure": "#8250df",
    "quoting": "#bf8700",
    "follow_up": "#0a7ea4",
    "ordered": "#1a7f37",
    "production": "#57606a",
    "install": "#116329",
    "done": "#6e7781",
    "lost": "#a40e26",
}


def apply_fonts(app: QApplication, point_size: float = 10.0) -> None:
    font = QFont()
    font.setFamilies(UI_FAMILIES)
    font.setPointSizeF(point_size)
    app.setFont(font)


def _draw_logo(painter: QPainter, size: int, attention: int) -> None:
    s = float(size)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    frame = QRectF(s * 0.06, s * 0.06, s * 0.88, s * 0.88)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QBrush(ACCENT))
    painter.drawRoundedRect(frame, s * 0.18, s * 0.18)
    # an aluminium window: frame and four panes, a bridge arch under it
    pen = QPen(QColor("white"))
    pen.setWidthF(max(1.0, s * 0.07))
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    win = QRectF(s * 0.26, s * 0.2, s * 0.48, s * 0.44)
    painter.drawRect(win)
    painter.drawLine(QPointF(win.center().x(), win.top()), QPointF(win.center().x(), win.bottom()))
    painter.drawLine(QPointF(win.left(), win.center().y()), QPointF(win.right(), win.center().y()))
    arch = QPainterPath()
    arch.moveTo(s * 0.2, s * 0.84)
    arch.quadTo(s * 0.5, s * 0.62, s * 0.8, s * 0.84)
    painter.drawPath(arch)
    if attention:
        r = s * 0.24
        badge = QRectF(s - 2 * r - s * 0.01, s * 0.01, 2 * r, 2 * r)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(ATTENTION))
        painter.drawEllipse(badge)
        if size >= 32:
            painter.setPen(QColor("white"))
            font = QFont()
            font.setBold(True)
            font.setPixelSize(int(r * 1.2))
            painter.setFont(font)
            text = "99+" if attention > 99 else str(attention)
            painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, text)


def app_icon(attention: int = 0) -> QIcon:
    """The app/tray icon; ``attention`` > 0 adds the red "needs you" badge."""
    icon = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256):
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        _draw_logo(painter, size, attention)
        painter.end()
        icon.addPixmap(pixmap)
    return icon


def dot_icon(colour: str, size: int = 12) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(colour))
    painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QIcon(pixmap)


APP_STYLESHEET = """
QToolButton#stageButton { border: 1px solid #d0d7de; border-radius: 12px; padding: 3px 10px; }
QToolButton#stageButton:checked { background: #1f6feb; color: white; border-color: #1f6feb; }
QFrame#banner { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 6px; }
QFrame#messageCard { border: 1px solid #d0d7de; border-radius: 6px; background: #ffffff; }
QFrame#messageCard[direction="out"] { background: #f6f8fa; }
QFrame#messageCard[direction="owner"] { background: #fffbea; }
QLabel#title { font-size: 16pt; font-weight: 600; }
QLabel#muted { color: #6e7781; }
QLabel#placeholder { color: #6e7781; font-size: 12pt; }
"""
