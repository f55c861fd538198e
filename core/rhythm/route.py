"""A short driving order for tomorrow's measuring stops, from an offline gazetteer.

Why not an online geocoder: the briefing must work at 8 PM on a flaky connection and must not
send customers' addresses anywhere. Suburb centres from GeoNames (resources/gazetteer) are close
enough to order a day's stops; straight-line distance stands in for road distance. Ordering is
nearest-neighbour from the office, then 2-opt until no swap shortens the tour — exact for the
handful of stops a day has in practice, and never worse than the order the jobs came in.
"""

from __future__ import annotations

import csv
import itertools
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from urllib.parse import quote

from core.glossary import resources_dir

Point = tuple[float, float]


@cache
def _places() -> dict[str, Point]:
    path = resources_dir() / "gazetteer" / "nsw_places.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        return {
            _key(row["name"]): (float(row["lat"]), float(row["lon"]))
            for row in csv.DictReader(handle)
        }


def _key(name: str) -> str:
    return re.sub(r"[^a-z]+", " ", name.lower()).strip()


def locate(suburb: str | None) -> Point | None:
    """The suburb's centre, or None when the gazetteer does not know it."""
    if not suburb:
        return None
    key = _key(re.sub(r"\b(nsw|\d{4})\b", " ", suburb, flags=re.IGNORECASE))
    return _places().get(key)


def distance_km(a: Point, b: Point) -> float:
    """Great-circle distance (haversine)."""
    lat1, lon1, lat2, lon2 = map(math.radians, (*a, *b))
    h = (
        math.sin((lat2 - lat1) / 2) ** 2
        + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    )
    return 2 * 6371.0 * math.asin(math.sqrt(h))


def path_km(points: Sequence[Point]) -> float:
    return sum(distance_km(a, b) for a, b in itertools.pairwise(points))


@dataclass(frozen=True)
class Stop:
    key: int  # the caller's id (an inquiry id)
    label: str  # what goes in the directions link (street address and suburb)
    suburb: str | None


@dataclass(frozen=True)
class Route:
    ordered: list[Stop]  # located stops in driving order
    unknown: list[Stop]  # stops the gazetteer could not place, in their original order
    total_km: float  # start -> every located stop, straight-line
    start_known: bool


def _two_opt(order: list[int], points: list[Point], start: Point | None) -> list[int]:
    def tour(o: list[int]) -> float:
        seq = ([start] if start else []) + [points[i] for i in o]
        return path_km(seq)

    best, best_km = order, tour(order)
    improved = True
    while improved:
        improved = False
        for i in range(len(best) - 1):
            for j in range(i + 1, len(best)):
                candidate = best[:i] + best[i : j + 1][::-1] + best[j + 1 :]
                km = tour(candidate)
                if km + 1e-9 < best_km:
                    best, best_km, improved = candidate, km, True
    return best


def plan_route(stops: Sequence[Stop], start: Point | None) -> Route:
    """Order ``stops`` from ``start`` (the office; None: begin at the westmost-first stop)."""
    located = [(s, p) for s in stops if (p := locate(s.suburb)) is not None]
    unknown = [s for s in stops if locate(s.suburb) is None]
    points = [p for _, p in located]
    remaining = list(range(len(located)))
    order: list[int] = []
    here = start
    while remaining:
        if here is None:
            nxt = remaining[0]
        else:
            origin = here
            nxt = min(remaining, key=lambda i: distance_km(origin, points[i]))
        order.append(nxt)
        remaining.remove(nxt)
        here = points[nxt]
    order = _two_opt(order, points, start)
    seq = ([start] if start else []) + [points[i] for i in order]
    return Route(
        ordered=[located[i][0] for i in order],
        unknown=unknown,
        total_km=round(path_km(seq), 1),
        start_known=start is not None,
    )


def directions_url(origin: str | None, stops: Sequence[Stop]) -> str | None:
    """A Google Maps directions link visiting ``stops`` in order (None without stops)."""
    if not stops:
        return None
    labels = [s.label for s in stops]
    destination = labels[-1]
    params = [f"api=1&travelmode=driving&destination={quote(destination)}"]
    if origin:
        params.append(f"origin={quote(origin)}")
    if len(labels) > 1:
        params.append("waypoints=" + quote("|".join(labels[:-1])))
    return "https://www.google.com/maps/dir/?" + "&".join(params)
