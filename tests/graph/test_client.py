"""GraphClient against the loopback server: headers, throttling, retries, concurrency, errors."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from core.clock import FakeClock
from core.errors import AmbiguousWriteError, GraphAuthError, GraphNotFound, SyncStateExpired
from core.graph.client import GraphClient, StaticToken
from tests.support.graph_server import GraphServer, http_date


def _client(
    graph: GraphServer, clock: FakeClock, token: str = "test-token", **kw: Any
) -> GraphClient:
    return GraphClient(graph.base_url, StaticToken(token), clock=clock, **kw)


async def test_every_request_asks_for_immutable_ids(graph: GraphServer, clock: FakeClock) -> None:
    graph.add_message(subject="one")
    async with _client(graph, clock) as client:
        await client.get_json("/me")
        await client.get_json("/me/mailFolders/inbox/messages/delta")
        await client.post_json("/me/messages", {"subject": "x"})
    assert len(graph.requests) == 3
    for req in graph.requests:
        assert 'IdType="ImmutableId"' in req.headers["prefer"]
        assert req.headers["authorization"] == "Bearer test-token"


async def test_retry_after_seconds_is_honoured(graph: GraphServer, clock: FakeClock) -> None:
    graph.fail(r"/me$", status=429, retry_after="7", code="MailboxConcurrency")
    async with _client(graph, clock) as client:
        me = await client.get_json("/me")
    assert me["mail"]
    assert clock.sleeps == [7.0]
    assert [r.status for r in graph.requests] == [429, 200]


async def test_retry_after_http_date_is_honoured(graph: GraphServer, clock: FakeClock) -> None:
    graph.fail(r"/me$", status=503, retry_after=http_date(clock.now() + timedelta(seconds=30)))
    async with _client(graph, clock) as client:
        await client.get_json("/me")
    assert len(clock.sleeps) == 1 and 29.0 <= clock.sleeps[0] <= 31.0


async def test_backoff_without_retry_after_grows(graph: GraphServer, clock: FakeClock) -> None:
    graph.fail(r"/me$", status=503, times=3)
    async with _client(graph, clock) as client:
        await client.get_json("/me")
    assert len(clock.sleeps) == 3
    assert clock.sleeps[0] < clock.sleeps[2]  # exponential: 1-ish, 2-ish, 4-ish


async def test_reads_survive_a_dropped_connection(graph: GraphServer, clock: FakeClock) -> None:
    graph.fail(r"/me$", drop=True)
    async with _client(graph, clock) as client:
        assert (await client.get_json("/me"))["mail"]
    assert len(graph.requests_to(r"/me$")) == 2


async def test_a_write_is_never_retried_after_a_dropped_connection(
    graph: GraphServer, clock: FakeClock
) -> None:
    graph.fail(r"/me/messages$", method="POST", drop_after=True)
    async with _client(graph, clock) as client:
        with pytest.raises(AmbiguousWriteError) as err:
            await client.post_json("/me/messages", {"subject": "once"})
    assert "网络中断" in err.value.user_message()
    # the server did create the draft; the client did not try again
    assert len(graph.requests_to(r"/me/messages$", "POST")) == 1
    assert [m["subject"] for m in graph.folder_messages("drafts")] == ["once"]


async def test_a_throttled_write_is_retried(graph: GraphServer, clock: FakeClock) -> None:
    graph.fail(r"/me/messages$", method="POST", status=429, retry_after="3")
    async with _client(graph, clock) as client:
        await client.post_json("/me/messages", {"subject": "once"})
    assert clock.sleeps == [3.0]
    assert len(graph.folder_messages("drafts")) == 1


async def test_errors_map_onto_the_tree(graph: GraphServer, clock: FakeClock) -> None:
    async with _client(graph, clock, token="wrong") as client:
        with pytest.raises(GraphAuthError) as auth:
            await client.get_json("/me")
    assert "重新登录" in auth.value.user_message()
    async with _client(graph, clock) as client:
        with pytest.raises(GraphNotFound):
            await client.get_json("/me/messages/nope")
        graph.fail(r"/delta$", status=410, code="SyncStateNotFound")
        with pytest.raises(SyncStateExpired):
            await client.get_json("/me/mailFolders/inbox/messages/delta")


async def test_never_more_than_four_requests_in_flight(
    graph: GraphServer, clock: FakeClock
) -> None:
    graph.latency = 0.03
    async with _client(graph, clock, max_concurrency=4) as client:
        await asyncio.gather(*(client.get_json("/me") for _ in range(16)))
    assert graph.peak_in_flight == 4
    assert client.peak_in_flight == 4
