"""Start-up imports: time by top-level package and the module count, so a regression shows the
day it lands (issue 44: +118 modules and ~100 ms crept in unnoticed in one turn).

    .venv/bin/python benchmarks/startup.py [--runs 5] [--top 25]

Each probe runs in a fresh interpreter under ``python -X importtime`` (the imports as the
launcher does them: ``core.app`` first, then the desktop or the command line), ``--runs``
times; the figures are medians of the self time per package (``core.x`` and ``desktop.x``
count as their own packages). Absolute times drift with the machine's load: compare the
module counts and the ranking, or two checkouts run in turn.

It also checks what the tray, the board and the CLI's listings must not import at start
(``tests/desktop/test_startup_imports.py`` holds the same list): exit 1 when one is loaded.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PROBES = {
    "desktop (tray, board)": "import core.app, desktop.app, desktop.main_window, desktop.tray",
    "command line (inquiries --json)": "import core.app, core.cli.main; core.cli.main.build_parser()",
}
NOT_AT_START = (
    "imaplib",
    "smtplib",
    "core.mailbox.check",
    "core.stats.trade",
    "core.stats.costs",
    "multiprocessing",
    "concurrent.futures.process",
    "core.intake.worker_pool",
    "core.knowledge.search",
    "ctypes",
    "holidays",
    "httpx",
    "openai",
    "pydantic",
    "keyring",
    "core.app.quotes",
    "core.drafts.factguard",
    "core.text.facts",
    "core.agent.memory",
    "core.mail.parse",
    "desktop.settings_dialog",
    "desktop.detail",
    "desktop.voice.dictation",
    "desktop.approval.compose_dialog",
    "desktop.chat",
    "phonenumbers",
)
LINE = re.compile(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)")


def package(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] in ("core", "desktop") and len(parts) > 1 else parts[0]


def one_run(code: str) -> tuple[Counter[str], int, list[str]]:
    """Self microseconds per package, the module count and the forbidden modules loaded."""
    probe = (
        f"import sys\n{code}\n"
        f"print(len(sys.modules)); print(','.join(m for m in {NOT_AT_START!r} if m in sys.modules))"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    out = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        env=env,
    )
    per_package: Counter[str] = Counter()
    for line in out.stderr.splitlines():
        match = LINE.match(line)
        if match:
            per_package[package(match.group(4))] += int(match.group(1))
    count, loaded = [*out.stdout.strip().splitlines(), ""][:2]
    return per_package, int(count), [m for m in loaded.split(",") if m]


def report(name: str, code: str, runs: int, top: int) -> list[str]:
    results = [one_run(code) for _ in range(runs)]
    packages = set().union(*(r[0] for r in results))
    medians = {p: statistics.median(r[0].get(p, 0) for r in results) for p in packages}
    total = statistics.median(sum(r[0].values()) for r in results)
    count = statistics.median(r[1] for r in results)
    print(f"{name}: {count:.0f} modules, imports {total / 1000:.0f} ms (median of {runs})")
    for pkg, micros in sorted(medians.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {pkg:34s} {micros / 1000:7.1f} ms")
    return sorted({m for r in results for m in r[2]})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    from tests.support.bytecode import compile_app

    compile_app()  # timed as installed: the app's bytecode compiled
    failed = False
    for name, code in PROBES.items():
        loaded = report(name, code, args.runs, args.top)
        if loaded:
            failed = True
            print(f"  loaded at start, should load on first use: {', '.join(loaded)}")
    print("MISSED: a start-up import crept back" if failed else "nothing deferred loads at start")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
