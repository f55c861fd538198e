"""``store copy`` at the benchmark's size, and the 50,000-row board on SQLite vs PostgreSQL.

    .venv/bin/python benchmarks/store_copy.py [--inquiries 50000] [--to URL]

Seeds a SQLite data folder with ``--inquiries`` inquiries, each with its stage event, one
message and that message's raw mail, a PDF plan on every tenth, the knowledge base and sent
drafts in the send journal (``tests.store.seeded_folder``; not timed), copies it with ``store
copy`` into ``--to`` (an empty PostgreSQL database) or, without ``--to``, into a fresh database
of a throwaway server started like the tests do (``tests.support.postgres``), and prints the
copy's wall time. Then the app starts on PostgreSQL, from the same folder and from a second,
empty one (another desk): ``inquiries --json``, ``mail --json``, ``status --json``, the board's
total, every raw mail and attachment, the knowledge base and the journal must be what SQLite
showed (exit 1 otherwise). Last, the board's first page (count + rows), a search and a sort on
both engines, median of 5 runs.
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
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
T = TypeVar("T")


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
    parser.add_argument(
        "--every", type=int, default=10, help="read every n-th raw mail and attachment back"
    )
    args = parser.parse_args()
    os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")
    os.environ.pop("INQUIRY_BRIDGE_DATABASE_URL", None)
    os.environ.setdefault("INQUIRY_BRIDGE_NOW", "2026-03-05T10:00:00+11:00")

    server = None
    url = args.to
    if not url:
        from tests.support.postgres import PostgresServer

        server = PostgresServer().start()
        url = server.new_database("bench")
    try:
        with tempfile.TemporaryDirectory() as tmp:
            return _run(Path(tmp), args.inquiries, url, args.every)
    finally:
        if server is not None:
            server.stop()


def _timed(label: str, fn: Callable[[], T]) -> T:
    started = time.perf_counter()
    result = fn()
    print(f"{label}: {time.perf_counter() - started:.1f} s")
    return result


def _run(tmp: Path, inquiries: int, url: str, every: int) -> int:
    from core.app import copy_store_home
    from core.services import build_services
    from tests.store.seeded_folder import app_view, seed_folder

    home = tmp / "home"
    services = build_services(home)
    _timed(
        f"seeded {inquiries} inquiries with raw mail and attachments (setup)",
        lambda: seed_folder(services, inquiries),
    )
    sqlite_figures = _board_figures(services)
    services.close()
    before = _timed(
        "the app's view on SQLite (CLI JSON, board, files)", lambda: app_view(home, every=every)
    )

    started = time.perf_counter()
    report = copy_store_home(home, url)
    print(f"store copy: {time.perf_counter() - started:.1f} s wall — {report.text()}")
    print(
        f"  rows {report.total} in {len(report.rows)} tables; files {report.folder.files} "
        f"({report.folder.bytes / 1e6:.1f} MB); knowledge {report.folder.documents}; "
        f"journal lines {report.folder.journal_lines}"
    )

    os.environ["INQUIRY_BRIDGE_DATABASE_URL"] = url
    same = (
        _timed("the app's view on PostgreSQL, same folder", lambda: app_view(home, every=every))
        == before
    )
    desk = _timed("the app's view on PostgreSQL, a second desk (empty cache)",
                  lambda: app_view(tmp / "second-desk", every=every)) == before  # fmt: skip
    print(
        f"nothing lost: same folder {'yes' if same else 'NO'}, second desk "
        f"{'yes' if desk else 'NO'} ({before['board_total']} inquiries on the board, "
        f"{before['files'][0]} raw mails and {before['files'][1]} attachments read back: "
        f"every {every}th)"
    )
    services = build_services(home)
    pg_figures = _board_figures(services)
    services.close()
    for label, sqlite_ms in sqlite_figures.items():
        pg_ms = pg_figures[label]
        print(
            f"board {label}: SQLite {sqlite_ms:.1f} ms, PostgreSQL {pg_ms:.1f} ms "
            f"({pg_ms / sqlite_ms:.2f}x)"
        )
    return 0 if same and desk else 1


if __name__ == "__main__":
    raise SystemExit(main())
