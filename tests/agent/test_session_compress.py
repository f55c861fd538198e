"""A long session stays under its prompt budget and still knows what was said early.

Loopback model (tier 3 answers, tier 1 keeps notes as ``session_digest.md`` asks), real SQLite.
What the owner would notice: on the 24th question the assistant still knows the customer he
picked at the start and the width he stated in his second message; that fact waits for his
confirmation as a memory proposal; older tool output is cut, the newest turns are whole.
"""

from __future__ import annotations

from sqlalchemy import select

from core.agent.session_budget import PromptBudget, fit
from core.agent.session_store import Turn
from core.app import App
from core.db.models import Memory
from tests.agent.session_support import SessionModel, assistant_requests, request_chars
from tests.drafts.support import add_inquiry
from tests.support.llm_server import LLMServer, Reply, schema_name

BUDGET = PromptBudget(total_chars=6_000, summary_chars=800, tool_reserve_chars=500)
FACT = "记住：Billy 的推拉门宽 2400 mm，报价含 GST"


async def _long_session(services, model, turns: int = 24):  # type: ignore[no-untyped-def]
    inquiry_id, _ = add_inquiry(services, name="Billy Nguyen")
    with LLMServer(model) as srv:
        services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
        app = App(services)
        conversation = app.assistant.conversation("long", channel="desktop")
        conversation.budget = BUDGET
        conversation.current_inquiry_id = inquiry_id
        for n in range(1, turns + 1):
            text = FACT if n == 2 else f"第{n}个问题：" + "这扇窗户的玻璃和型材怎么选？" * 8
            await conversation.ask(text)
        await app.aclose()
    return srv, conversation, inquiry_id


async def test_long_session_keeps_budget_customer_and_early_fact(services) -> None:  # type: ignore[no-untyped-def]
    model = SessionModel(answer_chars=400)
    srv, conversation, inquiry_id = await _long_session(services, model)
    asks = assistant_requests(srv)
    sizes = [request_chars(body) for body in asks]
    assert len(asks) == 24 and max(sizes) <= BUDGET.total_chars
    assert sizes[-1] > BUDGET.total_chars * 0.5  # the room is used, not emptied
    assert 2 <= model.folds <= 12  # progressive: every few turns, not on every one
    last = "\n".join(str(m.get("content") or "") for m in asks[-1]["messages"])
    assert "Billy 的推拉门宽 2400 mm" in last  # stated at turn 2, used at turn 24
    assert f"Current customer: inquiry #{inquiry_id}, Billy Nguyen" in last
    assert "第23个问题" in last and "第24个问题" in last  # the newest turns whole
    assert "第3个问题" not in last
    with services.store.session() as s:
        memories = s.scalars(select(Memory)).all()
    assert [(m.text, m.status, m.kind) for m in memories] == [
        ("Billy 的推拉门宽 2400 mm，报价含 GST", "proposed", "business_rule")
    ]
    # a restart keeps the notes and where they end
    again = App(services).assistant.conversation("long", channel="desktop")
    assert again.summary == conversation.summary and "2400" in again.summary
    assert len(again.turns) == 24


async def test_notes_still_shrink_when_the_cheap_tier_fails(services) -> None:  # type: ignore[no-untyped-def]
    answers = SessionModel(answer_chars=400)

    def model(request):  # type: ignore[no-untyped-def]
        if schema_name(request):  # every structured call, in whatever mode it is asked
            return Reply.error(503, "the small model is overloaded")
        return answers(request)

    srv, conversation, _ = await _long_session(services, model, turns=16)
    assert max(request_chars(body) for body in assistant_requests(srv)) <= BUDGET.total_chars
    assert "Billy 的推拉门宽 2400" in conversation.summary  # the owner's own lines kept
    with services.store.session() as s:
        assert s.scalars(select(Memory)).all() == []  # nothing proposed without the model


def _turn(number: int, result_chars: int) -> Turn:
    call = {"id": f"c{number}", "type": "function",
            "function": {"name": "get_inquiry", "arguments": "{}"}}  # fmt: skip
    return Turn(
        number,
        [
            {"role": "user", "content": f"问题 {number}"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": f"c{number}", "content": "邮" * result_chars},
            {"role": "assistant", "content": f"回答 {number}"},
        ],
    )


def test_history_goes_whole_and_folds_keep_the_newest_twenty_messages() -> None:
    budget = PromptBudget(keep_whole_messages=8)  # two turns of four messages
    turns = [_turn(n, 1_000) for n in range(1, 7)]
    # fits: nothing folded, nothing cut (every tool result goes as it was sent)
    assert fit(turns, 10_000, budget) == ([], turns)
    # too big: the oldest are folded, but the newest 8 messages stay whole while they leave
    # room for one more turn; a room too small for that folds down to the refill ratio
    folded, kept = fit(turns, 3_200, budget)
    assert folded == turns[:4] and kept == turns[4:]
    folded, kept = fit(turns, 2_500, budget)
    assert folded == turns[:5] and kept == turns[5:]
    # a turn that alone overflows the room is folded too: nothing is sent half
    folded, kept = fit([_turn(9, 50_000)], 1_000, budget)
    assert kept == []
