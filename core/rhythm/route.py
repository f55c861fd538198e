"""A short driving round for tomorrow's measuring stops, from an offline gazetteer of NSW.

Why not an online geocoder: the briefing must work at 8 PM on a flaky connection and must not
send customers' addresses anywhere. Every NSW locality with its postcode and centre
(``resources/gazetteer/nsw_localities.csv``, see its README for source and licence) is close
enough to order a day's stops; straight-line distance stands in for road distance. The round
starts and ends at the office: nearest-neighbour from it, then 2-opt until no swap shortens the
closed tour — exact for the handful of stops a day has in practice, and never worse than the
order the jobs came in. A stop the gazetteer cannot place is kept apart, never guessed.
"""

from __future__ import annotations

import csv
import difflib
import itertools
import math
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from urllib.parse import quote

from core.glossary import resources_dir

Point = tuple[float, float]

_POSTCODE = re.compile(r"\b(\d{4})\b")
_STATE = re.compile(r"(\s+(nsw|new south wales|australia))+$")


@dataclass(frozen=True)
class Place:
    name: str
    postcode: str
    point: Point
    region: str  # ABS SA4 name ("Sydney - Parramatta"), "" when the source has none

    @property
    def in_sydney(self) -> bool:
        return self.region.startswith("Sydney")


@dataclass(frozen=True)
class Gazetteer:
    by_name: dict[str, list[Place]]
    by_postcode: dict[str, list[Place]]
    names: list[str] = field(default_factory=list)


@cache
def gazetteer() -> Gazetteer:
    path = resources_dir() / "gazetteer" / "nsw_localities.csv"
    by_name: dict[str, list[Place]] = defaultdict(list)
    by_postcode: dict[str, list[Place]] = defaultdict(list)
    with path.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            place = Place(
                row["name"], row["postcode"], (float(row["lat"]), float(row["lon"])), row["region"]
            )
            by_name[place_key(place.name)].append(place)
            by_postcode[place.postcode].append(place)
    return Gazetteer(dict(by_name), dict(by_postcode), sorted(by_name))


def place_key(name: str) -> str:
    name = re.sub(r"\bmount\b", "mt", name.lower())
    name = re.sub(r"\bsaint\b", "st", name)
    return re.sub(r"[^a-z]+", " ", name).strip()


def _best(places: list[Place], postcode: str | None) -> Place:
    """Of places sharing a name, the one with the postcode given, else Sydney's, else the first."""
    if postcode:
        for place in places:
            if place.postcode == postcode:
                return place
    return next((p for p in places if p.in_sydney), places[0])


def find_place(text: str | None) -> Place | None:
    """The NSW locality ``text`` names: 'Parramatta', 'Parramatta NSW 2150', 'parramata 2150',
    '12 Smith St, Epping NSW 2121' (the last part that names a place), or None.

    A misspelt name is matched only when it is close (difflib ratio ≥ 0.85) and, when a postcode
    is given, only among that postcode's localities; a postcode alone places its own area.
    """
    if not text:
        return None
    for part in reversed([p for p in text.split(",") if p.strip()]):
        place = _find_in_part(part)
        if place is not None:
            return place
    return None


def _find_in_part(part: str) -> Place | None:
    gaz = gazetteer()
    found = _POSTCODE.search(part)
    postcode = found.group(1) if found else None
    key = _STATE.sub("", place_key(_POSTCODE.sub(" ", part)))
    key = re.sub(r"^\d+[a-z]?\s+", "", key)  # a street number left in front
    if key in gaz.by_name:
        return _best(gaz.by_name[key], postcode)
    if postcode and postcode in gaz.by_postcode:
        area = gaz.by_postcode[postcode]
        close = difflib.get_close_matches(key, [place_key(p.name) for p in area], n=1, cutoff=0.85)
        return (
            next((p for p in area if place_key(p.name) == close[0]), area[0]) if close else area[0]
        )
    if len(key) < 4:
        return None
    close = difflib.get_close_matches(key, gaz.names, n=1, cutoff=0.85)
    return _best(gaz.by_name[close[0]], None) if close else None


def locate(suburb: str | None) -> Point | None:
    """The locality's centre, or None when the gazetteer does not know it."""
    place = find_place(suburb)
    return place.point if place is not None else None


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
    total_km: float  # the whole round, straight-line: office -> every stop -> office
    start_known: bool
    legs_km: list[float] = field(default_factory=list)  # one per leg, the return leg last
    points: list[Point] = field(default_factory=list)  # the located stops' centres, in order


def _tour_km(order: Sequence[int], points: list[Point], start: Point | None) -> float:
    seq = [points[i] for i in order]
    if start is not None:
        seq = [start, *seq, start]  # a round: out from the office and back
    return path_km(seq)


def _two_opt(order: list[int], points: list[Point], start: Point | None) -> list[int]:
    best, best_km = order, _tour_km(order, points, start)
    improved = True
    while improved:
        improved = False
        for i in range(len(best) - 1):
            for j in range(i + 1, len(best)):
                candidate = best[:i] + best[i : j + 1][::-1] + best[j + 1 :]
                km = _tour_km(candidate, points, start)
                if km + 1e-9 < best_km:
                    best, best_km, improved = candidate, km, True
    return best


def _nearest_neighbour(points: list[Point], start: Point | None) -> list[int]:
    remaining = list(range(len(points)))
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
    return order


def plan_route(stops: Sequence[Stop], start: Point | None) -> Route:
    """A round from ``start`` (the office) through every placeable stop and back.

    Without an office the route is an open path from the first stop that arrived.
    """
    located = [(s, p) for s in stops if (p := locate(s.suburb)) is not None]
    unknown = [s for s in stops if locate(s.suburb) is None]
    points = [p for _, p in located]
    order = _two_opt(_nearest_neighbour(points, start), points, start)
    seq = [points[i] for i in order]
    if start is not None and seq:
        seq = [start, *seq, start]
    legs = [round(distance_km(a, b), 1) for a, b in itertools.pairwise(seq)]
    return Route(
        ordered=[located[i][0] for i in order],
        unknown=unknown,
        total_km=round(path_km(seq), 1),
        start_known=start is not None,
        legs_km=legs,
        points=[points[i] for i in order],
    )


def directions_url(origin: str | None, stops: Sequence[Stop]) -> str | None:
    """A Google Maps directions link visiting ``stops`` in this order (None without stops).

    With an office it is a round: from the office through every stop as a waypoint, back to the
    office. Only placed stops belong here; the caller lists the others apart.
    """
    if not stops:
        return None
    labels = [s.label for s in stops]
    if origin:
        destination, waypoints = origin, labels
    else:
        destination, waypoints = labels[-1], labels[:-1]
    params = [f"api=1&travelmode=driving&destination={quote(destination)}"]
    if origin:
        params.append(f"origin={quote(origin)}")
    if waypoints:
        params.append("waypoints=" + quote("|".join(waypoints)))
    return "https://www.google.com/maps/dir/?" + "&".join(params)
