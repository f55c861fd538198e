"""Desktop benchmark (offscreen): cold start, a 50,000-inquiry board, search keystrokes, RSS,
and event-loop lag while 1,000 messages are ingested in the background.

    .venv/bin/python benchmarks/desktop.py [--inquiries 50000] [--messages 1000]

The product's goals (issue 44), on a quiet machine: cold start < 0.5 s, first paint of a
50,000-inquiry board < 100 ms, search per keystroke and sort median < 20 ms, RSS < 400 MB,
loop lag p99 < 50 ms. A figure passes within its margin (cold start < 0.6 s, first paint
< 150 ms, search and sort < 25 ms); the script prints one line per figure with its goal and
exits 1 when any figure misses. It also prints the UI thread's CPU time for the whole
search-and-sort sequence (the figure to compare between two checkouts on a loaded machine).
How to compare two checkouts, and every round's figures: docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

T0 = time.perf_counter()

# figure -> (goal, pass bound, unit); a figure above its pass bound fails the run
GOALS: dict[str, tuple[float, float, str]] = {
    "cold start": (0.5, 0.6, "s"),
    "first paint": (100, 150, "ms"),
    "search per keystroke (median)": (20, 25, "ms"),
    "sort (median)": (20, 25, "ms"),
    "RSS with the board open": (400, 400, "MB"),
    "loop lag p99": (50, 50, "ms"),
}
MISSED: list[str] = []


def judged(figure: str, value: float) -> str:
    """`` (goal < G, pass < P): ok|MISSED`` for ``figure``; a miss is remembered for the exit."""
    goal, bound, unit = GOALS[figure]
    verdict = "ok" if value < bound else "MISSED"
    if value >= bound:
        MISSED.append(f"{figure} {value:g} {unit} (pass < {bound:g})")
    margin = f", pass < {bound:g} {unit}" if bound != goal else ""
    return f"(goal < {goal:g} {unit}{margin}): {verdict}"


ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYTHON_KEYRING_BACKEND", "keyrings.alt.file.PlaintextKeyring")


def rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cold_start_child(home: str) -> None:
    """Runs in a fresh process: import, build, show the board and paint it; print seconds since
    interpreter start. ``core.app`` is imported before Qt, and ``desktop.gc_held`` before
    both (the collector held back until the board has painted), as the launcher does."""
    import desktop.gc_held  # noqa: F401  # isort: skip
    from core.app import build_app
    from desktop.app import DesktopApp, make_qapp

    import qasync  # isort: skip  (after core, as in the launcher)
    from PySide6.QtCore import QTimer  # isort: skip

    qapp = make_qapp()
    folder = build_app(home)
    app = DesktopApp(qapp, folder, tray=True)

    async def main() -> float:
        app.start()
        shown = app.window if app.wizard is None else app.wizard
        while not shown.isVisible() and not (app.tray and app.tray.icon.isVisible()):
            await asyncio.sleep(0.005)
        await app.window.board.ready()
        app.window.grab()  # painted, not only loaded
        elapsed = time.perf_counter() - T0
        QTimer.singleShot(0, app.quit)
        return elapsed

    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(qapp)) as runner:
        elapsed = runner.run(main())
    print(f"{elapsed:.3f}")
    folder.close()


def synthetic_mail(i: int) -> bytes:
    m = EmailMessage()
    m["From"] = f"Customer {i} <customer{i}@example.com>"
    m["To"] = "sales@aurorawindows.com.au"
    m["Subject"] = f"Quote for sliding door #{i}"
    m["Date"] = format_datetime(
        __import__("datetime").datetime(2026, 3, 1, 9, 0, tzinfo=__import__("datetime").UTC)
    )
    m["Message-ID"] = f"<bench-{i}@example.com>"
    m.set_content(
        f"Hi,\n\nPlease quote a sliding door 2400 x 2100 and two awning windows for our house "
        f"at {i} Example Street, Castle Hill. Call me on 0412 {i % 1000:03d} 678.\n\nThanks\nCustomer {i}\n"
    )
    return bytes(m)


async def _open_board(home: Path, inquiries: int) -> tuple[Any, Any, Any]:
    """Seed the store, drain the start-up alerts, open the window: (services, ctx, window)."""
    from core.app import App
    from core.services import build_services
    from desktop.context import build_context
    from desktop.i18n import LanguageManager
    from desktop.main_window import MainWindow
    from tests.desktop.seed import seed_inquiries

    services = build_services(home)
    started = time.perf_counter()
    seed_inquiries(services, inquiries)
    print(
        f"seeded {inquiries} inquiries in {time.perf_counter() - started:.1f} s (setup, not timed)"
    )
    LanguageManager(services.paths.cache).apply("zh_CN")
    ctx = build_context(App(services))
    # The start-up alert catch-up runs on the notification worker, off the UI thread; with a
    # seed whose last two days hold ~2,500 unannounced inquiries it is a one-off backlog that
    # would compete with every figure below, so it is waited for (and timed) here.
    started = time.perf_counter()
    ctx.notifications.drain(timeout=600)
    print(
        f"start-up alert catch-up (notification worker, not the UI thread): "
        f"{time.perf_counter() - started:.1f} s (setup, not timed)"
    )

    started = time.perf_counter()
    window = MainWindow(ctx)
    window.resize(1600, 860)
    window.show()
    await window.board.ready()
    await asyncio.sleep(0)
    window.grab()
    first_paint = time.perf_counter() - started
    print(
        f"board first paint with {window.board.model.total} inquiries: {first_paint * 1000:.0f} ms "
        + judged("first paint", round(first_paint * 1000))
    )
    return services, ctx, window


async def _search_and_sort(board: Any) -> None:
    """Time each search keystroke, then a sort on each column; the UI thread's CPU for both."""
    cpu_start = time.thread_time()
    timings = []
    for typed in [
        "s",
        "sa",
        "sar",
        "sara",
        "sarah",
        "sarah m",
        "0412",
        "0412 3",
        "0412 34",
        "castle",
        "parra",
    ]:
        board.search.setText(typed)
        t = time.perf_counter()
        board._apply_filters()
        await board.ready()
        await asyncio.sleep(0)
        timings.append((time.perf_counter() - t) * 1000)
    median = statistics.median(timings)
    print(
        f"search per keystroke: median {median:.0f} ms, max {max(timings):.0f} ms over "
        f"{len(timings)} keystrokes " + judged("search per keystroke (median)", round(median))
    )
    board.search.setText("")
    board._apply_filters()
    await board.ready()
    sorts = []
    for col in range(8):
        t = time.perf_counter()
        board.table.sortByColumn(
            col, __import__("PySide6.QtCore").QtCore.Qt.SortOrder.AscendingOrder
        )
        await board.ready()
        sorts.append((time.perf_counter() - t) * 1000)
    median = statistics.median(sorts)
    print(
        f"sort any column: median {median:.0f} ms, max {max(sorts):.0f} ms "
        + judged("sort (median)", round(median))
    )
    print(
        f"UI-thread CPU for the {len(timings)} keystrokes and {len(sorts)} sorts: "
        f"{(time.thread_time() - cpu_start) * 1000:.0f} ms"
    )


