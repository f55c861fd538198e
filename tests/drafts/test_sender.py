"""Sending through the loopback Graph server: only approved, at most once, honest outcomes."""

from __future__ import annotations

from datetime import timedelta

import pytest

from core.clock import utc
from core.errors import DraftStateError
from tests.drafts.support import CUSTOMER, add_inquiry


async def _approved(services, drafting, graph, *, instruction="报价15000含GST") -> int:  # type: ignore[no-untyped-def]
    gid = graph.add_message(subject="Sliding door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(services, source_id=gid)
    draft_id = await drafting.composer.compose(inquiry_id, instruction, actor="owner")
    await drafting.decisions.approve(draft_id, actor="owner")
    return draft_id


async def test_approved_draft_is_sent_once_in_thread(services, drafting, graph):
    draft_id = await _approved(services, drafting, graph)
    result = await drafting.decisions.send(draft_id, actor="owner")
    assert result.status == "sent" and CUSTOMER in result.message
    sent = graph.folder_messages("sentitems")
    assert len(sent) == 1 and len(graph.sent_log) == 1
    log = graph.sent_log[0]
    assert log["to"] == [CUSTOMER] and log["subject"] == "RE: Sliding door quote"
    assert "$15,000" in log["body"]
    assert graph.requests_to(r"/createReply$", "POST")  # replied in the customer's thread
    view = await drafting.reader.get(draft_id)
    assert view.status == "sent"
    assert (await drafting.reader.describe_for_tool(draft_id)).startswith(
        f"SENT to {CUSTOMER} at 2026-"
    )
    # a second send (double click, second process) is refused and sends nothing
    with pytest.raises(DraftStateError):
        await drafting.decisions.send(draft_id, actor="owner")
    assert len(graph.sent_log) == 1
    trail = [(e.from_status, e.to_status) for e in await drafting.reader.events(draft_id)]
    assert trail[-3:] == [
        ("pending_approval", "approved"),
        ("approved", "sending"),
        ("sending", "sent"),
    ]


async def test_unapproved_draft_is_never_sent(services, drafting, graph):
    gid = graph.add_message(subject="Q", from_addr=CUSTOMER)
    inquiry_id, _ = add_inquiry(services, source_id=gid)
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000", actor="owner")
    with pytest.raises(DraftStateError) as err:
        await drafting.decisions.send(draft_id, actor="owner")
    assert "未发送" in err.value.user_message()
    assert graph.sent_log == [] and graph.requests_to(r"/me/messages") == []
    assert (await drafting.reader.get(draft_id)).status == "pending_approval"


async def test_outlook_unreachable_waits_then_goes_once(services, drafting, graph):
    draft_id = await _approved(services, drafting, graph)
    graph.fail(path=r"/createReply$", status=503, times=10)  # retries exhausted
    result = await drafting.decisions.send(draft_id, actor="owner")
    assert result.status == "waiting" and "未发送" in result.message
    assert (await drafting.reader.get(draft_id)).status == "approved" and graph.sent_log == []
    graph.faults.clear()
    results = await drafting.decisions.send_due()
    assert [r.status for r in results] == ["sent"]
    assert len(graph.sent_log) == 1
    assert await drafting.decisions.send_due() == []


async def test_connection_lost_after_send_is_reconciled_not_resent(services, drafting, graph):
    draft_id = await _approved(services, drafting, graph)
    graph.fail(path=r"/send$", drop_after=True)  # Outlook sent it, we never heard back
    result = await drafting.decisions.send(draft_id, actor="owner")
    assert result.status == "sent"  # found in Sent Items by its Message-ID
    assert len(graph.sent_log) == 1
    assert await drafting.decisions.send_due() == []
    assert len(graph.folder_messages("sentitems")) == 1


async def test_send_rejected_by_outlook_keeps_the_draft(services, drafting, graph):
    draft_id = await _approved(services, drafting, graph)
    graph.fail(path=r"/send$", status=400, code="ErrorInvalidRecipients")
    result = await drafting.decisions.send(draft_id, actor="owner")
    assert result.status == "failed" and "草稿已保留" in result.message
    view = await drafting.reader.get(draft_id)
    assert view.status == "failed" and view.error
    assert graph.sent_log == []
    # the owner fixes it and approves again: one send
    await drafting.decisions.approve(draft_id, actor="owner")
    assert (await drafting.decisions.send(draft_id, actor="owner")).status == "sent"
    assert len(graph.sent_log) == 1


async def test_draft_gone_and_not_sent_is_failed_not_resent(services, drafting, graph):
    from sqlalchemy import update

    from core.db.models import Draft

    draft_id = await _approved(services, drafting, graph)
    outlook_id = await drafting.decisions.sender.mailer.create_draft([CUSTOMER], "x", "y")
    imid = await drafting.decisions.sender.mailer.internet_message_id(outlook_id)
    # as if a crash left it "sending" and the owner then deleted the Outlook draft by hand
    services.store.write(
        lambda s: s.execute(
            update(Draft)
            .where(Draft.id == draft_id)
            .values(status="sending", outlook_draft_id=outlook_id, internet_message_id=imid)
        )
    )
    graph.remove_message(outlook_id)
    results = await drafting.decisions.reconcile()
    assert [r.status for r in results] == ["failed"]
    assert "未重新发送" in (await drafting.reader.get(draft_id)).error
    assert graph.sent_log == []


async def test_batch_sends_paced_to_30_a_minute(services, drafting, graph, clock):
    ids = []
    for i in range(33):
        inquiry_id, _ = add_inquiry(services, email=f"c{i}@example.com", name=f"C{i}")
        draft_id = await drafting.composer.compose(inquiry_id, "报价15000", actor="owner")
        await drafting.decisions.approve(draft_id, actor="owner")
        ids.append(draft_id)
    start = clock.now()
    results = await drafting.decisions.send_due()
    assert [r.status for r in results] == ["sent"] * 33
    assert len(graph.sent_log) == 33
    times = sorted([utc((await drafting.reader.get(i)).sent_at) for i in ids])
    for t in times:
        in_window = [u for u in times if t <= u < t + timedelta(seconds=60)]
        assert len(in_window) <= 30
    assert clock.now() - start >= timedelta(seconds=59)  # it waited instead of bursting


async def test_a_third_send_in_one_minute_waits_for_the_window(services, llm, mailer, graph, clock):  # type: ignore[no-untyped-def]
    """Exchange takes at most so many sends a minute per mailbox (``graph.send_per_minute``):
    with a limit of 2, the third approved draft waits until the first send is 60 s old, then
    goes, once; the first two go at once. The window is counted from the store's ``sent_at``."""
    from core.drafts.drafting import build_drafting

    services.settings.set("graph.send_per_minute", 2)
    drafting = build_drafting(services, llm, mailer)
    ids = [await _approved(services, drafting, graph) for _ in range(3)]
    started = clock.now()
    for draft_id in ids[:2]:
        assert (await drafting.decisions.send(draft_id, actor="owner")).status == "sent"
        clock.advance(10)
    assert clock.sleeps == []  # two in the window: no wait
    assert (await drafting.decisions.send(ids[2], actor="owner")).status == "sent"
    assert sum(clock.sleeps) == pytest.approx(40, abs=0.1)  # 60 s after the first, not before
    assert clock.now() - started >= timedelta(seconds=60)
    assert len(graph.sent_log) == 3
