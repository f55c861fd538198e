"""Simple bar charts drawn with QPainter: one series, or a few side by side per label.

Why not Qt Charts: it is a separate module of Addons with its own styling to fight; a few bars
with their values written on them is all the 概览 view needs, and stays readable at any size.
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Sequence

from PySide6.QtCore import QRectF
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPaintEvent
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QSizePolicy
from PySide6.QtWidgets import QWidget

PALETTE = ("#1f6feb", "#2da44e", "#bf8700", "#8250df")


class BarChart(QWidget):
    """Bars per label; ``series`` is one list of values per series (None: no value there)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(QSize(260, 160))
        self.title = ""
        self.labels: list[str] = []
        self.series: list[list[float | None]] = []
        self.names: list[str] = []
        self.empty_text = ""  # said in the middle when every value is 0 or missing
        # the figure written on a bar: counts and hours as they are; money says it is money
        # (the pipeline chart's "4405.5" read as a count, not as $4,406)
        self.value_text: Callable[[float], str] = lambda value: f"{value:g}"

    def set_data(
        self,
        title: str,
        labels: Sequence[str],
        series: Sequence[Sequence[float | None]],
        names: Sequence[str] = (),
    ) -> None:
        self.title = title
        self.labels = list(labels)
        self.series = [list(s) for s in series]
        self.names = list(names)
        self.update()

    def bar_rects(self) -> list[list[QRectF]]:
        """Where each bar is drawn, per series (a zero-height rect where there is no value)."""
        top, bottom, left, right = 44.0, 30.0, 10.0, 10.0  # room for the title, legend, values
        height = max(self.height() - top - bottom, 1.0)
        width = max(self.width() - left - right, 1.0)
        peak = max((v for s in self.series for v in s if v is not None), default=0.0) or 1.0
        slot = width / max(len(self.labels), 1)
        bar = slot * 0.8 / max(len(self.series), 1)
        rects: list[list[QRectF]] = []
        for k, values in enumerate(self.series):
            row = []
            for i, value in enumerate(values):
                h = height * (value or 0.0) / peak
                x = left + i * slot + slot * 0.1 + k * bar
                row.append(QRectF(x, top + height - h, bar - 1, h))
            rects.append(row)
        return rects

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor("white"))
        painter.setPen(QColor("#24292f"))
        painter.drawText(
            QRectF(8, 4, self.width() - 16, 20), Qt.AlignmentFlag.AlignLeft, self.title
        )
        self._legend(painter)
        if self.empty_text and not any(v for s in self.series for v in s):
            painter.setPen(QColor("#8c959f"))
            painter.drawText(QRectF(self.rect()), Qt.AlignmentFlag.AlignCenter, self.empty_text)
        for k, row in enumerate(self.bar_rects()):
            colour = QColor(PALETTE[k % len(PALETTE)])
            for i, rect in enumerate(row):
                value = self.series[k][i]
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(colour)
                painter.drawRect(rect)
                if value:  # a value on its bar; nothing written on an empty one
                    painter.setPen(QColor("#24292f"))
                    text = self.value_text(value)
                    painter.drawText(
                        QRectF(rect.x() - 10, rect.y() - 16, rect.width() + 20, 14),
                        Qt.AlignmentFlag.AlignCenter,
                        text,
                    )
        self._axis(painter)
        painter.end()

    def _legend(self, painter: QPainter) -> None:
        x = self.width() - 8.0
        for k in range(len(self.names) - 1, -1, -1):
            name = self.names[k]
            width = painter.fontMetrics().horizontalAdvance(name) + 18
            x -= width
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(PALETTE[k % len(PALETTE)]))
            painter.drawRect(QRectF(x, 8, 10, 10))
            painter.setPen(QColor("#57606a"))
            painter.drawText(QRectF(x + 13, 4, width, 18), Qt.AlignmentFlag.AlignLeft, name)

    def _axis(self, painter: QPainter) -> None:
        painter.setPen(QPen(QColor("#d0d7de"), 1.0))
        base = self.height() - 30.0
        painter.drawLine(10, int(base), self.width() - 10, int(base))
        slot = (self.width() - 20.0) / max(len(self.labels), 1)
        painter.setPen(QColor("#57606a"))
        step = max(1, int(len(self.labels) / max(self.width() / 70, 1)))
        for i, label in enumerate(self.labels):
            if i % step:
                continue
            painter.drawText(
                QRectF(10 + i * slot - 20, base + 4, slot + 40, 20),
                Qt.AlignmentFlag.AlignHCenter,
                label,
            )
