"""A hostile IMAP server against ``sync --once`` with the DEFAULT caps and deadlines.

    .venv/bin/python benchmarks/hostile_imap.py [--skip-trickle]

The tests (tests/mailbox/test_hostile_imap.py) use small caps to stay fast; this checks that
the defaults themselves are sane: each scenario of ``tests.support.imap_fault_server`` (a bad
modified-UTF-7 folder with no UIDVALIDITY and a message listed at 1,000 bytes then sent as
1.2 GB; endless untagged FETCH lines; one byte every 5 s) runs ``sync --once`` in a child and
prints its wall time, peak RSS (``os.wait4``), exit code and last line. Issue 40's targets:
under 120 s and 500 MB each, one clear line. Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.imap_fault_server import (  # noqa: E402
    PASSWORD,
    Faults,
    FaultyMessage,
    ImapFaultServer,
)
from tests.support.mailbox_mail import inquiry  # noqa: E402

SCENARIOS = {
    "bad folder + no UIDVALIDITY + 1.2 GB size lie": Faults(
        bad_folder=True, no_uidvalidity=True, size_lie=3
    ),
    "endless untagged FETCH lines": Faults(endless_fetch=True),
    "one byte every 5 s": Faults(trickle=True, trickle_seconds=5.0),
}


def run(name: str, faults: Faults, home: Path) -> tuple[bool, str]:
    messages = [FaultyMessage(uid, inquiry(uid)) for uid in range(1, 5)]
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "INQUIRY_BRIDGE_MAIL_PASSWORD": PASSWORD,
        "INQUIRY_BRIDGE_NOW": "2026-12-01T10:00:00+11:00",
    }
    env.pop("INQUIRY_BRIDGE_SMTP_URL", None)
    with ImapFaultServer(messages, faults) as server:
        env["INQUIRY_BRIDGE_IMAP_URL"] = server.url
        started = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, "-m", "core.cli.main", "sync", "--once", "--offline",
             "--home", str(home)],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        assert child.stdout is not None
        out = child.stdout.read()
        _pid, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - started
        streamed = server.streamed
    code = os.waitstatus_to_exitcode(status)
    rss = usage.ru_maxrss / 1024
    lines = [line for line in out.splitlines() if line.strip()]
    ok = wall < 120 and rss < 500 and "Traceback" not in out
    line = (
        f"{name}: exit {code}, {wall:.1f} s, peak RSS {rss:.0f} MB, server streamed "
        f"{streamed / 1e6:.1f} MB\n    " + "\n    ".join(lines[-3:])
    )
    return ok, line


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-trickle", action="store_true", help="skip the ~90 s trickle")
    args = parser.parse_args()
    all_ok = True
    with tempfile.TemporaryDirectory(prefix="hostile-imap-") as tmp:
        for index, (name, faults) in enumerate(SCENARIOS.items()):
            if args.skip_trickle and faults.trickle:
                continue
            ok, line = run(name, faults, Path(tmp) / f"home{index}")
            all_ok = all_ok and ok
            print(line, flush=True)
    print("OK" if all_ok else "TARGET MISSED")
    return 0 if all_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
