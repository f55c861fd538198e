"""2,000 generated hostile messages through ``ingest``: 0 crashes, 0 without a disposition.

The same check as ``benchmarks/hostile.py`` (which runs 10,000 and reports the figures).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.hostile import check


@pytest.mark.slow
def test_two_thousand_hostile_messages(tmp_path: Path) -> None:
    figures = check(2_000, 13, tmp_path, timing=False)  # per-message times: the benchmark
    assert figures["exit_code"] == 0
    assert figures["stderr_lines"] == 0
    assert figures["without_disposition"] == 0
    assert figures["rows"] > 1_500
