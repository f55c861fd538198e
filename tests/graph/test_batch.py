"""JSON batching against the loopback Graph server: first sync, per-part throttling, concurrency.

The server's ``POST /$batch`` follows the documented protocol (≤ 20 parts, answers in any order,
per-part status/headers/body, base64 for non-JSON bodies, 4 parts at a time, dependsOn/424) and
records every part in ``graph.requests`` with ``batch`` set, so these tests see exactly what
Graph would count.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

import httpx
import pytest
from sqlalchemy import func, select

from core.app.graph_runtime import GraphRuntime
from core.clock import FakeClock
from core.db.models import Message
from core.errors import AmbiguousWriteError
from core.graph.batch import SubRequest
from core.graph.categories import BUDGET_RESERVE
from core.graph.client import GraphClient, RequestBudget, StaticToken
from core.intake.pipeline import build_pipeline
from core.services import Services
from tests.support.graph_server import GraphServer, Request


class NotingClock(FakeClock):
    """A FakeClock that notes how many requests the server had seen when each wait began."""

    def __init__(self, graph: GraphServer, start) -> None:  # type: ignore[no-untyped-def]
        super().__init__(start)
        self.graph = graph
        self.marks: list[tuple[float, int]] = []

    async def sleep(self, seconds: float) -> None:
        self.marks.append((seconds, len(self.graph.requests)))
        await super().sleep(seconds)


@pytest.fixture
async def runtime(services: Services, graph: GraphServer):
    services.settings.set("graph.base_url", graph.base_url)
    rt = GraphRuntime(
        services,
        pipeline=build_pipeline(services, offline=True),
        token_provider=StaticToken("test-token"),
    )
    rt.attach()
    yield rt
    rt.detach()
    await rt.aclose()


def _fill(graph: GraphServer, clock: FakeClock, n: int) -> list[str]:
    return [
        graph.add_message(
            subject=f"Quote for awning window {i}",
            from_addr=f"c{i}@example.com",
            from_name=f"Customer {i}",
            body=f"Hi, please quote 2 awning windows for {i} Smith St, Epping. Call 0412 000 {i:03d}",
            received_at=clock.now() - timedelta(hours=n - i),
            is_read=i % 2 == 0,
        )
        for i in range(n)
    ]


def _parts(graph: GraphServer, pattern: str, method: str | None = None) -> list[Request]:
    return [r for r in graph.requests_to(pattern, method) if r.batch is not None]


def _envelopes(graph: GraphServer) -> list[Request]:
    return graph.requests_to(r"/v1\.0/\$batch$", "POST")


def _batches(graph: GraphServer) -> list[list[Request]]:
    """The parts of each $batch envelope, envelopes in the order the server got them."""
    groups: dict[str, list[Request]] = {}
    for req in graph.requests:
        if req.batch is not None:
            groups.setdefault(req.batch.split(":")[0], []).append(req)
    return list(groups.values())


async def test_first_sync_through_batches_ingests_everything_exactly_once(
    runtime: GraphRuntime, graph: GraphServer, clock: FakeClock, services: Services
) -> None:
    ids = _fill(graph, clock, 45)
    report, _ = await runtime.mail_round()
    assert report.new == 45
    with services.store.session() as s:
        assert s.scalar(select(func.count()).select_from(Message)) == 45
        stored = set(s.scalars(select(Message.source_id)))
    assert stored == set(ids)
    # every MIME came through a batch part, exactly once; no single $value GETs
    values = graph.requests_to(r"/\$value$")
    assert all(r.batch is not None for r in values)
    assert sorted(r.path.split("/")[-2] for r in values) == sorted(ids)
    # 45 downloads → 3 envelopes (20 + 20 + 5); 45 category PATCHes → 3 more
    sizes = [len(parts) for parts in _batches(graph)]
    assert len(sizes) == len(_envelopes(graph)) and max(sizes) == 20
    assert sorted(len(p) for p in _batches(graph) if "$value" in p[0].path) == [5, 20, 20]
    assert len(_parts(graph, r"/me/messages/[^/]+$", "PATCH")) == 45
    assert len(_envelopes(graph)) <= 3 + 3 + 1  # + one for the master categories
    # ImmutableId on every part and on every envelope; the server saw ≤ 4 operations at once
    for req in graph.requests:
        assert 'IdType="ImmutableId"' in req.headers.get("prefer", ""), req.path
    assert graph.peak_in_flight <= 4 and runtime.client.peak_in_flight <= 4
    # Graph counts the parts: the client's operation count says so
    assert runtime.client.operation_count == len(graph.requests) - len(_envelopes(graph))
    # a second round downloads nothing and is one request per folder
    graph.reset_stats()
    again, _ = await runtime.mail_round()
    assert again.new == 0
    assert sorted(r.path.rsplit("/v1.0", 1)[-1] for r in graph.requests) == [
        "/me/mailFolders/inbox/messages/delta",
        "/me/mailFolders/sentitems/messages/delta",
    ]


async def test_a_throttled_part_waits_for_its_retry_after_and_the_rest_are_not_refetched(
    services: Services, graph: GraphServer, clock: FakeClock
) -> None:
    noting = NotingClock(graph, clock.now())
    ids = _fill(graph, noting, 12)
    slow, slower = ids[3], ids[7]
    graph.fail(rf"/{slow}/\$value$", status=429, retry_after="3", code="MailboxConcurrency")
    graph.fail(rf"/{slower}/\$value$", status=429, retry_after="9", code="ApplicationThrottled")
    async with GraphClient(graph.base_url, StaticToken("test-token"), clock=noting) as client:
        answers = await client.batch(
            [SubRequest("GET", f"/me/messages/{gid}/$value") for gid in ids]
        )
    assert [a.status for a in answers] == [200] * 12
    for gid, answer in zip(ids, answers, strict=True):  # answers in request order, bytes intact
        assert answer.content == graph._messages[gid]["_raw"]
    # one wait, as long as the longest Retry-After; both throttled parts re-sent after it
    assert noting.sleeps == [9.0]
    seen_before_wait = noting.marks[0][1]
    for gid in (slow, slower):
        tries = graph.requests_to(rf"/{gid}/\$value$")
        assert [r.status for r in tries] == [429, 200]
        assert graph.requests.index(tries[1]) >= seen_before_wait  # no sooner than told
    for gid in set(ids) - {slow, slower}:
        assert len(graph.requests_to(rf"/{gid}/\$value$")) == 1
    assert [len(parts) for parts in _batches(graph)] == [12, 2]  # only the throttled went again


async def test_a_throttled_part_inside_a_sync_round(
    runtime: GraphRuntime, graph: GraphServer, clock: FakeClock, services: Services
) -> None:
    ids = _fill(graph, clock, 6)
    graph.fail(rf"/{ids[2]}/\$value$", status=429, retry_after="12", code="MailboxConcurrency")
    report, _ = await runtime.mail_round()
    assert report.new == 6 and 12.0 in clock.sleeps
    assert len(graph.requests_to(r"/\$value$")) == 7  # 6 + the one retry
    with services.store.session() as s:
        assert s.scalar(select(func.count()).select_from(Message)) == 6


async def test_a_vanished_message_is_skipped_without_failing_its_batch(
    runtime: GraphRuntime, graph: GraphServer, clock: FakeClock, services: Services
) -> None:
    ids = _fill(graph, clock, 5)
    graph.fail(rf"/{ids[1]}/\$value$", status=404, code="ErrorItemNotFound")
    report, _ = await runtime.mail_round()
    assert report.new == 4 and report.vanished == 1


async def test_a_batch_never_takes_more_than_the_mailbox_allows(
    graph: GraphServer, clock: FakeClock
) -> None:
    graph.latency = 0.02
    async with GraphClient(graph.base_url, StaticToken("test-token"), clock=clock) as client:
        batch = client.batch([SubRequest("GET", "/me") for _ in range(20)])
        singles = [client.get_json("/me") for _ in range(6)]
        answers, *_ = await asyncio.gather(batch, *singles)
    assert len(answers) == 20 and all(a.ok for a in answers)
    assert graph.peak_in_flight == 4  # Outlook runs 4 parts at once; singles waited their turn
    assert client.peak_in_flight == 4
    assert client.request_count == 7 and client.operation_count == 26


async def test_a_dropped_envelope_is_resent_only_when_repeating_is_safe(
    graph: GraphServer, clock: FakeClock
) -> None:
    gid = graph.add_message(subject="x")
    async with GraphClient(graph.base_url, StaticToken("test-token"), clock=clock) as client:
        graph.fail(r"/\$batch$", drop=True)
        [answer] = await client.batch([SubRequest("GET", f"/me/messages/{gid}")])
        assert answer.json()["id"] == gid  # reads: sent again
        graph.fail(r"/\$batch$", drop_after=True)
        with pytest.raises(AmbiguousWriteError):  # a draft may have been created: never twice
            await client.batch([SubRequest("POST", "/me/messages", {"subject": "once"})])
    assert [m["subject"] for m in graph.folder_messages("drafts")] == ["once"]


def test_the_loopback_batch_follows_the_documented_protocol(graph: GraphServer) -> None:
    auth = {"Authorization": "Bearer test-token"}
    url = graph.base_url + "/$batch"
    too_many = {"requests": [{"id": str(i), "method": "GET", "url": "/me"} for i in range(21)]}
    assert httpx.post(url, json=too_many, headers=auth).status_code == 400
    dup = {"requests": [{"id": "a", "method": "GET", "url": "/me"}] * 2}
    assert httpx.post(url, json=dup, headers=auth).status_code == 400
    no_type = {"requests": [{"id": "1", "method": "POST", "url": "/me/messages", "body": {}}]}
    assert httpx.post(url, json=no_type, headers=auth).status_code == 400
    chained = {
        "requests": [
            {"id": "1", "method": "GET", "url": "/me/messages/missing"},
            {"id": "2", "method": "GET", "url": "/me", "dependsOn": ["1"]},
            {"id": "3", "method": "GET", "url": "/me"},
        ]
    }
    answer = httpx.post(url, json=chained, headers=auth)
    by_id = {r["id"]: r for r in answer.json()["responses"]}
    assert answer.status_code == 200
    assert (by_id["1"]["status"], by_id["2"]["status"], by_id["3"]["status"]) == (404, 424, 200)
    assert by_id["3"]["body"]["mail"]  # JSON bodies stay objects
    assert httpx.post(url, json=chained).status_code == 401  # the envelope carries the auth


async def test_the_request_budget_waits_for_the_window_instead_of_being_throttled(
    graph: GraphServer, clock: FakeClock
) -> None:
    noting = NotingClock(graph, clock.now())
    budget = RequestBudget(noting, limit=30, window=600.0)
    async with GraphClient(
        graph.base_url, StaticToken("test-token"), clock=noting, budget=budget
    ) as client:
        answers = await client.batch([SubRequest("GET", "/me") for _ in range(45)])
    assert len(answers) == 45 and all(a.ok for a in answers)
    # 20 parts fit, the next 20 would make 40 > 30: one wait for the window, then 20 + 5 fit
    assert noting.sleeps == [600.0]
    assert sum(1 for r in graph.requests[: noting.marks[0][1]] if r.batch) == 20
    assert all(r.status == 200 for r in graph.requests)


async def test_category_writes_over_the_budget_wait_for_a_later_round_newest_first(
    runtime: GraphRuntime, graph: GraphServer, clock: FakeClock, services: Services
) -> None:
    ids = _fill(graph, clock, 10)  # ids[-1] is the newest
    # room for the sync itself (~25 operations) and a few category writes, not all ten
    runtime.client.budget = RequestBudget(clock, limit=BUDGET_RESERVE + 30)
    await runtime.mail_round()
    labelled = [gid for gid in ids if graph.message(gid)["categories"]]
    assert 0 < len(labelled) < 10
    assert labelled == ids[-len(labelled) :]  # the newest inquiries were labelled first
    assert runtime.categories.deferred == 10 - len(labelled)
    assert clock.sleeps == [] and not [r for r in graph.requests if r.status == 429]
    with services.store.session() as s:  # every message was ingested regardless
        assert s.scalar(select(func.count()).select_from(Message)) == 10

    graph.reset_stats()
    await runtime.mail_round()  # same window: nothing left to spend on categories
    assert not graph.requests_to(r"/me/messages/", "PATCH")
    clock.advance(600)  # the window has moved on
    await runtime.mail_round()
    assert all(graph.message(gid)["categories"] for gid in ids)
    assert runtime.categories.deferred == 0
