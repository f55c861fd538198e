"""Every offload goes through ``core.tasks``, and its lanes behave like ``asyncio.to_thread``.

The scan (``ast``, so strings and comments do not count) fails on ``asyncio.to_thread``,
``run_in_executor``, ``ThreadPoolExecutor(`` and ``threading.Thread(`` anywhere in ``core/`` or
``desktop/`` outside the runner module and ``ALLOWED`` (file → how many such calls, and why).
The counts are exact, so a new call in an allowed file fails as well as a stale entry.
"""

from __future__ import annotations

import ast
import asyncio
import contextvars
import threading
from pathlib import Path

import pytest

from core import tasks
from core.db.store import Store

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "core" / "tasks.py"
OFFLOADS = frozenset({"to_thread", "run_in_executor", "ThreadPoolExecutor"})

ALLOWED: dict[str, tuple[int, str]] = {
    "core/intake/worker_pool.py": (
        3,
        "the parser worker processes: run_in_executor on its ProcessPoolExecutor, not a thread",
    ),
}


def offload_calls(source: str) -> list[int]:
    """Line numbers of the calls the runner replaces (``x.to_thread(…)``, ``Thread(…)`` …)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        thread = name == "Thread" and (
            isinstance(func, ast.Name)
            or (isinstance(func.value, ast.Name) and func.value.id == "threading")  # type: ignore[attr-defined]
        )
        if name in OFFLOADS or thread:
            lines.append(node.lineno)
    return sorted(lines)


def scan() -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for top in ("core", "desktop"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if path == RUNNER:
                continue
            lines = offload_calls(path.read_text(encoding="utf-8"))
            if lines:
                found[path.relative_to(ROOT).as_posix()] = lines
    return found


def test_every_offload_goes_through_the_runner() -> None:
    found = scan()
    unexpected = {
        f"{path}:{lines}"
        for path, lines in found.items()
        if len(lines) != ALLOWED.get(path, (0,))[0]
    }
    stale = {path for path in ALLOWED if path not in found}
    assert sorted(unexpected) == [], (
        "use core.tasks (io / Lane / daemon), or allow it with a reason"
    )
    assert sorted(stale) == []


def test_the_scan_sees_each_kind_of_offload() -> None:
    planted = (
        "import asyncio, threading\n"
        "from concurrent.futures import ThreadPoolExecutor\n"
        "from threading import Thread\n"
        "async def f(loop):\n"
        "    await asyncio.to_thread(print)\n"
        "    await loop.run_in_executor(None, print)\n"
        "    ThreadPoolExecutor(2)\n"
        "    threading.Thread(target=print)\n"
        "    Thread(target=print)\n"
        "    s = 'asyncio.to_thread(print)'  # a string or comment is not a call\n"
        "    tasks.daemon(print, 'ok')\n"
    )
    assert offload_calls(planted) == [5, 6, 7, 8, 9]


def test_every_allowance_gives_a_reason() -> None:
    assert all(count > 0 and reason.strip() for count, reason in ALLOWED.values())


def _direct(node: ast.AST) -> list[ast.AST]:
    """``node``'s descendants outside nested functions, lambdas and classes (their bodies run
    wherever they are sent: ``store.read(lambda s: …)`` is the point)."""
    found: list[ast.AST] = []
    for child in ast.iter_child_nodes(node):
        if not isinstance(
            child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef
        ):
            found += [child, *_direct(child)]
    return found


def sync_store_calls(source: str) -> list[int]:
    """Lines where a coroutine itself calls ``….store.session()`` / ``….store.write(…)``."""
    lines = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, ast.AsyncFunctionDef):
            continue
        for node in _direct(fn):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("session", "write")
                and "store" in ast.unparse(node.func.value).lower()
            ):
                lines.append(node.lineno)
    return sorted(lines)


def test_no_coroutine_opens_the_store_on_the_loop() -> None:
    """``Store.read`` / ``Store.run`` from coroutines: a session opened on the loop's thread
    waits for SQLite (and, writing, for every other writer) with the UI frozen."""
    found = {}
    for top in ("core", "desktop"):
        for path in sorted((ROOT / top).rglob("*.py")):
            lines = sync_store_calls(path.read_text(encoding="utf-8"))
            if lines:
                found[path.relative_to(ROOT).as_posix()] = lines
    assert found == {}


def test_the_store_scan_sees_a_session_in_a_coroutine() -> None:
    planted = (
        "async def f(self):\n"
        "    with self.services.store.session() as s:\n"
        "        pass\n"
        "    self.store.write(lambda s: None)\n"
        "    await self.store.read(lambda s: s.get(X, 1))\n"
        "    await self.store.run(lambda s: self.store.write(g))  # inside the lambda: fine\n"
        "def g(store):\n"
        "    with store.session() as s:  # not a coroutine\n"
        "        pass\n"
    )
    assert sync_store_calls(planted) == [2, 4]


# -- the lanes ---------------------------------------------------------------------------------


class Boom(Exception):
    pass


def _raise() -> None:
    raise Boom("from the lane")


async def test_an_exception_reaches_the_awaiting_coroutine() -> None:
    with pytest.raises(Boom, match="from the lane"):
        await tasks.io(_raise)
    lane = tasks.Lane("t-raise", 1)
    try:
        with pytest.raises(Boom):
            await lane.run(_raise)
        with pytest.raises(Boom):
            lane.submit(_raise).result(5)
    finally:
        lane.close()


async def test_a_call_sees_the_callers_context_variables() -> None:
    who: contextvars.ContextVar[str] = contextvars.ContextVar("who", default="nobody")
    who.set("owner")
    assert await tasks.io(who.get) == "owner"


async def test_the_db_lane_is_one_thread_and_serialises_calls() -> None:
    lane = tasks.db_lane()
    inside = 0
    most = 0
    names: set[str] = set()
    guard = threading.Lock()

    def write() -> None:
        nonlocal inside, most
        with guard:
            inside += 1
            most = max(most, inside)
            names.add(threading.current_thread().name)
        for _ in range(2000):  # hold the "transaction" a little: overlapping calls would show
            pass
        with guard:
            inside -= 1

    try:
        await asyncio.gather(*(lane.run(write) for _ in range(40)))
    finally:
        lane.close()
    assert most == 1
    assert names == {f"{tasks.DB_LANE}_0"}


async def test_the_store_writes_on_its_db_lane_and_reads_on_the_io_lane(tmp_path: Path) -> None:
    store = Store(tmp_path / "db.sqlite3")
    try:
        where = await asyncio.gather(
            *(store.run(lambda _s: threading.current_thread().name) for _ in range(8))
        )
        assert set(where) == {f"{tasks.DB_LANE}_0"}
        assert store.lane.workers == 1
        read = await store.read(lambda _s: threading.current_thread().name)
        assert read.startswith(f"{tasks.IO_LANE}_")
        unqueued = await store.run(lambda _s: threading.current_thread().name, queued=False)
        assert unqueued.startswith(f"{tasks.IO_LANE}_")
    finally:
        store.close()
    assert store.lane.closed
    with pytest.raises(RuntimeError):
        await store.run(lambda _s: None)


async def test_a_blocking_call_on_the_io_lane_leaves_the_loop_running() -> None:
    """The call waits for the ticker's fifth tick: it returns only if the loop kept ticking."""
    released = threading.Event()
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while not released.is_set():
            await asyncio.sleep(0.001)
            ticks += 1
            if ticks == 5:
                released.set()

    ticking = asyncio.ensure_future(ticker())
    assert await tasks.io(released.wait, 10) is True
    await ticking
    assert ticks == 5


