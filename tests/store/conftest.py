"""The store tests run against both engines: SQLite in the data folder and a real PostgreSQL.

``home`` here is the shared fixture of ``tests/conftest.py`` parametrized by engine: with
``postgresql`` the environment also points the store at a fresh database
(``INQUIRY_BRIDGE_DATABASE_URL``), exactly as a user does, so ``services`` and every command
run in-process use it. Modules here may re-export tests of other folders (``from … import
test_x``) to run them against both engines.
"""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(params=["sqlite", "postgresql"])
def engine_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def home(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    engine_kind: str,
    request: pytest.FixtureRequest,
) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("INQUIRY_BRIDGE_HOME", str(folder))
    if engine_kind == "postgresql":
        monkeypatch.setenv("INQUIRY_BRIDGE_DATABASE_URL", request.getfixturevalue("pg_url"))
    return folder
