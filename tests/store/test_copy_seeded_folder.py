"""The benchmark's store, smaller: ``store copy`` moves every row and file into PostgreSQL and
the app then starts on it with nothing lost (what ``benchmarks/store_copy.py`` measures at
50,000 inquiries).

What the app shows before the copy (SQLite) and after it (PostgreSQL) is the same, to the byte:
``inquiries --json``, ``mail --json``, ``status --json``, the board's total, every raw mail and
attachment as the app reads it, the knowledge base and what the send journal says was sent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from core.app import copy_store_home
from core.services import build_services
from tests.store.seeded_folder import KNOWLEDGE, app_view, seed_folder


def test_a_seeded_folder_moves_to_postgresql_with_nothing_lost(
    tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("INQUIRY_BRIDGE_NOW", "2026-03-05T10:00:00+11:00")
    monkeypatch.delenv("INQUIRY_BRIDGE_DATABASE_URL", raising=False)
    home = tmp_path / "office-pc"
    services = build_services(home)
    try:
        seed_folder(services, 300, attachment_every=7)
    finally:
        services.close()
    before = app_view(home)
    assert before["board_total"] == 300 and before["files"][:2] == [300, 42]
    assert "<missing>" not in str(before) and before["knowledge"] == KNOWLEDGE

    report = copy_store_home(home, pg_url)
    assert report.rows["inquiries"] == 300 and report.folder.files == 342

    monkeypatch.setenv("INQUIRY_BRIDGE_DATABASE_URL", pg_url)
    assert app_view(home) == before
    # a desk that never had the folder sees the same (its cache starts empty)
    assert app_view(tmp_path / "laptop") == before
