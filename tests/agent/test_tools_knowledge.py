"""The owner's 知识库 through the assistant: it reads it, and what it proposes to add is
written only when he confirms (the proposal path of every other write)."""

from __future__ import annotations

from sqlalchemy import select

from core.agent.proposals import apply
from core.db.models import WriteProposal
from core.knowledge import WHOLE_CHARS, knowledge_for
from core.services import Services
from tests.agent.conftest import Model, run

SMALL = "## 交货期\n\n- 推拉门标准交货期 4 周\n\n## 保修\n\n- 铝框保修 10 年\n"


def _large() -> str:
    rows = [
        f"## 型号 {n}\n\n淋浴房型号 {n}：框宽 {20 + n} 毫米，五金配件按目录 {n} 页。\n"
        for n in range(400)
    ]
    text = "## 玻璃\n\n- 双层中空 Low-E 玻璃 double glazing 加价 15%\n\n" + "\n".join(rows)
    assert len(text) > 2 * WHOLE_CHARS
    return text


def _prompt(model: Model) -> str:
    """Everything the first request of the turn sent, one message after the other."""
    return "\n".join(str(m.get("content")) for m in model.server.chat_requests[0].body["messages"])


async def test_the_assistant_prompt_carries_a_small_knowledge_base(
    services: Services, model: Model
) -> None:
    knowledge_for(services.home).save(SMALL)
    await run(model, answer="标准交货期是 4 周。")
    prompt = _prompt(model)
    assert "<knowledge>\n## 交货期\n\n- 推拉门标准交货期 4 周" in prompt
    assert "铝框保修 10 年" in prompt


async def test_a_large_knowledge_base_is_searched_not_put_in_the_prompt(
    services: Services, model: Model
) -> None:
    knowledge_for(services.home).save(_large())
    reply = await run(
        model,
        ("search_knowledge", {"query": "double glazing price"}),
        ("search_knowledge", {"query": "fly screens for bifolds"}),
    )
    prompt = _prompt(model)
    assert "淋浴房型号 399" not in prompt and "search_knowledge" in prompt
    found, missing = (c.result for c in reply.tool_calls)
    assert found.startswith("KNOWLEDGE (the matching parts")
    assert "双层中空 Low-E 玻璃 double glazing 加价 15%" in found
    assert "淋浴房型号 399" not in found
    assert missing.startswith("NO_MATCH")


async def test_an_addition_is_only_written_when_the_owner_confirms(
    services: Services, model: Model
) -> None:
    base = knowledge_for(services.home)
    base.save(SMALL)
    reply = await run(
        model,
        ("propose_knowledge", {"section": "lead_times", "text": "铝窗标准交货期 3 周"}),
        ("propose_knowledge", {"section": "lead_times", "text": "推拉门标准交货期 4 周"}),
        text="我们铝窗标准交货期 3 周",
        answer="要把「铝窗标准交货期 3 周」记进知识库吗？",
    )
    proposed, known = (c.result for c in reply.tool_calls)
    assert proposed.startswith("KNOWLEDGE_PROPOSED id=") and "NOT SAVED" in proposed
    assert known.startswith("ALREADY_KNOWN")
    assert "铝窗" not in base.text()  # nothing written yet
    with services.store.session() as s:
        row = s.scalars(select(WriteProposal)).one()
        assert (row.kind, row.inquiry_id, row.status) == ("knowledge", None, "open")
        assert row.summary_zh == "把「铝窗标准交货期 3 周」记进知识库（交货期）"
        assert row.owner_words == "我们铝窗标准交货期 3 周"
    assert reply.proposal_ids == [row.id]  # the front ends offer 确认 / 放弃 for it

    item = await apply(services, row.id, confirm=True, actor="owner")
    assert item.status == "confirmed" and "交货期" in item.result
    assert "- 推拉门标准交货期 4 周\n- 铝窗标准交货期 3 周\n" in base.text()


async def test_a_dropped_addition_writes_nothing(services: Services, model: Model) -> None:
    reply = await run(
        model, ("propose_knowledge", {"section": "warranty", "text": "五金保修 2 年"})
    )
    item = await apply(services, reply.proposal_ids[0], confirm=False, actor="owner")
    assert item.status == "dropped"
    assert knowledge_for(services.home).text() == ""
