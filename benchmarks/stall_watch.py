"""A stall sampler for the benchmarks: when the event loop stops ticking, say what it was doing.

Why: one 300 MB in-process ingest once showed a 199.8 ms loop stall while reruns stayed under
13 ms; a bare maximum cannot tell a collector pass from a slow call on the loop or a machine
shared with other jobs. A watchdog thread watches the loop's heartbeat (the benchmark ticker's
``beat()``); once the loop has been silent for more than ``threshold`` seconds it samples the
loop thread's stack (``sys._current_frames()``) every ``interval`` until the loop ticks again.
``gc.callbacks`` records every collection (generation, duration, objects collected) meanwhile.
Each stall then names its cause: the collections inside it, the loop's innermost frames as
sampled, and how late the watchdog itself woke (late wake-ups mean something held the GIL: a C
call that does not release it, or the collector, which runs with it held).
"""

from __future__ import annotations

import gc
import sys
import threading
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Collection:
    generation: int
    start: float
    seconds: float
    collected: int


@dataclass
class Stall:
    start: float  # the last beat before the silence (perf_counter)
    end: float = 0.0  # the beat that ended it
    stacks: list[tuple[str, ...]] = field(default_factory=list)  # sampled, innermost last
    late_ms: float = 0.0  # worst lateness of the watchdog's own wake-ups during the stall

    @property
    def ms(self) -> float:
        return (self.end - self.start) * 1000


class StallWatch:
    """Start in the loop's thread (``start``), call ``beat()`` from the loop, ``stop()`` after;
    ``report()`` names the worst stalls."""

    def __init__(self, threshold: float = 0.05, interval: float = 0.01) -> None:
        self.threshold = threshold
        self.interval = interval
        self.stalls: list[Stall] = []
        self.collections: list[Collection] = []
        self._last = time.perf_counter()
        self._open: Stall | None = None
        self._gc_start: float | None = None
        self._stop = threading.Event()
        self._loop_thread = threading.get_ident()
        self._thread = threading.Thread(target=self._watch, name="stall-watch", daemon=True)
        self._guard = threading.Lock()

    # ------------------------------------------------------------------ the loop side
    def beat(self) -> None:
        now = time.perf_counter()
        with self._guard:
            if self._open is not None:
                self._open.end = now
                self.stalls.append(self._open)
                self._open = None
            self._last = now

    def start(self) -> None:
        self._loop_thread = threading.get_ident()
        self._last = time.perf_counter()
        gc.callbacks.append(self._on_gc)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(5)
        gc.callbacks.remove(self._on_gc)
        self.beat()

    # ------------------------------------------------------------------ the watchdog
    def _on_gc(self, phase: str, info: dict[str, Any]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._gc_start = now
        elif self._gc_start is not None:
            self.collections.append(
                Collection(
                    info.get("generation", -1),
                    self._gc_start,
                    now - self._gc_start,
                    info.get("collected", 0),
                )
            )
            self._gc_start = None

    def _watch(self) -> None:
        due = time.perf_counter() + self.interval
        while not self._stop.wait(max(0.0, due - time.perf_counter())):
            now = time.perf_counter()
            late = (now - due) * 1000
            due = now + self.interval
            with self._guard:
                silent = now - self._last
                if silent <= self.threshold:
                    continue
                if self._open is None:
                    self._open = Stall(start=self._last)
                stall = self._open
                stall.late_ms = max(stall.late_ms, late)
            frame = sys._current_frames().get(self._loop_thread)
            if frame is not None and len(stall.stacks) < 200:
                stall.stacks.append(
                    tuple(
                        f"{_short(f.filename)}:{f.lineno} {f.name}"
                        for f in traceback.extract_stack(frame)[-7:]
                        if not f.filename.endswith("stall_watch.py")  # its gc callback
                    )
                )

    # ------------------------------------------------------------------ the answer
    def report(self, worst: int = 3) -> list[str]:
        """Lines naming the ``worst`` stalls over the threshold (none: one line saying so)."""
        gen_total = Counter(c.generation for c in self.collections)
        longest = max((c.seconds for c in self.collections), default=0.0) * 1000
        totals = (
            "  collections during the run: "
            + ", ".join(f"gen{g} x{n}" for g, n in sorted(gen_total.items()))
            + f" (longest {longest:.1f} ms)"
        )
        if not self.stalls:
            return [f"  stall watch: no loop silence over {self.threshold * 1000:.0f} ms", totals]
        lines = []
        for stall in sorted(self.stalls, key=lambda s: s.ms, reverse=True)[:worst]:
            inside = [
                c
                for c in self.collections
                if c.start < stall.end and c.start + c.seconds > stall.start
            ]
            gc_ms = sum(c.seconds for c in inside) * 1000
            big = [c for c in inside if c.seconds >= 0.005]  # the rest: counted, not listed
            gcs = ", ".join(
                f"gen{c.generation} {c.seconds * 1000:.0f} ms ({c.collected} freed)" for c in big
            )
            if len(inside) > len(big):
                gcs += f"{', ' if gcs else ''}{len(inside) - len(big)} short ones"
            lines.append(
                f"  stall {stall.ms:6.1f} ms: gc {gc_ms:.1f} ms [{gcs or 'none'}], "
                f"{len(stall.stacks)} stack samples, watchdog late by up to {stall.late_ms:.0f} ms"
            )
            for stack, n in Counter(stall.stacks).most_common(2):
                lines.append(f"    {n}x " + " <- ".join(reversed(stack[-3:])))
        lines.append(totals)
        return lines


def _short(path: str) -> str:
    for mark in ("/core/", "/benchmarks/", "/asyncio/", "/site-packages/"):
        if mark in path:
            return mark.strip("/") + "/" + path.split(mark, 1)[1]
    return path.rsplit("/", 1)[-1]
