"""Fixtures of the Graph tests: a loopback Graph server dated by the test's FakeClock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.clock import FakeClock
from tests.support.graph_server import GraphServer


@pytest.fixture
def graph(clock: FakeClock) -> Iterator[GraphServer]:
    with GraphServer(page_size=5, now=clock.now) as srv:
        yield srv