async def _ingest_with_lag_probe(services: Any, window: Any, messages: int) -> None:
    """Event-loop lag while messages are ingested in the background, the board open."""
    from core.intake.pipeline import build_pipeline
    from core.mail.source import RawMessage

    pipeline = build_pipeline(services, offline=True)
    raws = [
        RawMessage(raw=synthetic_mail(i), source="eml", source_ref=f"{i}.eml")
        for i in range(messages)
    ]
    lags: list[float] = []
    done = asyncio.Event()

    async def probe() -> None:
        loop = asyncio.get_running_loop()
        while not done.is_set():
            t = loop.time()
            await asyncio.sleep(0.01)
            lags.append(max(0.0, (loop.time() - t - 0.01) * 1000))

    probe_task = asyncio.ensure_future(probe())
    t = time.perf_counter()
    report = await pipeline.ingest_batch(raws)
    ingest_s = time.perf_counter() - t
    done.set()
    await probe_task
    await window.board.ready()
    lags.sort()
    p50 = lags[len(lags) // 2]
    p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))]
    print(
        f"ingested {report.processed} messages in {ingest_s:.1f} s with the board open; "
        f"loop lag p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {lags[-1]:.1f} ms "
        + judged("loop lag p99", p99)
    )


async def board_and_lag(home: Path, inquiries: int, messages: int) -> None:
    services, ctx, window = await _open_board(home, inquiries)
    await _search_and_sort(window.board)
    rss = rss_mb()
    print(f"RSS with the 50k board open: {rss:.0f} MB " + judged("RSS with the board open", rss))
    await _ingest_with_lag_probe(services, window, messages)
    print(f"RSS after ingest: {rss_mb():.0f} MB")
    window.close()
    ctx.hub.detach()
    await ctx.app.aclose()
    ctx.app.close()  # detaches the notification center before the store closes


def _seed_small(home: Path) -> None:
    """A folder with 20 inquiries, so the cold start opens the board (not the first-run wizard)."""
    from core.services import build_services
    from tests.desktop.seed import seed_inquiries

    services = build_services(home)
    try:
        seed_inquiries(services, 20)
    finally:
        services.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inquiries", type=int, default=50_000)
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--cold-start-child", metavar="HOME", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_start_child:
        cold_start_child(args.cold_start_child)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        cold_home = Path(tmp) / "cold"
        _seed_small(cold_home)
        from tests.support.bytecode import compile_app

        compile_app()  # the installed app's start, not Python compiling it
        runs = []
        for _ in range(3):
            out = subprocess.run(
                [sys.executable, __file__, "--cold-start-child", str(cold_home)],
                capture_output=True,
                text=True,
                timeout=120,
                check=True,
            )
            runs.append(float(out.stdout.strip().splitlines()[-1]))
        print(
            f"cold start to a painted board (offscreen, no tray): best {min(runs):.2f} s, "
            f"runs {', '.join(f'{r:.2f}' for r in runs)} " + judged("cold start", min(runs))
        )
        import qasync

        from desktop.app import make_qapp

        qapp = make_qapp()
        with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(qapp)) as runner:
            runner.run(board_and_lag(Path(tmp) / "big", args.inquiries, args.messages))
    if MISSED:
        print("missed: " + "; ".join(MISSED))
        return 1
    print("every figure within its goal's margin")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
