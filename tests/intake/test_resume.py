"""A killed ``inquiry-bridge ingest`` resumes with no duplicates and no gaps.

The real console entry point runs as a subprocess against a loopback model that answers slowly;
the test SIGKILLs it once part of the corpus is recorded (some messages merged, some still
``pending`` with their model calls in flight), runs it again, and checks the result against
``labels.json`` exactly as an uninterrupted run is checked.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.intake.test_corpus_support import CorpusOracle, check_against_labels, load_labels
from tests.support.llm_server import LLMServer

pytestmark = [pytest.mark.corpus, pytest.mark.skipif(os.name != "posix", reason="SIGKILL")]

ROOT = Path(__file__).resolve().parents[2]


def _env(home: Path, base_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("INQUIRY_BRIDGE_")}
    env.update(
        INQUIRY_BRIDGE_HOME=str(home),
        INQUIRY_BRIDGE_LLM_BASE_URL=base_url,
        PYTHON_KEYRING_BACKEND="keyrings.alt.file.PlaintextKeyring",
        PYTHONPATH=str(ROOT),
    )
    return env


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "desktop.launcher", *args]


def _counts(db: Path) -> tuple[int, int]:
    """(messages recorded, messages with a final disposition) — read beside the writer (WAL)."""
    if not db.exists():
        return 0, 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as conn:
            total = conn.execute("SELECT count(*) FROM messages").fetchone()[0]
            final = conn.execute(
                "SELECT count(*) FROM messages WHERE disposition != 'pending'"
            ).fetchone()[0]
            return total, final
    except sqlite3.Error:
        return 0, 0


def test_killed_ingest_resumes_without_duplicates_or_gaps(tmp_path: Path, corpus_dir: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "settings.toml").write_text("[llm]\nconcurrency = 2\nmax_retries = 0\n")
    db = home / "inquiry-bridge.sqlite3"
    with LLMServer(CorpusOracle(corpus_dir), latency=0.15) as srv:
        env = _env(home, srv.base_url)
        log = tmp_path / "first-run.log"
        with open(log, "wb") as out:
            proc = subprocess.Popen(
                _cli("ingest", "--eml-dir", str(corpus_dir)),
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60
        try:
            while time.monotonic() < deadline:
                total, final = _counts(db)
                if total >= 20 and final >= 8:
                    break
                if proc.poll() is not None:
                    pytest.fail(f"ingest ended before the kill: {log.read_text()}")
                time.sleep(0.05)
            else:
                pytest.fail("ingest made no progress")
            proc.send_signal(signal.SIGKILL)
        finally:
            proc.wait(timeout=10)
        killed_at = _counts(db)
        assert killed_at[0] < 45 or killed_at[1] < 45, "the kill came too late to test anything"

        rerun = subprocess.run(
            _cli("ingest", "--eml-dir", str(corpus_dir)),
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert rerun.returncode == 0, rerun.stderr

    def dump(what: str) -> list[dict[str, Any]]:
        out = subprocess.run(
            _cli(what, "--json"), cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )
        assert out.returncode == 0, out.stderr
        rows: list[dict[str, Any]] = json.loads(out.stdout)
        return rows

    mail, inquiries = dump("mail"), dump("inquiries")
    check_against_labels(mail, inquiries, load_labels(corpus_dir), exact_classes=True)
    # nothing recorded twice: one raw file per message in the data folder
    assert len(list((home / "mail").rglob("*.eml"))) == 45
