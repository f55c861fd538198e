"""Approved drafts that waited for Outlook go out with the next good sync round — once."""

from __future__ import annotations

import asyncio

from sqlalchemy import update

from core.app.graph_runtime import GraphRuntime
from core.db.models import Draft
from core.graph.client import StaticToken
from core.intake.pipeline import build_pipeline
from core.schedule import SyncScheduler
from tests.drafts.support import CUSTOMER, add_inquiry


async def _composed(services, drafting, graph) -> int:  # type: ignore[no-untyped-def]
    gid = graph.add_message(subject="Sliding door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(services, source_id=gid)
    return await drafting.composer.compose(inquiry_id, "报价15000含GST", actor="owner")


def _runtime(services, graph) -> GraphRuntime:  # type: ignore[no-untyped-def]
    services.settings.update({"graph.base_url": graph.base_url})
    pipeline = build_pipeline(services, offline=True)
    return GraphRuntime(services, pipeline=pipeline, token_provider=StaticToken(graph.token))


async def test_approved_while_offline_goes_once_after_the_next_good_round(
    services, drafting, graph
):
    draft_id = await _composed(services, drafting, graph)
    runtime = _runtime(services, graph)
    scheduler = SyncScheduler(services, runtime)
    port = graph.port
    graph.stop()  # Outlook unreachable: connections refused
    try:
        await drafting.decisions.approve(draft_id, actor="owner")
        result = await drafting.decisions.send(draft_id, actor="owner")
        assert result.status == "waiting" and "未发送" in result.message
        assert not await scheduler.mail.run_once()  # the mail round fails too
        assert (await drafting.reader.get(draft_id)).status == "approved"

        graph.start(port)  # back online
        assert await scheduler.mail.run_once()
        assert (await drafting.reader.get(draft_id)).status == "sent"
        assert len(graph.sent_log) == 1 and graph.sent_log[0]["to"] == [CUSTOMER]
        assert [r.status for r in scheduler.last_sends] == ["sent"]

        for _ in range(2):  # later rounds send nothing again
            assert await scheduler.mail.run_once()
        assert len(graph.sent_log) == 1
        assert len(graph.folder_messages("sentitems")) == 1
    finally:
        await runtime.aclose()


async def test_a_failed_mail_round_sends_nothing(services, drafting, graph):
    draft_id = await _composed(services, drafting, graph)
    await drafting.decisions.approve(draft_id, actor="owner")
    runtime = _runtime(services, graph)
    scheduler = SyncScheduler(services, runtime)
    graph.fail(path=r"/messages/delta$", status=500, times=50)
    try:
        assert not await scheduler.mail.run_once()
        assert graph.sent_log == [] and (await drafting.reader.get(draft_id)).status == "approved"
        graph.faults.clear()
        assert await scheduler.mail.run_once()
        assert len(graph.sent_log) == 1
    finally:
        await runtime.aclose()


async def test_start_reconciles_a_send_interrupted_by_a_crash(services, drafting, graph):
    draft_id = await _composed(services, drafting, graph)
    # a previous run created and sent the Outlook draft, then died before recording "sent"
    mailer = drafting.decisions.sender.mailer
    outlook_id = await mailer.create_draft([CUSTOMER], "RE: Sliding door quote", "Hello")
    imid = await mailer.internet_message_id(outlook_id)
    await mailer.send_draft(outlook_id)
    services.store.write(
        lambda s: s.execute(
            update(Draft)
            .where(Draft.id == draft_id)
            .values(status="sending", outlook_draft_id=outlook_id, internet_message_id=imid)
        )
    )
    runtime = _runtime(services, graph)
    scheduler = SyncScheduler(services, runtime)
    stop = asyncio.Event()
    stop.set()  # start, reconcile, and stop before any poll
    try:
        await scheduler.run_forever(stop)
    finally:
        await runtime.aclose()
    assert (await drafting.reader.get(draft_id)).status == "sent"
    assert len(graph.sent_log) == 1  # recorded, never resent
    assert scheduler.reconciled


async def test_scheduler_without_drafts_is_still_a_plain_poller(services, graph):
    runtime = _runtime(services, graph)
    scheduler = SyncScheduler(services, runtime, drafts=False)
    try:
        assert scheduler.drafts is None
        assert await scheduler.mail.run_once()
    finally:
        await runtime.aclose()
