"""The briefing's route map renders offscreen: the office, the stops numbered in route order at
their places (north up, east right), the legs, and a scale that matches the distances."""

from __future__ import annotations

from PySide6.QtGui import QColor, QImage

from core.rhythm.route import Stop, distance_km, locate, plan_route
from desktop.rhythm.route_map import OFFICE, STOP, MapStop, RouteMap


def _near(image: QImage, x: float, y: float, colour: QColor, radius: int = 3) -> bool:
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            pixel = image.pixelColor(int(x) + dx, int(y) + dy)
            if max(abs(pixel.red() - colour.red()), abs(pixel.blue() - colour.blue())) < 40:
                return True
    return False


def test_the_round_is_drawn_where_the_places_are(qtbot) -> None:  # type: ignore[no-untyped-def]
    office = locate("Parramatta NSW 2150")
    assert office is not None
    stops = [Stop(i, s, s) for i, s in enumerate(["Hurstville", "Ryde", "Burwood", "Eastwood"])]
    route = plan_route(stops, office)
    view = RouteMap()
    qtbot.addWidget(view)
    view.resize(420, 320)
    backdrop = [p for p in (locate(s) for s in ("Strathfield", "Auburn", "Epping")) if p]
    marks = [MapStop(n, point, s.suburb or "") for n, (s, point) in enumerate(
        zip(route.ordered, route.points, strict=True), 1)]  # fmt: skip
    view.set_round(office, marks, backdrop)
    image = view.grab().toImage()
    assert not image.isNull() and image.width() == 420
    placed = dict(view.markers())
    assert sorted(placed) == [1, 2, 3, 4]
    for number, at in placed.items():
        assert 0 < at.x() < 420 and 0 < at.y() < 320
        assert _near(image, at.x(), at.y(), STOP), number
    at_office = view.project(office)
    assert _near(image, at_office.x(), at_office.y(), OFFICE)
    # north is up and east is right: Ryde is north of Hurstville, Hurstville east of Parramatta
    by_name = {m.label: view.project(m.point) for m in marks}
    assert by_name["Ryde"].y() < by_name["Hurstville"].y()
    assert by_name["Hurstville"].x() > at_office.x()
    # the scale: pixels between two stops times km per pixel is their distance
    a, b = marks[0], marks[1]
    pa, pb = view.project(a.point), view.project(b.point)
    px = ((pa.x() - pb.x()) ** 2 + (pa.y() - pb.y()) ** 2) ** 0.5
    assert abs(px * view.km_per_pixel() - distance_km(a.point, b.point)) < 0.6


def test_no_stops_hides_the_map(qtbot) -> None:  # type: ignore[no-untyped-def]
    view = RouteMap()
    qtbot.addWidget(view)
    view.set_round(None, [])
    assert not view.isVisible() and view.markers() == []
    view.grab()  # painting an empty map does not fail
