"""A draft to a complaining customer always carries the flag: in the tool's result and in the
answer the owner reads, even when the model's own answer leaves it out."""

from __future__ import annotations

import json

from core.agent.escalation_flag import drafted_ids
from core.db.models import AppState
from core.events import NeedsAttention
from core.rhythm import attention
from core.services import Services
from tests.agent.conftest import Model, add_customer, run

REASON = "要求退款或赔偿：“money back”"
FLAG = f"⚠ 该客户在投诉：{REASON}，请先看一下再批准"


def _complaint(services: Services, inquiry_id: int) -> str:
    now = services.clock.now()
    event = NeedsAttention("complaint", "inquiry", inquiry_id, REASON)
    key = services.store.write(lambda s: attention.record(s, event, now))
    assert key is not None
    return key


async def test_the_answer_shows_the_flag_the_model_left_out(
    services: Services, model: Model
) -> None:
    cathy = add_customer(services, "Cathy Wu", email="cathy@example.com")
    _complaint(services, cathy)
    reply = await run(
        model,
        ("draft_reply", {"inquiry_id": cathy, "instruction": "跟她说我们下周来看"}),
        answer="已为 Cathy Wu 起草回复，等待您审批。",  # no word of the complaint
    )
    result = json.loads(reply.tool_calls[0].result)
    assert result["escalation"] == FLAG
    assert reply.raw_text == "已为 Cathy Wu 起草回复，等待您审批。"
    assert reply.text.startswith(FLAG) and reply.text.count(FLAG) == 1  # first: read first


async def test_a_revised_draft_shows_the_flag_too(services: Services, model: Model) -> None:
    cathy = add_customer(services, "Cathy Wu", email="cathy@example.com")
    first = await run(model, ("draft_reply", {"inquiry_id": cathy, "instruction": "报价 $800"}))
    assert "该客户在投诉" not in first.text  # no complaint yet
    _complaint(services, cathy)  # her angry mail arrives
    draft_id = json.loads(first.tool_calls[0].result)["draft_id"]
    reply = await run(
        model,
        ("revise_draft", {"draft_id": draft_id, "instruction": "改成 $750"}),
        text="改一下，改成 $750",
        answer="已改好，新草稿等待您审批。",
    )
    assert json.loads(reply.tool_calls[0].result)["escalation"] == FLAG
    assert reply.text.startswith(FLAG)


async def test_an_answer_that_already_says_it_is_not_doubled(
    services: Services, model: Model
) -> None:
    cathy = add_customer(services, "Cathy Wu", email="cathy@example.com")
    _complaint(services, cathy)
    reply = await run(
        model,
        ("draft_reply", {"inquiry_id": cathy, "instruction": "道歉"}),
        answer=f"草稿已写好，等待您审批。\n{FLAG}",
    )
    assert reply.text.count(FLAG) == 1


async def test_a_calm_customer_or_a_handled_complaint_has_no_flag(
    services: Services, model: Model
) -> None:
    jane = add_customer(services, "Jane Citizen", email="jane@example.com")
    dan = add_customer(services, "Dan Moss", email="dan@example.com")
    key = _complaint(services, dan)
    now = services.clock.now()
    services.store.write(lambda s: attention.resolve(s, key, "dismissed", now))
    for inquiry in (jane, dan):
        reply = await run(model, ("draft_reply", {"inquiry_id": inquiry, "instruction": "报价"}))
        assert "escalation" not in json.loads(reply.tool_calls[0].result)
        assert "该客户在投诉" not in reply.text
    with services.store.session() as s:
        state = s.get(AppState, key)
        assert state is not None and state.value["status"] == "dismissed"


async def test_a_long_answer_cut_for_telegram_keeps_the_flag(
    services: Services, model: Model
) -> None:
    from core.agent.caps import telegram_summary

    cathy = add_customer(services, "Cathy Wu", email="cathy@example.com")
    _complaint(services, cathy)
    reply = await run(
        model,
        ("draft_reply", {"inquiry_id": cathy, "instruction": "道歉"}),
        answer="草稿等待您审批。" + "这是很长的说明。" * 400,
    )
    assert FLAG in telegram_summary(reply.text)


def test_draft_ids_are_read_from_every_result_shape() -> None:
    single = json.dumps({"draft_id": 7, "status": "DRAFT_PENDING_APPROVAL — NOT SENT"})
    batch = 'BATCH b1: 2 DRAFTS\n{"rows": [{"draft_id": 3}, {"draft_id": 7}, {"draft_id": null}]}'
    assert drafted_ids([single, batch, "ERROR: no inquiry"]) == [7, 3]
