"""Attachments on drafts: the inquiry's files, chosen by the owner, reach the customer once."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from sqlalchemy import select

from core.db.models import Attachment, AuditEntry
from core.errors import DraftStateError
from tests.drafts.support import CUSTOMER, add_inquiry

MB = 1024 * 1024


def add_file(  # type: ignore[no-untyped-def]
    services, message_pk: int, name: str, data: bytes | None, *, absolute: bool = False
) -> int:
    """An attachment of the message, stored like the intake stores it (None: over the cap)."""
    stored = None
    if data is not None:
        digest = hashlib.sha256(data).hexdigest()
        relative = Path("attachments") / digest[:2] / digest / name
        target = services.paths.home / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        stored = str(target) if absolute else relative.as_posix()

    def do(session):  # type: ignore[no-untyped-def]
        row = Attachment(
            message_pk=message_pk,
            filename=name,
            content_type="application/pdf" if name.endswith(".pdf") else "application/zip",
            size=len(data) if data is not None else 60 * MB,
            stored_path=stored,
            skipped_reason=None if data is not None else "over_size_cap",
        )
        session.add(row)
        session.flush()
        return row.id

    return services.store.write(do)


async def _inquiry(services, graph):  # type: ignore[no-untyped-def]
    gid = graph.add_message(subject="Sliding door quote", from_addr=CUSTOMER, body="Quote please")
    return add_inquiry(services, source_id=gid)


async def test_chosen_files_reach_the_customer_once(services, drafting, graph):
    inquiry_id, msg_pk = await _inquiry(services, graph)
    plan = b"%PDF plan " * 500
    photos = os.urandom(int(3.5 * MB))  # upload session
    a = add_file(services, msg_pk, "plan.pdf", plan)
    b = add_file(services, msg_pk, "photos.zip", photos, absolute=True)
    draft_id = await drafting.composer.compose(
        inquiry_id, "报价15000含GST", actor="owner", attachment_ids=[a]
    )
    assert [f.filename for f in (await drafting.reader.get(draft_id)).attachments] == ["plan.pdf"]
    options = await drafting.reader.attachment_options(draft_id)
    assert {(o.filename, o.size, o.available) for o in options} == {
        ("plan.pdf", len(plan), True),
        ("photos.zip", len(photos), True),
    }
    view = await drafting.edits.set_attachments(draft_id, [a, b], actor="owner")
    assert view.attachment_ids == [a, b]
    with services.store.session() as s:
        audit = list(s.scalars(select(AuditEntry).where(AuditEntry.action == "attachments")))
        assert [(e.actor, e.detail["added"]) for e in audit] == [("owner", [b])]

    await drafting.decisions.approve(draft_id, actor="owner")
    result = await drafting.decisions.send(draft_id, actor="owner")
    assert result.status == "sent"
    [sent] = graph.sent_log
    got = {name: hashlib.sha256(data).hexdigest() for name, _, data in sent["attachments"]}
    assert got == {
        "plan.pdf": hashlib.sha256(plan).hexdigest(),
        "photos.zip": hashlib.sha256(photos).hexdigest(),
    }
    assert (await drafting.reader.get(draft_id)).as_json()["attachments"][0][
        "filename"
    ] == "plan.pdf"


async def test_retry_after_dropped_send_does_not_attach_twice(services, drafting, graph):
    inquiry_id, msg_pk = await _inquiry(services, graph)
    a = add_file(services, msg_pk, "plan.pdf", b"%PDF plan")
    draft_id = await drafting.composer.compose(
        inquiry_id, "报价15000", actor="owner", attachment_ids=[a]
    )
    await drafting.decisions.approve(draft_id, actor="owner")
    graph.fail(path=r"/send$", status=503, times=10)  # attached, then Outlook is unavailable
    assert (await drafting.decisions.send(draft_id, actor="owner")).status == "waiting"
    graph.faults.clear()
    assert [r.status for r in await drafting.decisions.send_due()] == ["sent"]
    [sent] = graph.sent_log
    assert [n for n, _, _ in sent["attachments"]] == ["plan.pdf"]
    assert len(graph.requests_to(r"/attachments$", "POST")) == 1


async def test_untick_after_a_failed_attempt_removes_the_file(services, drafting, graph):
    inquiry_id, msg_pk = await _inquiry(services, graph)
    a = add_file(services, msg_pk, "plan.pdf", b"%PDF plan")
    b = add_file(services, msg_pk, "old.pdf", b"%PDF old")
    draft_id = await drafting.composer.compose(
        inquiry_id, "报价15000", actor="owner", attachment_ids=[a, b]
    )
    await drafting.decisions.approve(draft_id, actor="owner")
    graph.fail(path=r"/send$", status=503, times=10)
    assert (await drafting.decisions.send(draft_id, actor="owner")).status == "waiting"
    graph.faults.clear()
    view = await drafting.edits.set_attachments(draft_id, [a], actor="owner")
    assert view.status == "pending_approval"  # he approved an email with two files
    await drafting.decisions.approve(draft_id, actor="owner")
    assert (await drafting.decisions.send(draft_id, actor="owner")).status == "sent"
    assert [n for n, _, _ in graph.sent_log[0]["attachments"]] == ["plan.pdf"]


async def test_files_that_cannot_go_are_refused_clearly(services, drafting, graph):
    inquiry_id, msg_pk = await _inquiry(services, graph)
    big = add_file(services, msg_pk, "video.zip", None)  # the intake kept no bytes
    _other, other_pk = add_inquiry(services, email="bob@example.com", name="Bob")
    foreign = add_file(services, other_pk, "bob.pdf", b"%PDF bob")
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000", actor="owner")
    [option] = await drafting.reader.attachment_options(draft_id)
    assert not option.available and "Outlook" in option.reason
    with pytest.raises(DraftStateError, match="无法发送"):
        await drafting.edits.set_attachments(draft_id, [big], actor="owner")
    with pytest.raises(DraftStateError, match="不是询盘"):
        await drafting.edits.set_attachments(draft_id, [foreign], actor="owner")
    assert (await drafting.reader.get(draft_id)).attachment_ids == []


async def test_file_deleted_from_disk_fails_the_send_and_sends_nothing(services, drafting, graph):
    inquiry_id, msg_pk = await _inquiry(services, graph)
    a = add_file(services, msg_pk, "plan.pdf", b"%PDF plan")
    draft_id = await drafting.composer.compose(
        inquiry_id, "报价15000", actor="owner", attachment_ids=[a]
    )
    await drafting.decisions.approve(draft_id, actor="owner")
    with services.store.session() as s:
        stored = s.get(Attachment, a).stored_path
    (services.paths.home / stored).unlink()
    with pytest.raises(DraftStateError, match="附件"):
        await drafting.decisions.send(draft_id, actor="owner")
    assert graph.sent_log == []
    assert (await drafting.reader.get(draft_id)).status == "approved"
    assert (await drafting.reader.get(draft_id)).attachment_warnings


async def test_rejecting_deletes_the_outlook_copy(services, drafting, graph):
    inquiry_id, _ = await _inquiry(services, graph)
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000", actor="owner")
    await drafting.decisions.approve(draft_id, actor="owner")
    graph.fail(path=r"/send$", status=503, times=10)
    assert (await drafting.decisions.send(draft_id, actor="owner")).status == "waiting"
    graph.faults.clear()
    [copy] = graph.folder_messages("drafts")
    assert (await drafting.reader.get(draft_id)).status == "approved"

    await drafting.decisions.reject(draft_id, actor="owner")

    assert graph.folder_messages("drafts") == [] and graph.deleted_log == [copy["id"]]
    assert graph.sent_log == []
    with services.store.session() as s:
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "outlook_draft_deleted"))
        assert entry.entity_id == draft_id and entry.detail["outlook_id"] == copy["id"]
    # nothing left to clean: later rounds make no DELETE
    await drafting.decisions.send_due()
    assert len(graph.requests_to(r"/me/messages/[^/]+$", "DELETE")) == 1


async def test_rejected_while_offline_is_cleaned_up_by_the_next_round(services, drafting, graph):
    inquiry_id, _ = await _inquiry(services, graph)
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000", actor="owner")
    await drafting.decisions.approve(draft_id, actor="owner")
    graph.fail(path=r"/send$", status=503, times=10)
    await drafting.decisions.send(draft_id, actor="owner")
    graph.faults.clear()
    graph.fail(path=r"/me/messages/", status=503, times=20)  # Outlook down while he rejects
    view = await drafting.decisions.reject(draft_id, actor="owner")
    assert view.status == "rejected" and len(graph.folder_messages("drafts")) == 1
    graph.faults.clear()
    await drafting.decisions.send_due()
    assert graph.folder_messages("drafts") == []
    assert graph.sent_log == []
