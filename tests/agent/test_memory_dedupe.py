"""One memory per fact: paraphrases merge (the loopback model judging), unrelated facts do not,
and the model is asked only about plausible pairs."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from core.agent.memory_dedupe import Candidate, propose_memories, remember_once
from core.db.models import AuditEntry, Memory
from core.llm.client import LLMClient
from core.services import Services
from tests.drafts.support import add_inquiry
from tests.support.llm_server import LLMServer, Reply, last_user_text, schema_name

# what a careful cheap model says: these pairs state one fact each
SAME = [
    {"Billy has a tight budget", "Billy's budget is limited"},
    {"Billy 预算有限", "Billy 的预算很紧"},
]
_DATA = re.compile(r"<data>\n?(.*?)\n?</data>", re.DOTALL)


class Judge:
    """The tier-1 model of the duplicate check; every other request is refused."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, list[str]]] = []
        self.fail = False

    def __call__(self, request: dict[str, Any]) -> Any:
        if schema_name(request) != "duplicatejudgement":
            return Reply.error(500, "only the duplicate check is expected")
        if self.fail:
            return Reply.error(503, "the small model is overloaded")
        new, shown = _DATA.findall(last_user_text(request))
        text = json.loads(new)
        kept = [json.loads(line) for line in shown.splitlines() if line.strip()]
        self.asked.append((text, [k["text"] for k in kept]))
        for memory in kept:
            if {text, memory["text"]} in SAME:
                return {"same_as": memory["id"], "reason": "the same fact"}
        return {"same_as": None, "reason": "a different fact"}


@pytest.fixture
def judge() -> Judge:
    return Judge()


@pytest.fixture
async def llm(services: Services, judge: Judge) -> AsyncIterator[LLMClient]:
    with LLMServer(judge) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        client = LLMClient(services.settings, services.secrets, services.store, services.clock)
        yield client
        await client.aclose()


def _rows(services: Services) -> list[tuple[str, int, int | None, str]]:
    with services.store.session() as s:
        return [
            (m.text, m.seen_count, m.inquiry_id, m.status)
            for m in s.scalars(select(Memory).order_by(Memory.id))
        ]


async def _say(services: Services, llm: Any, *texts: str) -> list[int]:
    return await propose_memories(
        services, llm, [Candidate("customer_note", t) for t in texts], channel="telegram"
    )


@pytest.mark.parametrize("pair", [sorted(p, key=len) for p in SAME])
async def test_a_paraphrase_is_merged_into_the_older_memory(services, llm, judge, pair) -> None:  # type: ignore[no-untyped-def]
    billy, _ = add_inquiry(services, email="billy@example.com", name="Billy Nguyen")
    first, second = pair
    saved = await _say(services, llm, first, second)
    assert len(saved) == 1  # the second said nothing new
    assert _rows(services) == [(first, 2, billy, "proposed")]  # the older kept, counted
    assert judge.asked == [(second, [first])]
    with services.store.session() as s:
        merged = s.scalars(select(AuditEntry).where(AuditEntry.action == "memory_merged")).one()
    assert merged.entity_id == saved[0] and merged.detail["text"] == second  # not dropped


async def test_an_unrelated_fact_is_kept_beside_it(services, llm, judge) -> None:  # type: ignore[no-untyped-def]
    add_inquiry(services, email="billy@example.com", name="Billy Nguyen")
    add_inquiry(services, email="amy@example.com", name="Amy Lee")
    await _say(services, llm, "Billy has a tight budget")
    # shares a word: the model is asked, and says it is another fact
    await _say(services, llm, "Billy has a tight deadline for the balcony doors")
    assert judge.asked == [
        ("Billy has a tight deadline for the balcony doors", ["Billy has a tight budget"])
    ]
    # shares nothing once his name is set aside, or is about someone else: never asked
    await _say(services, llm, "Billy wants black frames", "Amy has a tight budget")
    assert len(judge.asked) == 1
    assert [(text, count) for text, count, _i, _s in _rows(services)] == [
        ("Billy has a tight budget", 1),
        ("Billy has a tight deadline for the balcony doors", 1),
        ("Billy wants black frames", 1),
        ("Amy has a tight budget", 1),
    ]


async def test_without_the_model_the_cheap_check_decides(services, llm, judge) -> None:  # type: ignore[no-untyped-def]
    add_inquiry(services, email="billy@example.com", name="Billy Nguyen")
    judge.fail = True  # the endpoint errs: near-copies still merge, paraphrases stay apart
    await _say(services, llm, "Billy has a tight budget", "Billy has a tight budget!")
    await _say(services, llm, "Billy's budget is limited")
    assert [(t, c) for t, c, _i, _s in _rows(services)] == [
        ("Billy has a tight budget", 2),
        ("Billy's budget is limited", 1),
    ]
    # no endpoint at all: the same, without a request
    await _say(services, None, "Billy's budget is limited.")
    assert [c for _t, c, _i, _s in _rows(services)] == [2, 2]


async def test_the_owner_saying_it_himself_activates_the_proposal(services, llm) -> None:  # type: ignore[no-untyped-def]
    add_inquiry(services, email="billy@example.com", name="Billy Nguyen")
    await _say(services, llm, "Billy has a tight budget")
    result = await remember_once(
        services, llm, Candidate("customer_note", "Billy's budget is limited"),
        source="telegram", proposal=False,
    )  # fmt: skip
    assert result.merged and result.status == "active"
    assert [(t, c, s) for t, c, _i, s in _rows(services)] == [
        ("Billy has a tight budget", 2, "active")
    ]
