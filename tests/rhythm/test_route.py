"""The measuring route: ordered from the office, shorter than the jobs' arrival order."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

from core.rhythm.route import Stop, directions_url, locate, path_km, plan_route

# Eight Sydney suburbs in an order that zigzags west-east (as jobs arrive)
SUBURBS = [
    "Penrith",
    "Bondi",
    "Castle Hill",
    "Manly",
    "Liverpool",
    "Chatswood",
    "Hornsby",
    "Epping",
]


def test_suburbs_are_found_in_the_bundled_gazetteer() -> None:
    for suburb in [*SUBURBS, "Epping NSW 2121", "castle hill"]:
        assert locate(suburb) is not None, suburb
    assert locate("Atlantis") is None and locate(None) is None


def test_the_route_beats_the_unordered_list_on_total_distance() -> None:
    office = locate("Auburn")
    assert office is not None
    stops = [Stop(i, f"{i} Main St, {s}", s) for i, s in enumerate(SUBURBS)]
    route = plan_route(stops, office)
    assert sorted(s.key for s in route.ordered) == list(range(8)) and route.unknown == []
    unordered = path_km([office] + [p for s in SUBURBS if (p := locate(s)) is not None])
    assert route.total_km < unordered * 0.75, (route.total_km, unordered)
    # neighbours stay together: Castle Hill, Hornsby, Epping are not split by the far east
    order = [s.suburb for s in route.ordered]
    east = {order.index("Bondi"), order.index("Manly")}
    assert max(east) - min(east) <= 2


def test_unknown_places_are_kept_and_listed_last() -> None:
    stops = [Stop(1, "1 A St, Atlantis", "Atlantis"), Stop(2, "2 B St, Epping", "Epping")]
    route = plan_route(stops, None)
    assert [s.key for s in route.ordered] == [2] and [s.key for s in route.unknown] == [1]


def test_the_directions_link_is_a_round_from_the_office_through_every_stop() -> None:
    stops = [Stop(1, "1 A St, Epping, NSW", "Epping"), Stop(2, "2 B St, Manly, NSW", "Manly")]
    url = directions_url("5 Office Rd, Auburn NSW", stops)
    assert url is not None and url.startswith("https://www.google.com/maps/dir/?api=1")
    query = parse_qs(urlparse(url).query)
    assert query["origin"] == ["5 Office Rd, Auburn NSW"]
    assert query["waypoints"] == ["1 A St, Epping, NSW|2 B St, Manly, NSW"]
    assert query["destination"] == ["5 Office Rd, Auburn NSW"]
    # without an office: an open path, the last stop its destination
    query = parse_qs(urlparse(directions_url(None, stops) or "").query)
    assert query["waypoints"] == ["1 A St, Epping, NSW"]
    assert query["destination"] == ["2 B St, Manly, NSW"]
    assert directions_url(None, []) is None


def test_the_round_comes_back_to_the_office_and_its_legs_add_up() -> None:
    office = locate("Parramatta NSW 2150")
    assert office is not None
    stops = [Stop(i, s, s) for i, s in enumerate(["Hurstville", "Ryde", "Burwood"])]
    route = plan_route(stops, office)
    assert len(route.legs_km) == 4  # office -> 3 stops -> office
    assert abs(sum(route.legs_km) - route.total_km) < 0.2
    points = [office, *(locate(s.suburb) for s in route.ordered), office]
    assert abs(path_km(points) - route.total_km) < 0.1  # type: ignore[arg-type]
