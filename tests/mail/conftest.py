"""Helpers for the mail tests: hand-written fixtures and a tiny message builder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def fixture_bytes() -> Callable[[str], bytes]:
    def load(name: str) -> bytes:
        return (FIXTURES / name).read_bytes()

    return load
