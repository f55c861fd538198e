"""A small map of tomorrow's measuring round, drawn with QPainter — no tile server, no network.

He would rather look than read: the office, the stops numbered in driving order and the legs
between them, over a faint dot for every locality around them (so the coast and the spread of
the suburbs show without any map data beyond the offline gazetteer), and a scale bar in km.

The projection is equirectangular around the round's centre (longitude scaled by the cosine of
the latitude), which is exact enough over a city.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF
from PySide6.QtCore import QRectF
from PySide6.QtCore import QSize
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtGui import QFont
from PySide6.QtGui import QPainter
from PySide6.QtGui import QPaintEvent
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QSizePolicy
from PySide6.QtWidgets import QWidget

Point = tuple[float, float]  # (lat, lon)

STOP = QColor("#1f6feb")
OFFICE = QColor("#d1242f")
LEG = QColor("#1f6feb")
BACKDROP = QColor("#c9d1d9")
MARGIN = 28.0


@dataclass(frozen=True)
class MapStop:
    number: int
    point: Point
    label: str


class RouteMap(QWidget):
    """Draws ``set_round``'s office and stops; ``markers()`` says where each number was put."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("routeMap")
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(QSize(220, 180))
        self.office: Point | None = None
        self.stops: list[MapStop] = []
        self.backdrop: list[Point] = []

    def set_round(
        self, office: Point | None, stops: Sequence[MapStop], backdrop: Sequence[Point] = ()
    ) -> None:
        self.office = office
        self.stops = list(stops)
        self.backdrop = list(backdrop)
        self.setVisible(bool(self.stops))
        self.update()

    def bounds(self) -> tuple[float, float, float, float] | None:
        """(south, west, north, east) of the office and the stops, padded a little."""
        points = [s.point for s in self.stops] + ([self.office] if self.office else [])
        if not points:
            return None
        lats = [p[0] for p in points]
        lons = [p[1] for p in points]
        pad_lat = max(0.01, (max(lats) - min(lats)) * 0.12)
        pad_lon = max(0.01, (max(lons) - min(lons)) * 0.12)
        return min(lats) - pad_lat, min(lons) - pad_lon, max(lats) + pad_lat, max(lons) + pad_lon

    def project(self, point: Point) -> QPointF:
        """Widget coordinates of a (lat, lon), with the whole round fitted inside the margin."""
        south, west, north, east = self.bounds() or (point[0], point[1], point[0], point[1])
        scale_x = math.cos(math.radians((south + north) / 2))
        width_deg = max((east - west) * scale_x, 1e-6)
        height_deg = max(north - south, 1e-6)
        usable_w = max(self.width() - 2 * MARGIN, 1.0)
        usable_h = max(self.height() - 2 * MARGIN, 1.0)
        k = min(usable_w / width_deg, usable_h / height_deg)
        offset_x = MARGIN + (usable_w - width_deg * k) / 2
        offset_y = MARGIN + (usable_h - height_deg * k) / 2
        x = offset_x + (point[1] - west) * scale_x * k
        y = offset_y + (north - point[0]) * k
        return QPointF(x, y)

    def markers(self) -> list[tuple[int, QPointF]]:
        return [(s.number, self.project(s.point)) for s in self.stops]

    def km_per_pixel(self) -> float:
        """How many km one pixel stands for, along the round's latitude."""
        bounds = self.bounds()
        if bounds is None:
            return 0.0
        south, west, north, _ = bounds
        a, b = self.project((south, west)), self.project((south, west + 0.1))
        px = max(abs(b.x() - a.x()), 1e-6)
        return 0.1 * 111.32 * math.cos(math.radians((south + north) / 2)) / px

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), QColor("#f6f8fa"))
        if not self.stops:
            painter.end()
            return
        self._paint_backdrop(painter)
        self._paint_legs(painter)
        self._paint_office(painter)
        self._paint_stops(painter)
        self._paint_scale(painter)
        painter.end()

    def _paint_backdrop(self, painter: QPainter) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(BACKDROP)
        area = QRectF(self.rect())
        for point in self.backdrop:
            at = self.project(point)
            if area.contains(at):
                painter.drawEllipse(at, 1.6, 1.6)

    def _paint_legs(self, painter: QPainter) -> None:
        path: list[Point] = [s.point for s in self.stops]
        if self.office is not None:
            path = [self.office, *path, self.office]  # out from the office and back
        painter.setPen(QPen(LEG, 2.0))
        for a, b in itertools.pairwise(path):
            painter.drawLine(self.project(a), self.project(b))

    def _paint_office(self, painter: QPainter) -> None:
        if self.office is None:
            return
        at = self.project(self.office)
        painter.setPen(QPen(QColor("white"), 2.0))
        painter.setBrush(OFFICE)
        painter.drawRect(QRectF(at.x() - 7, at.y() - 7, 14, 14))

    def _paint_stops(self, painter: QPainter) -> None:
        font = QFont(self.font())
        font.setBold(True)
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
        painter.setFont(font)
        for number, at in self.markers():
            painter.setPen(QPen(QColor("white"), 2.0))
            painter.setBrush(STOP)
            painter.drawEllipse(at, 10.0, 10.0)
            painter.setPen(QColor("white"))
            painter.drawText(
                QRectF(at.x() - 10, at.y() - 10, 20, 20), Qt.AlignmentFlag.AlignCenter, str(number)
            )

    def _paint_scale(self, painter: QPainter) -> None:
        per_px = self.km_per_pixel()
        if per_px <= 0:
            return
        km = _nice_km(per_px * self.width() / 4)
        length = km / per_px
        y = self.height() - 12.0
        painter.setPen(QPen(QColor("#57606a"), 2.0))
        painter.drawLine(QPointF(12, y), QPointF(12 + length, y))
        painter.drawText(QPointF(16 + length, y + 4), self.tr("%1 km").replace("%1", f"{km:g}"))


def _nice_km(km: float) -> float:
    """1, 2 or 5 times a power of ten, not above ``km``."""
    if km <= 0:
        return 1.0
    power = 10 ** math.floor(math.log10(km))
    for step in (5, 2, 1):
        if step * power <= km:
            return float(step * power)
    return float(power)
