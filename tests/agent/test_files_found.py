"""Which files a turn found, for the front ends to show: ``TurnDone.attachment_ids`` through the
real loop and the real ``find_attachments`` over the loopback model, and the facade that turns
an id into a file on disk (``App.inquiries.attachment_file``).

What the owner would notice: the plan he asked for is offered once, in the order the tool listed
it; a file never kept on this computer (over the download cap) or one that has gone from disk
is not offered as if he could open it; a failed search offers nothing.
"""

from __future__ import annotations

from typing import Any

from core.agent.conversation import (
    MOST_FILES_SHOWN,
    Conversation,
    TurnDone,
    files_found,
)
from core.agent.loop import AssistantReply, ToolCallRecord
from core.agent.tools.args import data_block
from core.app.inquiries import InquiryService
from core.db.models import Attachment
from core.services import Services
from tests.agent.conftest import Model, add_customer, add_mail


def _found(*rows: dict[str, Any]) -> ToolCallRecord:
    return ToolCallRecord(
        "find_attachments", {}, data_block("FOUND — …", {"attachments": list(rows)})
    )


def test_files_found_keeps_order_skips_unavailable_duplicates_and_failures() -> None:
    reply = AssistantReply(
        "好的",
        [
            _found({"id": 7, "available": True}, {"id": 3, "available": False}),
            ToolCallRecord("find_attachments", {}, "ERROR: give inquiry_id or a filename"),
            ToolCallRecord("find_attachments", {}, "NO_MATCH — no such attachment."),
            ToolCallRecord("search_emails", {}, data_block("FOUND", {"attachments": [{"id": 9}]})),
            _found({"id": 5, "available": True}, {"id": 7, "available": True}),
            _found({"id": True, "available": True}, {"id": "8", "available": True}),
        ],
    )
    assert files_found(reply) == (7, 5)
    many = AssistantReply("", [_found(*({"id": i, "available": True} for i in range(1, 30)))])
    assert files_found(many) == tuple(range(1, MOST_FILES_SHOWN + 1))
    assert TurnDone(reply, (1,)).attachment_ids == ()  # the old positional form still works


async def test_a_turn_that_finds_the_plan_reports_it_and_the_facade_gives_its_path(
    model: Model, services: Services
) -> None:
    steward = add_customer(services, "Steward Lee", email="steward@example.com")
    add_mail(
        services,
        steward,
        subject="Floor plan",
        body="Plan attached",
        at=services.clock.now(),
        attachments=(("Steward floor plan.pdf", b"%PDF-1.4 plan"), ("notes.txt", b"x")),
    )

    def never_stored(session: Any) -> int:
        row = Attachment(filename="Steward plan big.pdf", size=10**9, stored_path=None)
        row.inquiry_id = steward
        session.add(row)
        session.flush()
        return row.id

    big = int(services.store.write(never_stored))
    events: list[Any] = []
    model.steps = [[{"name": "find_attachments", "arguments": {"filename": "plan"}}], "在这里。"]
    conversation = Conversation("t", "desktop", model.assistant)
    await conversation.ask("Steward 的平面图在哪", on_event=events.append)
    [done] = [e for e in events if isinstance(e, TurnDone)]
    [plan_id] = done.attachment_ids
    assert big not in done.attachment_ids

    inquiries = InquiryService(services, None)
    plan = await inquiries.attachment_file(plan_id)
    assert plan is not None and plan.filename == "Steward floor plan.pdf"
    assert plan.path.is_absolute() and plan.path.read_bytes() == b"%PDF-1.4 plan"
    assert plan.size == len(b"%PDF-1.4 plan")
    assert await inquiries.attachment_file(big) is None  # never stored here
    assert await inquiries.attachment_file(10_000) is None  # no such attachment
    plan.path.unlink()
    assert await inquiries.attachment_file(plan_id) is None  # gone from disk
