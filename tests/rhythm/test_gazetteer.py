"""The NSW gazetteer places every locality it lists, by name, with a postcode, misspelt, or
inside an address, and the briefing orders Sydney's core suburbs from the office."""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from core.cli.main import main
from core.glossary import resources_dir
from core.rhythm.route import distance_km, find_place, locate, place_key

# the most populous Sydney suburbs (ABS 2021 census, state suburbs), and this trade's core ones
BIG_SYDNEY = [
    "Blacktown", "Castle Hill", "Baulkham Hills", "Kellyville", "Auburn", "Merrylands",
    "Bankstown", "Parramatta", "Liverpool", "Hurstville", "Campsie", "Penrith", "Quakers Hill",
    "Mount Druitt", "Marrickville", "Randwick", "Maroubra", "Ryde", "Epping", "Chatswood",
    "Burwood", "Strathfield", "Eastwood", "Carlingford",
]  # fmt: skip


def _rows() -> list[dict[str, str]]:
    path = resources_dir() / "gazetteer" / "nsw_localities.csv"
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def test_every_locality_in_the_dataset_is_placed_by_name_and_postcode() -> None:
    rows = _rows()
    assert len(rows) > 4500  # every NSW locality, not a few hundred towns
    # spellings of one place ("Brighton-Le-Sands" / "Brighton Le Sands", "O’Connell" /
    # "O'Connell") are one key; the dataset gives each spelling its own centre
    centres: dict[tuple[str, str], set[tuple[float, float]]] = defaultdict(set)
    for row in rows:
        centres[place_key(row["name"]), row["postcode"]].add((float(row["lat"]), float(row["lon"])))
    for row in rows:
        assert locate(row["name"]) is not None, row["name"]
        # with its postcode the right one of several same-named places is chosen
        place = find_place(f"{row['name']} NSW {row['postcode']}")
        assert place is not None and place.postcode == row["postcode"], row
        assert place.point in centres[place_key(row["name"]), row["postcode"]], row


@pytest.mark.parametrize("suburb", BIG_SYDNEY)
def test_big_sydney_suburbs_are_placed_in_sydney(suburb: str) -> None:
    place = find_place(suburb)
    assert place is not None and place.in_sydney, suburb
    assert distance_km(place.point, (-33.87, 151.0)) < 40  # within Greater Sydney's reach


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Parramatta NSW 2150", "Parramatta"),
        ("parramata", "Parramatta"),
        ("Hurtsville 2220", "Hurstville"),
        ("12 Smith St, Epping NSW 2121", "Epping"),
        ("Mt Druitt", "Mount Druitt"),
        ("Saint Ives", "St Ives"),
        ("2134", "Burwood"),
        ("STRATHFIELD", "Strathfield"),
    ],
)
def test_addresses_as_customers_write_them(text: str, expected: str) -> None:
    place = find_place(text)
    assert place is not None and place.name == expected, (text, place)


def test_unplaceable_text_is_not_guessed() -> None:
    for text in ("Atlantis", "Main St", "", None, "the back yard", "Melbourne VIC 3000"):
        assert find_place(text) is None, text


def _measure_mail(folder: Path, n: int, suburb: str) -> None:
    (folder / f"{n:03d}.eml").write_text(
        f"From: Customer {n} <c{n}@example.com>\nTo: sales@example.com.au\n"
        f"Subject: Measure for new windows\nMessage-ID: <gaz-{n}@example.com>\n"
        "Content-Type: text/plain; charset=utf-8\n\n"
        "Hi, could you come and measure our house for 3 new awning windows?\n"
        f"Address: {n} Main St, {suburb} NSW. Call me on 0412 345 {n:03d}.\nThanks, Customer {n}\n",
        encoding="utf-8",
    )


def test_briefing_orders_the_core_suburbs_from_the_office_and_the_link_follows(
    home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "eml"
    folder.mkdir()
    suburbs = ["Hurstville", "Parramatta", "Ryde", "Burwood", "Atlantis"]
    for n, suburb in enumerate(suburbs, 1):
        _measure_mail(folder, n, suburb)
    (home / "settings.toml").write_text(
        '[general]\noffice_address = "8 Church St, Parramatta NSW 2150"\n', encoding="utf-8"
    )
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T10:00:00+11:00")
    assert main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)]) == 0
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-12-01T20:00:00+11:00")
    capsys.readouterr()
    assert main(["briefing", "--json", "--home", str(home)]) == 0
    data = json.loads(capsys.readouterr().out)
    route = [v["suburb"] for v in data["measure_route"]]
    assert sorted(route) == ["Burwood", "Hurstville", "Parramatta", "Ryde"]
    assert route[0] == "Parramatta"  # the job next door to the office comes first
    assert data["office_located"] is True
    assert [v["suburb"] for v in data["unknown_places"]] == ["Atlantis"]
    assert len(data["legs_km"]) == 5 and data["route_km"] == pytest.approx(
        sum(data["legs_km"]), abs=0.3
    )
    query = parse_qs(urlparse(data["maps_url"]).query)
    assert query["origin"] == query["destination"] == ["8 Church St, Parramatta NSW 2150"]
    stops = query["waypoints"][0].split("|")
    assert [next(s for s in suburbs if s in stop) for stop in stops] == route
    assert not any("Atlantis" in stop for stop in stops)  # never silently appended
    capsys.readouterr()
    assert main(["briefing", "--home", str(home)]) == 0
    text = capsys.readouterr().out
    assert "从公司出发并返回" in text and "未能定位的地址" in text and "最后返回公司" in text
