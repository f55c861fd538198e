"""``store copy`` at the benchmark's size, and the 50,000-row board on SQLite vs PostgreSQL.

    .venv/bin/python benchmarks/store_copy.py [--inquiries 50000] [--to URL]

Seeds a SQLite store with ``--inquiries`` inquiries, each with its stage event and one message
(``tests.desktop.seed``; not timed), copies it with ``store copy`` into ``--to`` (an empty
PostgreSQL database) or, without ``--to``, into a fresh database of a throwaway server started
like the tests do (``tests.support.postgres``), and prints the copy's wall time. Then it times
the board's first page (count + rows), a search and a sort on both engines, median of 5 runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _median_ms(fn: Callable[[], object], runs: int = 5) -> float:
    fn()  # warm the caches once
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _board_figures(services: object) -> dict[str, float]:
    from core.inquiry.board import BoardQuery, count_rows, fetch_rows

    store = services.store  # type: ignore[attr-defined]
    now = services.clock.now()  # type: ignore[attr-defined]
    figures = {}
    for label, query in (
        ("first page", BoardQuery()),
        ("search 'smith'", BoardQuery(search="smith")),
        ("search phone 0412", BoardQuery(search="0412 3")),
        ("sort by customer", BoardQuery(sort="customer", descending=False)),
    ):

        def page(q: BoardQuery = query) -> None:
            with store.session() as s:
                count_rows(s, q, now)
                fetch_rows(s, q, now)

        figures[label] = _median_ms(page)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--inquiries", type=int, default=50_000)
    parser.add_argument("--to", default="")
    args = parser.parse_args()
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    os.environ.pop("INQUIRY_BRIDGE_DATABASE_URL", None)

    from core.app import copy_store_home
    from core.services import build_services
    from tests.desktop.seed import seed_inquiries

    server = None
    url = args.to
    if not url:
        from tests.support.postgres import PostgresServer

        server = PostgresServer().start()
        url = server.new_database("bench")
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        try:
            services = build_services(home)
            started = time.perf_counter()
            seed_inquiries(services, args.inquiries, messages=True)
            print(f"seeded {args.inquiries} inquiries in {time.perf_counter() - started:.1f} s")
            sqlite_figures = _board_figures(services)
            services.close()

            started = time.perf_counter()
            report = copy_store_home(home, url)
            print(f"store copy: {time.perf_counter() - started:.1f} s wall — {report.text()}")

            os.environ["INQUIRY_BRIDGE_DATABASE_URL"] = url
            services = build_services(home)
            pg_figures = _board_figures(services)
            services.close()
            for label, sqlite_ms in sqlite_figures.items():
                pg_ms = pg_figures[label]
                print(
                    f"board {label}: SQLite {sqlite_ms:.1f} ms, PostgreSQL {pg_ms:.1f} ms "
                    f"({pg_ms / sqlite_ms:.2f}x)"
                )
        finally:
            if server is not None:
                server.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
