"""The app reads "now" from its one clock: nothing under core/ or desktop/ asks the machine.

This is what makes the suite independent of the hour it runs at (issue 16: a Telegram test
failed whenever CI ran between 21:00 and 07:00 Sydney because quiet hours read the real clock).
The machine's clock cannot be moved here (libfaketime crashes the Qt tests), so the guarantee is
checked in the code itself: a call that reads the wall-clock date or time anywhere but
``core/clock.py`` (``SystemClock``, used only when ``INQUIRY_BRIDGE_NOW`` is unset) fails this
test. Monotonic timers (``time.monotonic``, ``perf_counter``) measure durations, not the hour,
and are allowed.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ALLOWED = {ROOT / "core" / "clock.py"}
# (object, attribute) pairs that read the calendar date or the time of day
WALL_CLOCK = {
    ("datetime", "now"),
    ("datetime", "utcnow"),
    ("datetime", "today"),
    ("date", "today"),
    ("time", "time"),
    ("time", "time_ns"),
    ("time", "localtime"),
    ("time", "gmtime"),
    ("time", "ctime"),
    ("time", "strftime"),
    ("QDateTime", "currentDateTime"),
    ("QDateTime", "currentDateTimeUtc"),
    ("QDateTime", "currentSecsSinceEpoch"),
    ("QDateTime", "currentMSecsSinceEpoch"),
    ("QDate", "currentDate"),
    ("QTime", "currentTime"),
}


def _wall_clock_calls(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        owner = node.func.value
        name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", None)
        if (name, node.func.attr) in WALL_CLOCK:
            where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
            found.append(f"{where}:{node.lineno} {name}.{node.func.attr}()")
    return found


def test_only_the_clock_module_reads_the_machine_clock() -> None:
    sources = sorted((ROOT / "core").rglob("*.py")) + sorted((ROOT / "desktop").rglob("*.py"))
    assert len(sources) > 100  # the scan really covers the code
    offenders = [hit for path in sources if path not in ALLOWED for hit in _wall_clock_calls(path)]
    assert offenders == []


def test_the_scan_would_catch_a_wall_clock_read(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import datetime, time\n"
        "a = datetime.datetime.now()\nb = time.time()\nc = time.monotonic()\n",
        encoding="utf-8",
    )
    hits = _wall_clock_calls(sample)
    assert [h.split(" ")[1] for h in hits] == ["datetime.now()", "time.time()"]
