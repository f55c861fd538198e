"""The look shared by every window: fonts, spacing, a type scale, colours, the style and icons.

One place decides how the app looks, so every window and dialog agrees:

- **Tokens**: ``SPACE`` (4/8/12/16/24 px), ``TYPE`` (point sizes: small, body, section, title),
  ``COLOURS`` (text, muted, lines, surfaces, accent, warning, danger, success) and
  ``STAGE_COLOURS`` (one colour per pipeline stage, the board's dots and the stage buttons).
- **One stylesheet** built from those tokens (``stylesheet()``), installed on the application by
  ``apply_look``. Widgets ask for a role, never a colour: ``objectName`` (``title``,
  ``sectionTitle``, ``muted``, ``banner``…) or ``set_tone(widget, "error")`` for a status line.
- **The style**: Fusion on every platform (the same look on Windows and Linux); the stylesheet
  turns off the icons on dialog buttons (确定/取消 read as words) and the arrow on command-link
  choices. No Python style subclass: Qt asks a style for metrics thousands of times a second,
  and a Python override on that path slows the UI thread.

CJK font fallback is declared explicitly: the app font lists a Latin UI face first and then the
Chinese faces of each platform (Microsoft YaHei on Windows, PingFang SC on macOS, Noto Sans CJK /
WenQuanYi on Linux), so Chinese never renders as boxes when the default face lacks the glyphs.
Icons are painted in code (crisp at every size, no binary assets to keep in sync); the same
drawing exists as ``resources/icons/inquiry-bridge.svg`` for installers and desktop entries: an
arch bridge whose hangers are the mullions of a window (the Harbour Bridge, and his trade).
"""

from __future__ import annotations

import functools
from typing import cast

from PySide6.QtCore import QPointF
from PySide6.QtCore import QRectF
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont
from PySide6.QtGui import QIcon
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPainterPath
from PySide6.QtGui import QPalette
from PySide6.QtGui import QPen
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QApplication
from PySide6.QtWidgets import QFormLayout
from PySide6.QtWidgets import QHBoxLayout
from PySide6.QtWidgets import QStyleFactory
from PySide6.QtWidgets import QTableView
from PySide6.QtWidgets import QWidget

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

SPACE = {"xs": 4, "s": 8, "m": 12, "l": 16, "xl": 24}
TYPE = {"small": 9.0, "body": 10.0, "section": 12.0, "title": 16.0}
COLOURS = {
    "text": "#1f2328",
    "muted": "#656d76",
    "line": "#d0d7de",
    "window": "#f6f8fa",
    "surface": "#ffffff",
    "accent": "#1f6feb",
    "accent_soft": "#ddf4ff",
    "warning": "#9a6700",
    "warning_soft": "#fff8c5",
    "warning_line": "#d4a72c",
    "overdue": "#b35900",
    "danger": "#d1242f",
    "danger_soft": "#ffebe9",
    "success": "#1a7f37",
}
TONES = {
    "error": "danger",
    "ok": "success",
    "muted": "muted",
    "accent": "accent",
    "warning": "overdue",
}

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
    """An arch bridge over a deck, its hangers the mullions of a window, on the accent tile."""
    s = float(size)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QBrush(ACCENT))
    painter.drawRoundedRect(QRectF(s * 0.06, s * 0.06, s * 0.88, s * 0.88), s * 0.2, s * 0.2)
    pen = QPen(QColor("white"))
    pen.setWidthF(max(1.2, s * 0.075))
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    deck = s * 0.64
    arch = QPainterPath()
    arch.moveTo(s * 0.2, deck)
    arch.cubicTo(s * 0.26, s * 0.22, s * 0.74, s * 0.22, s * 0.8, deck)
    painter.drawPath(arch)
    painter.drawLine(QPointF(s * 0.14, deck), QPointF(s * 0.86, deck))
    if size >= 24:  # the hangers: the window's mullions (too fine to read at 16 px)
        thin = QPen(pen)
        thin.setWidthF(max(1.0, s * 0.045))
        painter.setPen(thin)
        for x in (0.38, 0.5, 0.62):
            painter.drawLine(QPointF(s * x, _arch_y(s, x)), QPointF(s * x, deck))
        painter.setPen(pen)
    for x in (0.2, 0.8):  # the two piers under the deck
        painter.drawLine(QPointF(s * x, deck), QPointF(s * x, s * 0.8))
    if attention:
        _draw_badge(painter, size, attention)


def _arch_y(s: float, x: float) -> float:
    """The height of the arch above ``x`` (a share of the width), from its cubic Bézier."""
    # x(t) is symmetric; solve it by bisection (a few steps are exact at icon sizes)
    lo, hi = 0.0, 1.0
    for _ in range(30):
        t = (lo + hi) / 2
        xt = (1 - t) ** 3 * 0.2 + 3 * (1 - t) ** 2 * t * 0.26 + 3 * (1 - t) * t**2 * 0.74
        xt += t**3 * 0.8
        lo, hi = (t, hi) if xt < x else (lo, t)
    t = (lo + hi) / 2
    y = (1 - t) ** 3 * 0.64 + 3 * (1 - t) ** 2 * t * 0.22 + 3 * (1 - t) * t**2 * 0.22
    return s * (y + t**3 * 0.64)


