"""NSW public holidays, FIRST_YEAR..LAST_YEAR, as ``holidays`` lists them (a generated table).

Why a table: ``core.workdays`` counts working days on every board row and in every CLI answer,
and asking ``holidays`` costs ~100 ms of imports on first use. The test
``tests/rhythm/test_workdays.py`` checks this table against the installed ``holidays`` year by
year, so a library update that moves or adds a day fails until the table is written again:

    python -m core.nsw_holidays     # rewrites this file from the installed ``holidays``
"""

from __future__ import annotations

from datetime import date

FIRST_YEAR = 2000
LAST_YEAR = 2045

# year: its holidays as MMDD (weekend ones and observed substitutes included)
HOLIDAYS: dict[int, str] = {
    2000: "0101 0126 0421 0422 0424 0425 0612 0807 1002 1225 1226",
    2001: "0101 0126 0413 0414 0416 0425 0611 0806 1001 1225 1226",
    2002: "0101 0126 0329 0330 0401 0425 0610 0805 1007 1225 1226",
    2003: "0101 0126 0127 0418 0419 0421 0425 0609 0804 1006 1225 1226",
    2004: "0101 0126 0409 0410 0412 0425 0426 0614 0802 1004 1225 1226 1227",
    2005: "0101 0126 0325 0326 0328 0425 0613 0801 1003 1225 1226 1227",
    2006: "0101 0102 0126 0414 0415 0417 0425 0612 0807 1002 1225 1226",
    2007: "0101 0126 0406 0407 0409 0425 0611 0806 1001 1225 1226",
    2008: "0101 0126 0321 0322 0324 0425 0609 0804 1006 1225 1226",
    2009: "0101 0126 0410 0411 0413 0425 0608 0803 1005 1225 1226",
    2010: "0101 0126 0402 0403 0405 0425 0426 0614 0802 1004 1225 1226 1227",
    2011: "0101 0103 0126 0422 0423 0424 0425 0613 1003 1225 1226 1227",
    2012: "0101 0102 0126 0406 0407 0408 0409 0425 0611 1001 1225 1226",
    2013: "0101 0128 0329 0330 0331 0401 0425 0610 1007 1225 1226",
    2014: "0101 0127 0418 0419 0420 0421 0425 0609 1006 1225 1226",
    2015: "0101 0126 0403 0404 0405 0406 0425 0608 1005 1225 1226 1228",
    2016: "0101 0126 0325 0326 0327 0328 0425 0613 1003 1225 1226 1227",
    2017: "0101 0102 0126 0414 0415 0416 0417 0425 0612 1002 1225 1226",
    2018: "0101 0126 0330 0331 0401 0402 0425 0611 1001 1225 1226",
    2019: "0101 0128 0419 0420 0421 0422 0425 0610 1007 1225 1226",
    2020: "0101 0127 0410 0411 0412 0413 0425 0608 1005 1225 1226 1228",
    2021: "0101 0126 0402 0403 0404 0405 0425 0614 1004 1225 1226 1227 1228",
    2022: "0101 0103 0126 0415 0416 0417 0418 0425 0613 0922 1003 1225 1226 1227",
    2023: "0101 0102 0126 0407 0408 0409 0410 0425 0612 1002 1225 1226",
    2024: "0101 0126 0329 0330 0331 0401 0425 0610 1007 1225 1226",
    2025: "0101 0127 0418 0419 0420 0421 0425 0609 1006 1225 1226",
    2026: "0101 0126 0403 0404 0405 0406 0425 0427 0608 1005 1225 1226 1228",
    2027: "0101 0126 0326 0327 0328 0329 0425 0426 0614 1004 1225 1226 1227 1228",
    2028: "0101 0103 0126 0414 0415 0416 0417 0425 0612 1002 1225 1226",
    2029: "0101 0126 0330 0331 0401 0402 0425 0611 1001 1225 1226",
    2030: "0101 0128 0419 0420 0421 0422 0425 0610 1007 1225 1226",
    2031: "0101 0127 0411 0412 0413 0414 0425 0609 1006 1225 1226",
    2032: "0101 0126 0326 0327 0328 0329 0425 0614 1004 1225 1226 1227 1228",
    2033: "0101 0103 0126 0415 0416 0417 0418 0425 0613 1003 1225 1226 1227",
    2034: "0101 0102 0126 0407 0408 0409 0410 0425 0612 1002 1225 1226",
    2035: "0101 0126 0323 0324 0325 0326 0425 0611 1001 1225 1226",
    2036: "0101 0128 0411 0412 0413 0414 0425 0609 1006 1225 1226",
    2037: "0101 0126 0403 0404 0405 0406 0425 0608 1005 1225 1226 1228",
    2038: "0101 0126 0423 0424 0425 0426 0614 1004 1225 1226 1227 1228",
    2039: "0101 0103 0126 0408 0409 0410 0411 0425 0613 1003 1225 1226 1227",
    2040: "0101 0102 0126 0330 0331 0401 0402 0425 0611 1001 1225 1226",
    2041: "0101 0128 0419 0420 0421 0422 0425 0610 1007 1225 1226",
    2042: "0101 0127 0404 0405 0406 0407 0425 0609 1006 1225 1226",
    2043: "0101 0126 0327 0328 0329 0330 0425 0608 1005 1225 1226 1228",
    2044: "0101 0126 0415 0416 0417 0418 0425 0613 1003 1225 1226 1227",
    2045: "0101 0102 0126 0407 0408 0409 0410 0425 0612 1002 1225 1226",
}


def holidays_of(year: int) -> list[date]:
    """The table's holidays of ``year``; empty outside FIRST_YEAR..LAST_YEAR."""
    return [date(year, int(d[:2]), int(d[2:])) for d in HOLIDAYS.get(year, "").split()]


def library_holidays(year: int) -> frozenset[date]:
    """NSW public holidays of ``year`` straight from ``holidays`` (slow: imported on first call;
    ``core.workdays`` asks it only for a year outside the table)."""
    import holidays  # ~100 ms and 280 modules on first use: never on the hot path

    return frozenset(holidays.country_holidays("AU", subdiv="NSW", years=[year]).keys())


def _write() -> None:
    """Rewrite this file's table from the installed ``holidays`` (for maintainers, not the app)."""
    from pathlib import Path

    lines = []
    for year in range(FIRST_YEAR, LAST_YEAR + 1):
        days = " ".join(d.strftime("%m%d") for d in sorted(library_holidays(year)))
        lines.append(f'    {year}: "{days}",')
    table = "HOLIDAYS: dict[int, str] = {\n" + "\n".join(lines) + "\n}\n"
    path = Path(__file__)
    source = path.read_text(encoding="utf-8")
    start = source.index("HOLIDAYS: dict[int, str] = {")
    end = source.index("}\n", start) + 2
    path.write_text(source[:start] + table + source[end:], encoding="utf-8")


if __name__ == "__main__":
    _write()
