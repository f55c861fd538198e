"""Mail sync in-process with a FakeClock: throttling, first-sync window, categories, attachments."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from core.app.graph_runtime import GraphRuntime
from core.clock import FakeClock
from core.db.app_state import get_state
from core.db.models import Inquiry, Message
from core.graph.categories import MASTER_DENIED_KEY
from core.graph.client import StaticToken
from core.graph.mail_sync import fetch_attachment, list_attachments
from core.inquiry.stages import StageService
from core.intake.pipeline import build_pipeline
from core.services import Services
from tests.support.graph_server import GraphServer


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


def _inquiry_message(graph: GraphServer, clock: FakeClock, **kw) -> str:
    return graph.add_message(
        subject="New sliding door",
        from_addr="amy@example.com",
        from_name="Amy Lee",
        body="Hi, please quote a sliding door for 5 George St, Ryde. Call 0412 345 678.",
        received_at=clock.now() - timedelta(hours=1),
        **kw,
    )


async def test_throttled_downloads_wait_for_retry_after(
    runtime: GraphRuntime, graph: GraphServer, clock: FakeClock, services: Services
) -> None:
    _inquiry_message(graph, clock)
    graph.fail(r"/\$value$", status=429, retry_after="12", code="MailboxConcurrency")
    graph.fail(r"/messages/delta$", status=503, retry_after="4")
    report, _ = await runtime.mail_round()
    assert report.new == 1
    assert 12.0 in clock.sleeps and 4.0 in clock.sleeps
    # no request was retried sooner than its Retry-After
    throttled = [r for r in graph.requests if r.status in (429, 503)]
    assert len(throttled) == 2


async def test_a_refused_master_list_still_leaves_the_names_on_the_messages(
    runtime: GraphRuntime, graph: GraphServer, clock: FakeClock, services: Services
) -> None:
    """Without MailboxSettings.ReadWrite the master list answers 403: the class and stage names
    still go on the inquiry's messages (Outlook shows them uncoloured), and the app remembers why."""
    graph.fail(r"/masterCategories$", method="GET", status=403, code="ErrorAccessDenied", times=99)
    gid = _inquiry_message(graph, clock)
    await runtime.mail_round()
    cats = graph.message(gid)["categories"]
    assert any(c.startswith("询盘-") for c in cats) and "阶段-询盘" in cats
    assert graph.master_categories == []
    assert runtime.categories.master_denied is True
    with services.store.session() as s:
        assert get_state(s, MASTER_DENIED_KEY) is True


async def test_first_sync_window_and_read_state(
    runtime: GraphRuntime, graph: GraphServer, clock: FakeClock, services: Services
) -> None:
    _inquiry_message(graph, clock, is_read=True)
    graph.add_message(subject="Ancient", received_at=clock.now() - timedelta(days=45))
    report, _ = await runtime.mail_round()
    assert report.new == 1  # read in Outlook, still ingested; 45 days old: outside the window
    delta = graph.requests_to(r"/inbox/messages/delta$")[0]
    assert delta.query["$filter"] == "receivedDateTime ge 2026-03-02T00:00:00Z"
    assert "internetMessageId" in delta.query["$select"]


async def test_categories_follow_class_and_stage_and_keep_the_owners(
    runtime: GraphRuntime, graph: GraphServer, clock: FakeClock, services: Services
) -> None:
    gid = _inquiry_message(graph, clock, categories=["VIP"])
    await runtime.mail_round()
    with services.store.session() as s:
        inquiry = s.scalars(select(Inquiry)).one()
    cats = graph.message(gid)["categories"]
    assert cats[0] == "VIP" and any(c.startswith("询盘-") for c in cats) and "阶段-询盘" in cats
    masters = len(graph.master_categories)
    assert masters >= 11

    StageService(services.store, services.bus, clock).advance(
        inquiry.id, "quoting", reason="test", triggered_by="owner"
    )
    graph.reset_stats()
    await runtime.mail_round()
    assert graph.message(gid)["categories"][0] == "VIP"
    assert "阶段-报价中" in graph.message(gid)["categories"]
    assert "阶段-询盘" not in graph.message(gid)["categories"]
    assert len(graph.requests_to(r"/me/messages/[^/]+$", "PATCH")) == 1
    assert len(graph.master_categories) == masters  # created once, not again

    graph.reset_stats()
    await runtime.mail_round()  # nothing changed: no patch
    assert graph.requests_to(r"/me/messages/", "PATCH") == []


async def test_attachments_on_demand_with_a_size_cap(
    runtime: GraphRuntime, graph: GraphServer, clock: FakeClock, services: Services
) -> None:
    gid = _inquiry_message(
        graph, clock, attachments=[("plan.pdf", "application/pdf", b"%PDF-1.4 plan" * 10)]
    )
    await runtime.mail_round()
    [meta] = await list_attachments(runtime.client, gid)
    assert meta["name"] == "plan.pdf" and meta["size"] == 130
    data = await fetch_attachment(runtime.client, gid, meta["id"], max_mb=1)
    assert data == b"%PDF-1.4 plan" * 10
    assert await fetch_attachment(runtime.client, gid, meta["id"], max_mb=0) is None
    with services.store.session() as s:
        assert s.scalars(select(Message)).one().source_id == gid


async def test_graph_message_source_moves_the_cursor_only_on_commit(
    runtime: GraphRuntime, graph: GraphServer, clock: FakeClock, services: Services
) -> None:
    from core.db.models import SyncCursor
    from core.sources.graph import GraphMessageSource

    _inquiry_message(graph, clock)
    source = GraphMessageSource(runtime.mail)
    report = await runtime.pipeline.ingest_source(source)
    assert report.counts["new_inquiry"] == 1
    with services.store.session() as s:
        assert s.get(SyncCursor, "graph:mail:inbox") is None  # not yet committed
    await source.commit()
    with services.store.session() as s:
        assert "deltatoken" in s.get(SyncCursor, "graph:mail:inbox").value
    again = await runtime.pipeline.ingest_source(GraphMessageSource(runtime.mail))
    assert again.processed == 0


async def test_listing_a_folder_reads_its_delta_cursor_off_the_event_loop(
    runtime: GraphRuntime, graph: GraphServer, clock: FakeClock, services: Services
) -> None:
    """#23: ``list_folder`` opened a session on the loop's thread to read the cursor."""
    import contextlib
    import threading

    _inquiry_message(graph, clock)
    opened_on: list[str] = []
    session = services.store.session

    @contextlib.contextmanager
    def watched():  # type: ignore[no-untyped-def]
        opened_on.append(threading.current_thread().name)
        with session() as s:
            yield s

    services.store.session = watched  # type: ignore[method-assign]
    listing = await runtime.mail.list_folder("inbox")
    assert listing.folder == "inbox"
    assert opened_on  # the cursor was read …
    assert threading.current_thread().name not in opened_on  # … but not here, on the loop