def _draw_badge(painter: QPainter, size: int, attention: int) -> None:
    s = float(size)
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
    return QIcon(_drawn_icon(min(attention, 100)))  # a copy: the cached one stays as drawn


@functools.lru_cache(maxsize=16)
def _drawn_icon(attention: int) -> QIcon:
    """Each badge drawn once: the window, the tray and the application asked for the same
    seven pixmaps at start, about a fifth of building the main window (#44)."""
    icon = QIcon()
    for size in (16, 24, 32, 48, 64, 128, 256):
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        _draw_logo(painter, size, attention)
        painter.end()
        icon.addPixmap(pixmap)
    return icon


def dot_icon(colour: str | QColor, size: int = 12) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(colour))
    painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QIcon(pixmap)


def stylesheet() -> str:
    """The application stylesheet, from the tokens (sizes in pt follow the type scale)."""
    c, sp, t = COLOURS, SPACE, TYPE
    return f"""
QLabel#title, QLabel#briefingTitle {{ font-size: {t["title"]}pt; font-weight: 600; }}
QLabel#sectionTitle, QLabel#chatTitle {{ font-size: {t["section"]}pt; font-weight: 600;
    padding-top: {sp["s"]}px; }}
QLabel#muted {{ color: {c["muted"]}; }}
QLabel#small {{ color: {c["muted"]}; font-size: {t["small"]}pt; }}
QLabel#placeholder {{ color: {c["muted"]}; font-size: {t["section"]}pt; }}
QLabel[tone="error"] {{ color: {c["danger"]}; }}
QLabel[tone="ok"] {{ color: {c["success"]}; }}
QLabel[tone="muted"] {{ color: {c["muted"]}; }}
QLabel[tone="accent"] {{ color: {c["accent"]}; }}
QLabel[tone="warning"] {{ color: {c["overdue"]}; }}
QPushButton {{ background: {c["surface"]}; border: 1px solid {c["line"]}; border-radius: 6px;
    padding: {sp["xs"]}px {sp["m"]}px; min-height: 20px; }}
QPushButton:hover {{ border-color: {c["accent"]}; }}
QPushButton:pressed {{ background: {c["accent_soft"]}; }}
QPushButton:default {{ background: {c["accent"]}; color: white; border-color: {c["accent"]}; }}
QPushButton:disabled {{ color: #8c959f; background: {c["window"]}; border-color: #e1e4e8; }}
QDialogButtonBox {{ dialogbuttonbox-buttons-have-icons: 0; }}
QCommandLinkButton {{ background: {c["surface"]}; border: 1px solid {c["line"]};
    border-radius: 8px; padding: {sp["s"]}px {sp["m"]}px; qproperty-iconSize: 0px 0px; }}
QCommandLinkButton:default {{ background: {c["surface"]}; color: {c["text"]};
    border-color: {c["line"]}; }}
QCommandLinkButton:hover {{ border-color: {c["accent"]}; background: {c["accent_soft"]}; }}
QLineEdit, QPlainTextEdit, QTextEdit, QTextBrowser {{
    background: {c["surface"]}; border: 1px solid {c["line"]}; border-radius: 6px;
    selection-background-color: {c["accent"]}; }}
QLineEdit {{ padding: 3px {sp["xs"] + 2}px; }}
QLineEdit:focus, QPlainTextEdit:focus, QTextEdit:focus {{ border-color: {c["accent"]}; }}
QGroupBox {{ border: 1px solid {c["line"]}; border-radius: 8px; margin-top: 14px;
    padding: {sp["m"]}px {sp["s"]}px {sp["s"]}px {sp["s"]}px; background: {c["surface"]}; }}
QGroupBox::title {{ subcontrol-origin: margin; left: {sp["m"]}px; padding: 0 {sp["xs"]}px;
    font-weight: 600; }}
QTabWidget::pane {{ border: 1px solid {c["line"]}; border-radius: 6px; top: -1px;
    background: {c["surface"]}; }}
QTabBar::tab {{ padding: {sp["xs"] + 1}px {sp["m"]}px; border: 1px solid transparent;
    border-bottom: 2px solid transparent; color: {c["muted"]}; }}
QTabBar::tab:selected {{ color: {c["text"]}; border-bottom: 2px solid {c["accent"]};
    font-weight: 600; }}
SettingsDialog QListWidget {{ background: {c["surface"]}; border: 1px solid {c["line"]};
    border-radius: 6px; padding: {sp["xs"]}px; outline: 0; }}
SettingsDialog QListWidget::item {{ padding: {sp["s"]}px {sp["m"]}px; border-radius: 4px; }}
SettingsDialog QListWidget::item:selected {{ background: {c["accent_soft"]};
    color: {c["text"]}; font-weight: 600; }}

QHeaderView::section {{ background: {c["window"]}; border: none;
    border-bottom: 1px solid {c["line"]}; padding: {sp["xs"]}px {sp["s"]}px; font-weight: 600; }}
QToolBar {{ background: {c["window"]}; border: none; border-bottom: 1px solid {c["line"]};
    spacing: {sp["xs"]}px; padding: {sp["xs"]}px {sp["s"]}px; }}
QToolBar QToolButton {{ padding: {sp["xs"]}px {sp["s"]}px; border-radius: 6px; }}
QToolBar QToolButton:hover, QToolBar QToolButton:checked {{ background: {c["accent_soft"]}; }}
QToolBar QToolButton::menu-indicator {{ image: none; width: 0px; }}
QStatusBar {{ background: {c["window"]}; color: {c["muted"]};
    border-top: 1px solid {c["line"]}; }}
QToolButton#stageButton {{ border: 1px solid {c["line"]}; border-radius: 12px;
    padding: 3px 10px; background: {c["surface"]}; }}
QToolButton#stageButton:checked {{ background: {c["accent"]}; color: white;
    border-color: {c["accent"]}; }}
QFrame#banner {{ background: {c["warning_soft"]}; border: 1px solid {c["warning_line"]};
    border-radius: 6px; }}
QFrame#messageCard, QFrame#rhythmCard, QFrame#briefingSection {{ border: 1px solid {c["line"]};
    border-radius: 8px; background: {c["surface"]}; }}
QFrame#messageCard[direction="out"] {{ background: {c["window"]}; }}
QFrame#messageCard[direction="owner"] {{ background: #fffbea; }}
QScrollArea {{ border: none; background: transparent; }}
QScrollArea > QWidget > QWidget {{ background: transparent; }}
"""


