"""GraphMailer: reply drafts keep the thread, send moves to Sent Items, reconciliation, limits."""

from __future__ import annotations

import asyncio

import pytest

from core.clock import FakeClock
from core.errors import MailerAmbiguous
from core.graph.client import GraphClient, StaticToken
from core.graph.mailer import GraphMailer
from tests.support.graph_server import GraphServer


def _mailer(graph: GraphServer, clock: FakeClock, per_minute: int = 30) -> GraphMailer:
    client = GraphClient(graph.base_url, StaticToken(graph.token or ""), clock=clock)
    return GraphMailer(client, send_per_minute=per_minute)


async def test_reply_draft_keeps_the_thread_and_sends_once(
    graph: GraphServer, clock: FakeClock
) -> None:
    original = graph.add_message(subject="Quote for sliding door", from_addr="amy@example.com")
    mailer = _mailer(graph, clock)
    draft_id = await mailer.create_reply_draft(original)
    await mailer.update_draft(draft_id, body="Hi Amy,\nThanks for your enquiry.")
    imid = await mailer.internet_message_id(draft_id)
    assert imid and await mailer.draft_exists(draft_id)
    assert not await mailer.find_sent(imid)

    await mailer.send_draft(draft_id)

    assert not await mailer.draft_exists(draft_id)  # the draft id now answers 404
    assert await mailer.find_sent(imid)
    [sent] = graph.sent_log
    assert sent["to"] == ["amy@example.com"]
    assert sent["subject"] == "RE: Quote for sliding door"
    assert "Thanks for your enquiry" in sent["body"]
    [copy] = graph.folder_messages("sentitems")
    assert copy["conversationId"] == graph.message(original)["conversationId"]
    await mailer.client.aclose()


async def test_new_mail_draft_with_recipients_subject_and_marker(
    graph: GraphServer, clock: FakeClock
) -> None:
    mailer = _mailer(graph, clock)
    draft_id = await mailer.create_draft(
        ["bob@example.com"], "Your quote", "<p>Dear Bob</p>", marker="draft-17"
    )
    [draft] = graph.folder_messages("drafts")
    assert draft["id"] == draft_id
    assert draft["body"]["contentType"] == "HTML"
    assert draft["internetMessageHeaders"] == [
        {"name": "X-Inquiry-Bridge-Draft", "value": "draft-17"}
    ]
    await mailer.update_draft(draft_id, to=["robert@example.com"], subject="Quote v2")
    assert graph.message(draft_id)["subject"] == "Quote v2"
    assert graph.message(draft_id)["toRecipients"][0]["emailAddress"]["address"] == (
        "robert@example.com"
    )
    await mailer.client.aclose()


async def test_a_send_cut_off_mid_flight_is_reconciled_not_repeated(
    graph: GraphServer, clock: FakeClock
) -> None:
    mailer = _mailer(graph, clock)
    draft_id = await mailer.create_draft("c@example.com", "s", "body")
    imid = await mailer.internet_message_id(draft_id)
    graph.fail(r"/send$", drop_after=True)  # the server sends, the answer never arrives
    with pytest.raises(MailerAmbiguous):
        await mailer.send_draft(draft_id)
    assert len(graph.requests_to(r"/send$")) == 1
    # reconciliation: gone from Drafts and present in Sent Items → it was sent, exactly once
    assert not await mailer.draft_exists(draft_id)
    assert await mailer.find_sent(imid)
    assert len(graph.sent_log) == 1
    await mailer.client.aclose()


async def test_sends_respect_the_per_minute_limit(graph: GraphServer, clock: FakeClock) -> None:
    mailer = _mailer(graph, clock, per_minute=3)
    ids = [await mailer.create_draft("c@example.com", f"s{i}", "b") for i in range(5)]
    start = clock.now()
    for draft_id in ids:
        await mailer.send_draft(draft_id)
    assert len(graph.sent_log) == 5
    # the 4th send had to wait for the first minute to pass
    assert (clock.now() - start).total_seconds() >= 60.0
    await asyncio.sleep(0)
    await mailer.client.aclose()
