"""`serve` at rest: CPU share and RSS of the always-on runner when nothing arrives (issue 38).

    .venv/bin/python benchmarks/serve_idle.py [--seconds 60] [--settle 15]

Starts ``inquiry-bridge serve`` on a fresh data folder (SQLite, no mailbox, no model: the
runner holds the lease and runs its clocks -- reminders, the briefing's timer, backups, the
lease heartbeat), lets it settle, then reads its CPU time and resident memory from ``/proc``
over ``--seconds``. The goals (issue 38): idle CPU < 1 % of one core, RSS < 250 MB; the script
prints each figure with its goal and exits 1 when one misses. Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CPU_GOAL = 1.0  # percent of one core
RSS_GOAL = 250.0  # MB
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User plus system time of ``pid`` so far (fields 14 and 15 of /proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text(encoding="ascii").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--settle", type=float, default=15.0)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="serve-idle-") as home:
        env = {
            **os.environ,
            "INQUIRY_BRIDGE_HOME": home,
            "PYTHON_KEYRING_BACKEND": "keyrings.alt.file.PlaintextKeyring",
        }
        command = [sys.executable, "-m", "desktop.launcher", "serve"]
        runner = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
        try:
            time.sleep(args.settle)
            if runner.poll() is not None:
                print(f"serve exited at start with code {runner.returncode}")
                return 1
            before, started = cpu_seconds(runner.pid), time.monotonic()
            time.sleep(args.seconds)
            used = cpu_seconds(runner.pid) - before
            share = 100 * used / (time.monotonic() - started)
            rss = rss_mb(runner.pid)
        finally:
            runner.send_signal(signal.SIGTERM)
            try:
                runner.wait(30)
            except subprocess.TimeoutExpired:
                runner.kill()
    missed = []
    cpu_ok = share < CPU_GOAL
    rss_ok = rss < RSS_GOAL
    print(
        f"serve idle CPU over {args.seconds:g} s: {share:.2f} % of one core "
        f"(goal < {CPU_GOAL:g} %): {'ok' if cpu_ok else 'MISSED'}"
    )
    print(f"serve RSS: {rss:.0f} MB (goal < {RSS_GOAL:g} MB): {'ok' if rss_ok else 'MISSED'}")
    if not cpu_ok:
        missed.append("idle CPU")
    if not rss_ok:
        missed.append("RSS")
    if missed:
        print("missed: " + ", ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
