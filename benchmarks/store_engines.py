"""PostgreSQL vs SQLite on the same machine: intake wall time and the 50,000-row board.

    .venv/bin/python benchmarks/store_engines.py [--messages 300] [--latency 0.2]
        [--inquiries 50000] [--runs 5]

Issue 38's target: with the store on PostgreSQL, intake's wall time and the board's first query
at 50,000 inquiries stay within 1.3x of SQLite's on the same machine. Both engines run here, one
after the other, on a PostgreSQL server started like the tests start it (``tests.support.
postgres``: a local, unprivileged ``initdb``/``pg_ctl`` on a loopback port).

Intake: ``benchmarks/intake.py``'s generated mail mix through the real pipeline against its
loopback model (``--latency`` s per call; a second pass at 0 s shows the store's own share),
into a fresh data folder per engine (a fresh database for PostgreSQL; raw mail and attachments
go into the store there). Printed: wall, wall/floor (floor = calls x latency / concurrency) and
PostgreSQL/SQLite.

Board: ``tests.desktop.seed`` inquiries (with a message each) on SQLite, moved by ``store copy``;
then, for each engine in a fresh ``Services``, the first query the board makes (count + first
page) timed cold (the first after opening the store) and warm (median of ``--runs``).

Exit 1 when a ratio is over 1.3x. On a shared, loaded machine the walls move with the load;
run it twice, or on a quiet machine, before reading much into one miss.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

TARGET = 1.3


def _ratio(label: str, sqlite: float, pg: float, unit: str, misses: list[str]) -> None:
    ratio = pg / sqlite if sqlite else float("inf")
    ok = ratio <= TARGET
    if not ok:
        misses.append(label)
    print(
        f"{label}: SQLite {sqlite:.{1 if unit == 'ms' else 2}f} {unit}, PostgreSQL "
        f"{pg:.{1 if unit == 'ms' else 2}f} {unit} -> {ratio:.2f}x [{'ok' if ok else 'MISSED'}"
        f" <= {TARGET}x]"
    )


def _intake_wall(raws: list[Any], url: str | None, latency: float, concurrency: int) -> float:
    import intake as bench  # benchmarks/intake.py

    if url:
        os.environ["INQUIRY_BRIDGE_DATABASE_URL"] = url
    else:
        os.environ.pop("INQUIRY_BRIDGE_DATABASE_URL", None)
    with tempfile.TemporaryDirectory() as tmp, bench.model_process(latency) as model:
        wall, services = asyncio.run(
            bench.run(raws, Path(tmp) / "home", model, concurrency, strip=True)
        )
        _dispositions, calls = bench.ledger(services)
        services.close()
    floor = len(calls) * latency / concurrency
    shown = f", wall/floor {wall / floor:.2f}" if floor else ""
    print(f"  intake {'PostgreSQL' if url else 'SQLite'} at {latency} s/call: {wall:.2f} s{shown}")
    return float(wall)


def _board_first_query(home: Path, url: str | None, runs: int) -> tuple[float, float]:
    from core.inquiry.board import BoardQuery, count_rows, fetch_rows
    from core.services import build_services

    if url:
        os.environ["INQUIRY_BRIDGE_DATABASE_URL"] = url
    else:
        os.environ.pop("INQUIRY_BRIDGE_DATABASE_URL", None)
    services = build_services(home)
    try:
        now = services.clock.now()
        query = BoardQuery()

        def first() -> float:
            started = time.perf_counter()
            with services.store.session() as s:
                count_rows(s, query, now)
                fetch_rows(s, query, now)
            return (time.perf_counter() - started) * 1000

        cold = first()
        warm = statistics.median(first() for _ in range(runs))
    finally:
        services.close()
    return cold, warm


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=300)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, default=10)
    parser.add_argument("--inquiries", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    os.environ.pop("INQUIRY_BRIDGE_DATABASE_URL", None)

    import intake as bench

    from core.app import copy_store_home
    from core.services import build_services
    from tests.desktop.seed import seed_inquiries
    from tests.support.postgres import PostgresServer

    misses: list[str] = []
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    server = PostgresServer().start()
    try:
        raws, _kinds = bench.generate(args.messages)
        print(f"intake: {len(raws)} messages, concurrency {args.concurrency}")
        for latency in (args.latency, 0.0):
            sqlite = _intake_wall(raws, None, latency, args.concurrency)
            pg = _intake_wall(raws, server.new_database("intake"), latency, args.concurrency)
            _ratio(f"intake wall at {latency} s/call", sqlite, pg, "s", misses)

        os.environ.pop("INQUIRY_BRIDGE_DATABASE_URL", None)  # the seed goes into SQLite
        with tempfile.TemporaryDirectory() as tmp:
            home = Path(tmp) / "home"
            services = build_services(home)
            seed_inquiries(services, args.inquiries, messages=True)
            services.close()
            url = server.new_database("board")
            copy_store_home(home, url)
            print(f"board: {args.inquiries} inquiries (store copy into PostgreSQL)")
            sqlite_cold, sqlite_warm = _board_first_query(home, None, args.runs)
            pg_cold, pg_warm = _board_first_query(home, url, args.runs)
            _ratio("board first query, cold", sqlite_cold, pg_cold, "ms", misses)
            _ratio(
                f"board first query, warm median of {args.runs}", sqlite_warm, pg_warm, "ms", misses
            )
    finally:
        server.stop()
        os.environ.pop("INQUIRY_BRIDGE_DATABASE_URL", None)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if misses:
        print("missed: " + "; ".join(misses))
        return 1
    print(f"every figure within {TARGET}x of SQLite")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
