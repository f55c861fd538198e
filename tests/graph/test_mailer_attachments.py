"""GraphMailer attachments: small files in one POST, big ones through an upload session, the
customer receives them byte for byte; abandoned drafts are deleted."""

from __future__ import annotations

import email
import email.policy
import hashlib
import os

import pytest

from core.clock import FakeClock
from core.errors import MailerRefused, MailerUnavailable
from core.graph.client import GraphClient, StaticToken
from core.graph.mailer import UPLOAD_CHUNK, AttachmentTooLarge, GraphMailer
from tests.support.graph_server import GraphServer

MB = 1024 * 1024


def _mailer(graph: GraphServer, clock: FakeClock) -> GraphMailer:
    client = GraphClient(graph.base_url, StaticToken(graph.token or ""), clock=clock)
    return GraphMailer(client)


async def test_small_and_large_attachments_reach_the_customer(
    graph: GraphServer, clock: FakeClock
) -> None:
    original = graph.add_message(subject="Quote", from_addr="amy@example.com")
    mailer = _mailer(graph, clock)
    draft = await mailer.create_reply_draft(original)
    small = b"%PDF-1.4 quote " * 1000
    large = os.urandom(int(7.5 * MB))  # needs an upload session in three chunks
    await mailer.add_attachment(draft, "quote.pdf", "application/pdf", small)
    await mailer.add_attachment(draft, "site photos.zip", "application/zip", large)

    assert len(graph.requests_to(r"/attachments$", "POST")) == 1
    assert len(graph.requests_to(r"/createUploadSession$", "POST")) == 1
    chunks = graph.upload_chunks
    assert len(chunks) == -(-len(large) // UPLOAD_CHUNK) == 3
    assert all(end - start + 1 <= 4 * MB for _, start, end in chunks)
    # the upload URL is pre-authenticated: our bearer token must not travel there
    assert all("authorization" not in r.headers for r in graph.requests_to(r"^/upload/"))
    listed = await mailer.list_attachments(draft)
    assert [(a.name, a.size) for a in listed] == [
        ("quote.pdf", len(small)),
        ("site photos.zip", len(large)),
    ]

    await mailer.send_draft(draft)
    [sent] = graph.sent_log
    assert [(n, hashlib.sha256(b).hexdigest()) for n, _, b in sent["attachments"]] == [
        ("quote.pdf", hashlib.sha256(small).hexdigest()),
        ("site photos.zip", hashlib.sha256(large).hexdigest()),
    ]
    # and the MIME of the message in Sent Items carries them too
    [copy] = graph.folder_messages("sentitems")
    raw = await mailer.client.get_bytes(f"/me/messages/{copy['id']}/$value")
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    names = [p.get_filename() for p in parsed.iter_attachments()]
    assert names == ["quote.pdf", "site photos.zip"]
    await mailer.client.aclose()


async def test_throttled_chunk_is_retried_after_retry_after(
    graph: GraphServer, clock: FakeClock
) -> None:
    mailer = _mailer(graph, clock)
    draft = await mailer.create_draft(["amy@example.com"], "Plans", "See attached")
    data = os.urandom(4 * MB)
    graph.fail(path=r"^/upload/", method="PUT", status=429, retry_after="7")
    before = clock.now()
    await mailer.add_attachment(draft, "plans.dwg", "", data)
    assert (clock.now() - before).total_seconds() >= 7
    [att] = await mailer.list_attachments(draft)
    assert att.size == len(data) and att.content_type == "application/octet-stream"
    await mailer.client.aclose()


async def test_failed_chunk_is_not_retried_blindly(graph: GraphServer, clock: FakeClock) -> None:
    mailer = _mailer(graph, clock)
    draft = await mailer.create_draft(["amy@example.com"], "Plans", "See attached")
    graph.fail(path=r"^/upload/", method="PUT", status=500)
    with pytest.raises(MailerUnavailable):  # a 500: nothing kept, retried later
        await mailer.add_attachment(draft, "plans.pdf", "application/pdf", os.urandom(3 * MB))
    assert len(graph.requests_to(r"^/upload/", "PUT")) == 1
    assert await mailer.list_attachments(draft) == []
    await mailer.client.aclose()


async def test_over_150_mb_is_refused_before_any_request(
    graph: GraphServer, clock: FakeClock
) -> None:
    mailer = _mailer(graph, clock)
    with pytest.raises(MailerRefused) as refused:
        await mailer.add_attachment("x", "huge.mov", "video/quicktime", bytes(150 * MB + 1))
    assert isinstance(refused.value.cause, AttachmentTooLarge)
    assert graph.requests == []
    await mailer.client.aclose()


async def test_delete_attachment_and_draft(graph: GraphServer, clock: FakeClock) -> None:
    mailer = _mailer(graph, clock)
    draft = await mailer.create_draft(["amy@example.com"], "Plans", "See attached")
    await mailer.add_attachment(draft, "a.txt", "text/plain", b"a")
    [att] = await mailer.list_attachments(draft)
    assert await mailer.delete_attachment(draft, att.id)
    assert await mailer.list_attachments(draft) == []
    assert await mailer.delete_draft(draft)
    assert not await mailer.draft_exists(draft)
    assert graph.folder_messages("drafts") == []
    assert not await mailer.delete_draft(draft)  # already gone: 404 is fine
    await mailer.client.aclose()
