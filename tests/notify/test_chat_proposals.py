"""A change the assistant only proposed, on Telegram: what it would do, and one press to decide.

The owner asks about a customer; the model reads the inquiry and then, unasked, wants to mark the
job lost. His words did not ask for that, so nothing moves: his chat gets the answer and then one
message saying what would change, with ✅ 确认 / 🗑 放弃. 确认 makes the change as his act (a
stage event triggered by ``owner``); a stranger's press does nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select

from core.db.models import Inquiry, StageEvent, WriteProposal
from tests.notify.conftest import OWNER, STRANGER, add_inquiry
from tests.notify.test_chat import once
from tests.support.llm_server import LLMServer, sequence
from tests.support.telegram_server import TelegramServer


@pytest.fixture
def inquiry(services: Any) -> int:
    return add_inquiry(services)


@pytest.fixture
def llm(services: Any, inquiry: int) -> Iterator[LLMServer]:
    steps = sequence(
        [
            [{"name": "get_inquiry", "arguments": {"inquiry_id": inquiry}}],
            [{"name": "change_stage",
              "arguments": {"inquiry_id": inquiry, "to_stage": "lost", "reason": "mail said"}}],
            "我看过了。",
        ]
    )  # fmt: skip
    with LLMServer(steps) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        yield server


def _stage(services: Any, inquiry_id: int) -> str:
    with services.store.session() as session:
        row: Inquiry | None = session.get(Inquiry, inquiry_id)
        assert row is not None
        return row.stage


async def test_a_proposed_change_waits_for_his_press_on_telegram(
    services: Any, owner_env: TelegramServer, llm: LLMServer, app: Any, inquiry: int
) -> None:
    owner_env.push_message(OWNER, "帮我看看这个询盘")
    await once(services, app)
    sent = owner_env.sent_to(OWNER)
    offer = next(m for m in sent if "助手建议" in m.text)
    assert "流失" in offer.visible and _stage(services, inquiry) == "inquiry"
    labels = [b["text"] for b in offer.buttons()]
    assert labels == ["✅ 确认", "🗑 放弃"]

    owner_env.press(offer, "确认", user_id=STRANGER)  # not his: nothing happens
    await once(services, app)
    assert _stage(services, inquiry) == "inquiry"

    owner_env.press(offer, "确认")
    await once(services, app)
    assert _stage(services, inquiry) == "lost"
    with services.store.session() as session:
        (move,) = session.scalars(select(StageEvent).where(StageEvent.to_stage == "lost")).all()
        (proposal,) = session.scalars(select(WriteProposal)).all()
    assert move.triggered_by == "owner"
    assert proposal.status == "confirmed" and proposal.decided_by == "telegram"
    assert any("已确认并执行" in m.visible for m in owner_env.sent_to(OWNER))


async def test_an_obedient_models_draft_needs_the_second_press_on_telegram(
    services: Any, center: Any, owner_env: TelegramServer, app: Any, inquiry: int
) -> None:
    """The customer's mail tells the assistant to send new bank details; the model obeys. On the
    phone the draft's 发送 shows the planted values and sends nothing; nothing else changed."""
    from datetime import timedelta

    from tests.agent.conftest import add_mail
    from tests.support.obedient_llm import ACCOUNT, BSB, ObedientModel
    from tests.truth.test_obedient_model import PLANTED_MAIL

    add_mail(
        services,
        inquiry,
        subject="Sliding door",
        body=PLANTED_MAIL.replace("CSV_PATH", "/nowhere.csv"),
        at=services.clock.now() - timedelta(hours=1),
        sender="john@example.com",
    )
    with LLMServer(ObedientModel()) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        owner_env.push_message(OWNER, "帮我看看这个询盘")
        await once(services, app)
        card = next(m for m in owner_env.sent_to(OWNER) if m.draft_buttons())
        owner_env.press(card, "发送")
        await once(services, app)
    warning = owner_env.sent_to(OWNER)[-1]
    assert "未经确认" in warning.visible and BSB in warning.visible and ACCOUNT in warning.visible
    with services.store.session() as session:
        from core.db.models import Draft

        (draft,) = session.scalars(select(Draft)).all()
        assert draft.status == "pending_approval"
        assert session.scalars(select(StageEvent).where(StageEvent.to_stage == "lost")).all() == []
    assert _stage(services, inquiry) == "inquiry"
    offers = [m for m in owner_env.sent_to(OWNER) if "助手建议" in m.text]
    assert len(offers) == 3  # the note, the stage and the folder wait for his press


async def test_an_addition_to_his_knowledge_base_is_one_press_on_telegram(
    services: Any, owner_env: TelegramServer, app: Any
) -> None:
    """He tells the assistant his standard lead time on the phone; it asks to record it, and the
    line is in his 知识库 only after his ✅ 确认."""
    from core.knowledge import knowledge_for

    steps = sequence(
        [
            [{"name": "propose_knowledge",
              "arguments": {"section": "lead_times", "text": "标准交货期 4 周"}}],
            "要把「标准交货期 4 周」记进知识库吗？",
        ]
    )  # fmt: skip
    with LLMServer(steps) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        owner_env.push_message(OWNER, "我们标准交货期 4 周")
        await once(services, app)
    offer = next(m for m in owner_env.sent_to(OWNER) if "助手建议" in m.text)
    assert "把「标准交货期 4 周」记进知识库（交货期）" in offer.visible
    assert "只有您确认后才会写入" in offer.visible and "读过客户邮件" not in offer.visible
    assert knowledge_for(services.home).text() == ""

    owner_env.press(offer, "确认")
    await once(services, app)
    assert knowledge_for(services.home).text() == "## 交货期\n\n- 标准交货期 4 周\n"
    assert any("已记进知识库" in m.visible for m in owner_env.sent_to(OWNER))
