"""The owner's 知识库 shapes drafts and counts as his word for the fact guard.

A draft the loopback model writes with "4 weeks" is the owner's lead time when his knowledge
file says so, and an unconfirmed value (as before) when it does not; the drafting prompt carries
the file whole while it is small and only the parts matching the mail when it is large.
"""

from __future__ import annotations

import os
import stat

from core.knowledge import WHOLE_CHARS, knowledge_for
from tests.drafts.support import add_inquiry
from tests.support.llm_server import last_user_text

LEAD_TIMES = "## 交货期\n\n- 推拉门标准交货期 4 周（不含安装）\n\n## 保修\n\n- 铝框保修 10 年\n"


def write_knowledge(services, text: str) -> None:  # type: ignore[no-untyped-def]
    knowledge_for(services.home).save(text)


def _knowledge_block(request: dict) -> str:
    text = last_user_text(request)
    return text.split("<knowledge>", 1)[1].split("</knowledge>", 1)[0]


async def test_a_lead_time_in_the_knowledge_base_is_his_word(services, drafting, model):
    write_knowledge(services, LEAD_TIMES)
    inquiry_id, _ = add_inquiry(services)
    model.plant = ["The standard lead time is 4 weeks, and frames carry a 10 year warranty."]

    draft_id = await drafting.composer.compose(inquiry_id, "报价15000含GST", actor="owner")

    assert (await drafting.reader.get(draft_id)).unconfirmed_facts == []


async def test_the_same_lead_time_without_the_knowledge_base_is_flagged(services, drafting, model):
    write_knowledge(services, "## 交货期\n\n- 推拉门标准交货期 6 周\n")
    inquiry_id, _ = add_inquiry(services)
    model.plant = ["The standard lead time is 4 weeks."]

    draft_id = await drafting.composer.compose(inquiry_id, "报价15000含GST", actor="owner")

    assert (await drafting.reader.get(draft_id)).unconfirmed_facts == ["4 weeks"]


async def test_no_knowledge_file_flags_the_lead_time_as_before(
    services, drafting, model, llm_server
):
    inquiry_id, _ = add_inquiry(services)
    model.plant = ["The standard lead time is 4 weeks."]
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000含GST", actor="owner")
    assert (await drafting.reader.get(draft_id)).unconfirmed_facts == ["4 weeks"]
    block = _knowledge_block(llm_server.last_drafting().body)
    assert "not written his knowledge base" in block


async def test_the_drafting_prompt_carries_a_small_knowledge_file_whole(
    services, drafting, llm_server
):
    write_knowledge(services, LEAD_TIMES + "\n## 玻璃\n\n- 双层中空玻璃 Low-E 可选\n")
    inquiry_id, _ = add_inquiry(services)

    draft_id = await drafting.composer.compose(inquiry_id, "报价15000含GST", actor="owner")

    block = _knowledge_block(llm_server.last_drafting().body)
    assert "推拉门标准交货期 4 周" in block
    assert "铝框保修 10 年" in block
    assert "双层中空玻璃 Low-E 可选" in block
    await drafting.composer.revise(draft_id, "更正式一点", actor="owner")
    assert "推拉门标准交货期 4 周" in _knowledge_block(llm_server.last_drafting().body)


def _large_knowledge() -> str:
    """A catalogue far over the whole-file budget; one section answers a sliding-door mail."""
    parts = ["## 交货期\n\n- 推拉门 sliding door 标准交货期 4 周\n- 百叶窗交货期 9 周\n"]
    for n in range(300):
        parts.append(
            f"## 型号 {n}\n\n淋浴房 shower screen 型号 {n}：框宽 {20 + n} 毫米，"
            f"颜色 {n % 7} 种，五金配件按目录 {n} 页。\n"
        )
    text = "\n".join(parts)
    assert len(text) > 2 * WHOLE_CHARS
    return text


async def test_a_large_knowledge_file_is_searched_not_sent_whole(services, drafting, llm_server):
    write_knowledge(services, _large_knowledge())
    inquiry_id, _ = add_inquiry(
        services, body="Hi, how long is the lead time for a sliding door 2400 x 2100 in Ryde?"
    )

    await drafting.composer.compose(inquiry_id, "回答交货期", actor="owner")

    block = _knowledge_block(llm_server.last_drafting().body)
    assert "推拉门 sliding door 标准交货期 4 周" in block
    assert len(block) < WHOLE_CHARS
    assert "型号 297" not in block  # the unrelated catalogue stayed out


async def test_a_value_only_in_the_unsent_part_of_a_large_file_is_still_his_word(
    services, drafting, model
):
    write_knowledge(services, _large_knowledge())
    inquiry_id, _ = add_inquiry(services)
    model.plant = ["Louvre windows take 9 weeks."]
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000含GST", actor="owner")
    assert (await drafting.reader.get(draft_id)).unconfirmed_facts == []


def test_the_knowledge_file_is_owner_only_and_replaced_whole(services):
    base = knowledge_for(services.home)
    assert base.load().text == ""  # nothing invented: no file until he writes
    first = base.save("## 交货期\n\n- 标准交货期 4 周\n")
    assert base.path.read_text(encoding="utf-8") == "## 交货期\n\n- 标准交货期 4 周\n"
    if os.name == "posix":
        assert stat.S_IMODE(base.path.stat().st_mode) == 0o600
    base.add("lead_times", "加急 2 周，另收费")
    assert "- 标准交货期 4 周\n- 加急 2 周，另收费" in base.text()
    try:
        base.save("stale", first.version)  # edited from the text before the addition
    except Exception as exc:
        assert "重新载入" in str(exc)
    else:
        raise AssertionError("a stale save must be refused")
    assert "加急 2 周" in base.text()
    assert not [p.name for p in base.path.parent.iterdir() if p.name.startswith(".knowledge.md-")]


def test_an_english_question_finds_his_chinese_section() -> None:
    """A customer asks in English; the owner filed the answer in Chinese under 保修."""
    from core.knowledge import excerpt

    text = _large_knowledge() + "\n## 保修\n\n- 铝框保修 10 年，五金 2 年\n"
    got = excerpt(text, "What warranty do you give on the frames?")
    assert not got.whole and "铝框保修 10 年，五金 2 年" in got.text
    assert "推拉门" not in got.text and "型号 5" not in got.text