def set_tone(widget: QWidget, tone: str) -> None:
    """Colour a status line by what it says (``error``, ``ok``, ``muted``, ``accent``,
    ``warning``; ``""`` for plain): the stylesheet holds the colour, the widget only its role."""
    if widget.property("tone") == tone:
        return
    widget.setProperty("tone", tone)
    style = widget.style()
    style.unpolish(widget)
    style.polish(widget)


def _palette() -> QPalette:
    palette = QPalette()
    palette.setColor(QPalette.ColorRole.Window, QColor(COLOURS["window"]))
    palette.setColor(QPalette.ColorRole.WindowText, QColor(COLOURS["text"]))
    palette.setColor(QPalette.ColorRole.Base, QColor(COLOURS["surface"]))
    palette.setColor(QPalette.ColorRole.AlternateBase, QColor(COLOURS["window"]))
    palette.setColor(QPalette.ColorRole.Text, QColor(COLOURS["text"]))
    palette.setColor(QPalette.ColorRole.Button, QColor(COLOURS["surface"]))
    palette.setColor(QPalette.ColorRole.ButtonText, QColor(COLOURS["text"]))
    palette.setColor(QPalette.ColorRole.Highlight, QColor(COLOURS["accent"]))
    palette.setColor(QPalette.ColorRole.HighlightedText, QColor("white"))
    palette.setColor(QPalette.ColorRole.Link, QColor(COLOURS["accent"]))
    palette.setColor(QPalette.ColorRole.PlaceholderText, QColor("#8c959f"))
    palette.setColor(QPalette.ColorRole.Mid, QColor(COLOURS["muted"]))
    return palette


def table_look(table: QTableView) -> None:
    """A table's colours by palette, not by style sheet. A QSS rule naming ``QTableView`` sends
    every cell of every paint through the style-sheet engine, and its rounded corners made the
    view see-through, so each repaint of the board also repainted the window behind it: with
    the rule, a search keystroke or a sort cost the UI thread about a third more (#44)."""
    palette = table.palette()
    palette.setColor(QPalette.ColorRole.Highlight, QColor(COLOURS["accent_soft"]))
    palette.setColor(QPalette.ColorRole.HighlightedText, QColor(COLOURS["text"]))
    # Fusion draws the grid in the window colour darkened: on white, its lightest grey
    palette.setColor(QPalette.ColorRole.Window, QColor(COLOURS["surface"]))
    table.setPalette(palette)


def apply_look(app: QApplication) -> None:
    """Install the style, palette, fonts and stylesheet on ``app`` (once, at start)."""
    app.setStyle(QStyleFactory.create("Fusion"))
    app.setPalette(_palette())
    apply_fonts(app, TYPE["body"])
    app.setStyleSheet(stylesheet())


APP_STYLESHEET = stylesheet()


def add_field_row(form: QFormLayout, field: QWidget) -> None:
    """A row with no label, its widget in the field column under the labelled fields above.

    Qt takes a null label here (``addRow(nullptr, field)``); PySide6's stubs omit ``None``.
    """
    form.addRow(cast(QWidget, None), field)


def field_row(*widgets: QWidget, grow: QWidget | None = None) -> QWidget:
    """Widgets side by side as one form field, flush with the fields above (no margins):
    ``grow`` takes the room left over; without it the row ends in a stretch, so its buttons
    keep their size at the left."""
    row = QHBoxLayout()
    row.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        row.addWidget(widget, 1 if widget is grow else 0)
    if grow is None:
        row.addStretch(1)
    box = QWidget()
    box.setLayout(row)
    return box
