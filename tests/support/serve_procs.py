"""``serve``, ``status`` and other commands as real child processes, for the runtime tests.

Every child runs ``python -m core.cli.main`` from this checkout with the environment it is
given (the suite's ``INQUIRY_BRIDGE_NOW`` included), so what is tested is what a user starts.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def serve(home: Path, env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    """``inquiry-bridge serve --home HOME``, its output in ``log``."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "core.cli.main", "serve", "--home", str(home)],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def cli(home: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """One command, run to its end."""
    return subprocess.run(
        [sys.executable, "-m", "core.cli.main", *args, "--home", str(home)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def cli_json(home: Path, env: dict[str, str], *args: str) -> Any:
    done = cli(home, env, *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def status(home: Path, env: dict[str, str]) -> dict[str, Any]:
    body: dict[str, Any] = cli_json(home, env, "status")
    return body


def runner_pid(home: Path, env: dict[str, str]) -> int | None:
    runner = status(home, env)["runner"]
    return None if runner is None else int(runner["pid"])


def until(check: Callable[[], bool], timeout: float, what: str) -> float:
    """Seconds until ``check`` held. A bound on a failure, not a speed claim: a loaded CI
    machine gets plenty of time."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if check():
            return time.monotonic() - start
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")