async def test_cancelling_the_await_drops_a_call_not_yet_started() -> None:
    lane = tasks.Lane("t-cancel", 1)
    hold = threading.Event()
    ran: list[str] = []
    try:
        busy = asyncio.ensure_future(lane.run(hold.wait, 10))
        queued = asyncio.ensure_future(lane.run(ran.append, "queued"))
        await asyncio.sleep(0)
        queued.cancel()
        with pytest.raises(asyncio.CancelledError):
            await queued
        hold.set()
        assert await busy is True
    finally:
        lane.close(wait=True)
    assert ran == []


def _alive(prefix: str) -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith(prefix)]


def test_close_joins_the_lanes_threads_after_their_work() -> None:
    lane = tasks.Lane("t-join", 2)
    hold = threading.Event()
    running = lane.submit(hold.wait, 10)
    assert _alive("t-join_") == ["t-join_0"]
    closer = threading.Thread(target=lane.close, name="t-closer")  # close(wait=True) blocks
    closer.start()
    closer.join(0.05)
    assert closer.is_alive()  # still waiting for the running call
    hold.set()
    closer.join(10)
    assert not closer.is_alive()
    assert running.result() is True
    assert _alive("t-join_") == []
    with pytest.raises(RuntimeError, match="closed"):
        lane.submit(print)


async def test_shutdown_joins_the_io_lane_and_the_next_call_starts_a_new_one() -> None:
    first = tasks.io_lane()
    worker = await tasks.io(threading.current_thread)
    assert worker.name.startswith(f"{tasks.IO_LANE}_")
    tasks.shutdown()
    assert first.closed
    assert not worker.is_alive()
    assert await tasks.io(lambda: 7) == 7
    assert tasks.io_lane() is not first


def test_daemon_threads_are_named_and_do_not_hold_up_exit() -> None:
    done = threading.Event()
    thread = tasks.daemon(done.set, "t-daemon")
    thread.join(10)
    assert done.is_set()
    assert thread.daemon
    assert thread.name == "t-daemon"


async def test_a_call_that_took_a_lane_just_shut_down_runs_on_the_fresh_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Leaving the demo folder closes its App, which shuts the I/O lane down while the real
    folder's windows still read: a call caught in between must not fail."""
    stale = tasks.Lane("stale", 1)
    stale.close()
    fresh = tasks.Lane("fresh", 1)
    lanes = iter([stale, fresh])
    monkeypatch.setattr(tasks, "io_lane", lambda: next(lanes))
    worker = await tasks.io(threading.current_thread)
    assert worker.name == "fresh_0"
    fresh.close()
