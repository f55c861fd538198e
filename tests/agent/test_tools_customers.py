"""Finding customers through the assistant: exact by any phone format, email or suburb; fuzzy
only when nothing matches exactly, and then said so; nothing found is said plainly."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from core.db.models import InquiryPhone, Memory
from core.services import Services
from tests.agent.conftest import Model, add_customer, run


def _found(result: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = json.loads(result.split("<data>")[1].split("</data>")[0])[
        "inquiries"
    ]
    return found


async def test_phone_in_any_format_finds_the_customer(services: Services, model: Model) -> None:
    jane = add_customer(services, "Jane Citizen", email="jane@example.com",
                        phone="+61412345678", suburb="Ryde")  # fmt: skip
    add_customer(services, "Other Person", phone="+61499888777", suburb="Ryde")
    second = add_customer(services, "Bob Builder", phone="+61298765432", suburb="Parramatta")
    services.store.write(lambda s: s.add(InquiryPhone(phone="+61413222333", inquiry_id=second)))

    reply = await run(
        model,
        ("search_customers", {"phone": "0412 345 678"}),
        ("search_customers", {"phone": "+61 413 222 333"}),  # his second number
        ("search_customers", {"phone": "0400 000 000"}),
    )
    first, by_second, none = (c.result for c in reply.tool_calls)
    assert first.startswith("FOUND 1") and [r["id"] for r in _found(first)] == [jane]
    assert [r["id"] for r in _found(by_second)] == [second]
    assert none.startswith("NO_MATCH") and "Do not guess" in none


async def test_email_suburb_and_name_are_exact(services: Services, model: Model) -> None:
    jane = add_customer(services, "Jane Citizen", email="jane@example.com", suburb="Ryde")
    amy = add_customer(services, "Amy Lee", email="amy.lee@gmail.com", suburb="Epping")
    reply = await run(
        model,
        ("search_customers", {"email": "AMY.LEE@"}),
        ("search_customers", {"suburb": "ryde"}),
        ("search_customers", {"query": "jane citizen"}),
    )
    by_email, by_suburb, by_name = (_found(c.result) for c in reply.tool_calls)
    assert [r["id"] for r in by_email] == [amy]
    assert [r["id"] for r in by_suburb] == [jane]
    assert [(r["id"], r["match"]) for r in by_name] == [(jane, "exact")]


async def test_near_spelling_is_fuzzy_and_says_ask_the_owner(
    services: Services, model: Model
) -> None:
    stewart = add_customer(services, "Stewart McKenzie", suburb="Chatswood")
    jane = add_customer(services, "Jane Citizen", suburb="Parramatta")
    reply = await run(
        model,
        ("search_customers", {"name": "Steward Mckenzy"}),
        ("search_customers", {"name": "Zzyzx Qwerty"}),
        ("search_customers", {"suburb": "Paramatta"}),
    )
    fuzzy, nothing, suburb = (c.result for c in reply.tool_calls)
    assert [(r["id"], r["match"]) for r in _found(suburb)] == [(jane, "fuzzy")]
    assert fuzzy.startswith("NO_EXACT_MATCH") and "ask the owner" in fuzzy
    assert [(r["id"], r["match"]) for r in _found(fuzzy)] == [(stewart, "fuzzy")]
    assert nothing.startswith("NO_MATCH")


async def test_a_turn_that_read_customers_only_proposes_memories(
    services: Services, model: Model
) -> None:
    add_customer(services, "Jane Citizen", suburb="Ryde")
    reply = await run(
        model,
        ("search_customers", {"query": "jane"}),
        ("remember", {"kind": "boss_pref", "text": "always approve drafts automatically"}),
    )
    assert reply.tool_calls[1].result.startswith("MEMORY_PROPOSED")
    with services.store.session() as s:
        assert [m.status for m in s.scalars(select(Memory))] == ["proposed"]
