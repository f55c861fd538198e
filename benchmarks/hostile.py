"""Hostile-mail benchmark: N generated hostile messages through ``ingest --offline``.

    .venv/bin/python benchmarks/hostile.py [--messages 10000] [--seed 13]

Messages come from ``tests.support.hostile_mail.fuzz_messages`` (poison dates, broken MIME and
charsets, huge bodies, reused Message-IDs, random bytes, empty files, Windows-reserved and
over-long attachment names). Prints crashes (non-zero exit), messages left without a final
disposition, and the slowest message's time in what a worker does per message (parse, quote
stripping, offline rules). Targets: 0 crashes, 0 without a disposition, no message over 2 s.
Exit status 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.hostile_mail import fuzz_messages  # noqa: E402

FINAL = ("skipped:", "failed:", "new_inquiry", "merged", "not_inquiry")


def slowest_message(messages: list[bytes]) -> tuple[float, int]:
    """(seconds, index) of the slowest message through parse + offline rules, in-process."""
    from core.intake.extract import understand_by_rules
    from core.intake.view import view_from_parsed
    from core.mail.parse import parse_for_intake

    worst = (0.0, -1)
    for index, raw in enumerate(messages):
        started = time.perf_counter()
        parsed, _failure, _detail, body = parse_for_intake(raw)
        if parsed is not None:
            view = view_from_parsed(parsed, body_text=body, own_addresses=[], region="AU")
            understand_by_rules(view)
        worst = max(worst, (time.perf_counter() - started, index))
    return worst


def check(count: int, seed: int, workdir: Path, *, timing: bool = True) -> dict[str, float]:
    """Ingest ``count`` hostile messages into a fresh data folder; the figures as a dict
    (``timing``: also time each message alone through parse + rules, for the slowest one)."""
    from core.cli.main import main

    os.environ.setdefault("INQUIRY_BRIDGE_NOW", "2026-11-30T10:00:00+11:00")
    folder, home = workdir / "eml", workdir / "home"
    folder.mkdir(parents=True)
    messages = list(fuzz_messages(count, seed))
    for index, raw in enumerate(messages):
        (folder / f"{index:06d}.eml").write_bytes(raw)
    started = time.perf_counter()
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["ingest", "--eml-dir", str(folder), "--offline", "--home", str(home)])
    wall = time.perf_counter() - started
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["mail", "--json", "--home", str(home)])
    mail = json.loads(out.getvalue().encode("utf-8").decode("utf-8"))
    undisposed = [m for m in mail if not str(m["disposition"]).startswith(FINAL)]
    raw_files = {p.stem for p in (home / "mail").rglob("*.eml")}
    # distinct bytes stored under another message's row (same Message-ID and content)
    deduplicated = len({hashlib.sha256(raw).hexdigest() for raw in messages} - raw_files)
    worst, worst_index = slowest_message(messages) if timing else (0.0, -1)
    return {
        "messages": count,
        "exit_code": code,
        "stderr_lines": len(err.getvalue().strip().splitlines()),
        "rows": len(mail),
        "without_disposition": len(undisposed),
        "deduplicated": deduplicated,
        "wall_s": round(wall, 1),
        "max_message_s": round(worst, 3),
        "slowest_index": worst_index,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        figures = check(args.messages, args.seed, Path(tmp))
    for key, value in figures.items():
        print(f"{key:>20}: {value}")
    ok = (
        figures["exit_code"] == 0
        and figures["without_disposition"] == 0
        and figures["max_message_s"] <= 2.0
    )
    print("OK" if ok else "TARGET MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
