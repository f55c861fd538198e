"""Mail through the assistant: full-text search with sender, Sydney date range and attachment
filters; one customer's whole thread in order; attachments found by inquiry or by name."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from core.clock import SYDNEY
from core.services import Services
from tests.agent.conftest import Model, add_customer, add_mail, run


def _data(result: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(result.split("<data>")[1].split("</data>")[0])
    return data


def _sydney(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=SYDNEY)


async def test_search_emails_by_words_sender_dates_and_attachments(
    services: Services, model: Model
) -> None:
    jane = add_customer(services, "Jane Citizen", email="jane@example.com")
    bob = add_customer(services, "Bob Builder", email="bob@build.com.au")
    add_mail(services, jane, subject="Sliding door", body="We want a stacker DOOR in Ryde.",
             at=_sydney(27, 9))  # fmt: skip
    late = add_mail(services, jane, subject="Plans", body="Attached the floor plan for the door.",
                    at=_sydney(29, 23, 30), attachments=(("plan.pdf", b"%PDF-1.4"),))  # fmt: skip
    today = add_mail(services, bob, subject="Door quote", body="Any update on the door?",
                     at=_sydney(30, 0, 30), sender="bob@build.com.au")  # fmt: skip

    reply = await run(
        model,
        ("search_emails", {"query": "door"}),
        ("search_emails", {"query": "stacker ryde"}),
        ("search_emails", {"query": "door", "sender": "BOB@"}),
        # 00:30 on the 30th in Sydney is the 29th in UTC: the Sydney day decides
        ("search_emails", {"query": "door", "since": "2026-11-30", "until": "2026-11-30"}),
        ("search_emails", {"with_attachments": True}),
        ("search_emails", {"query": "window"}),
    )
    every, words, sender, day, with_files, none = (c.result for c in reply.tool_calls)
    assert every.startswith("FOUND 3 emails")
    assert [e["subject"] for e in _data(words)["emails"]] == ["Sliding door"]
    assert [e["message_id"] for e in _data(sender)["emails"]] == [today]
    assert [e["message_id"] for e in _data(day)["emails"]] == [today]
    [attached] = _data(with_files)["emails"]
    assert attached["message_id"] == late and attached["attachments"][0]["filename"] == "plan.pdf"
    assert none.startswith("NO_MATCH")


async def test_thread_history_is_the_whole_thread_in_order(
    services: Services, model: Model
) -> None:
    jane = add_customer(services, "Jane Citizen", email="jane@example.com")
    add_mail(services, jane, subject="Sliding door", body="First question", at=_sydney(20, 9))
    add_mail(services, jane, subject="RE: Sliding door", body="Our answer", at=_sydney(21, 9),
             direction="out", sender="sales@aurorawindows.com.au")  # fmt: skip
    add_mail(services, jane, subject="RE: Sliding door", body="Second question " + "x" * 5000,
             at=_sydney(22, 9))  # fmt: skip
    reply = await run(model, ("thread_history", {"inquiry_id": jane}))
    result = reply.tool_calls[0].result
    assert result.startswith(f"THREAD of inquiry {jane}: 3 emails")
    emails = _data(result)["emails"]
    assert [e["direction"] for e in emails] == ["from customer", "sent by us", "from customer"]
    assert emails[0]["text"] == "First question" and emails[2]["text"].endswith("[truncated]")


async def test_find_attachments_by_inquiry_and_by_name(services: Services, model: Model) -> None:
    jane = add_customer(services, "Jane Citizen", email="jane@example.com")
    bob = add_customer(services, "Bob Builder", email="bob@build.com.au")
    add_mail(services, jane, subject="Plans", body="see attached", at=_sydney(27, 9),
             attachments=(("Floor Plan.pdf", b"%PDF-1"), ("photo.jpg", b"jpg")))  # fmt: skip
    add_mail(services, bob, subject="Plan", body="plan", at=_sydney(28, 9),
             attachments=(("bob-plan.pdf", b"%PDF-2"),))  # fmt: skip
    reply = await run(
        model,
        ("find_attachments", {"inquiry_id": jane}),
        ("find_attachments", {"filename": "plan"}),
        ("find_attachments", {"filename": "invoice"}),
    )
    by_inquiry, by_name, none = (c.result for c in reply.tool_calls)
    assert "you cannot send them to anyone" in by_inquiry
    assert sorted(a["filename"] for a in _data(by_inquiry)["attachments"]) == [
        "Floor Plan.pdf",
        "photo.jpg",
    ]
    found = _data(by_name)["attachments"]
    assert [(a["filename"], a["inquiry_id"]) for a in found] == [
        ("bob-plan.pdf", bob),
        ("Floor Plan.pdf", jane),
    ]
    assert all(isinstance(a["id"], int) and a["available"] for a in found)
    assert none.startswith("NO_MATCH")
