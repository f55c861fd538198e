"""Facts come from people: the fact guard reads the owner's and the customer's words only, checks
links, and compares the Chinese rendering the owner reads with the English that will be sent."""

from __future__ import annotations

import pytest

from core.drafts.drafting import Drafting
from core.drafts.factguard import check_facts
from core.errors import UnconfirmedFactsError
from core.inquiry.edit import InquiryEditor
from tests.drafts.support import DraftingModel, add_inquiry

SIG = "Kind regards,\nAurora Windows & Doors"


def test_a_link_is_a_checkable_value() -> None:
    body = "Hi Jane,\n\nPlease pay the deposit at https://pay.example.com/inv/7.\n\n" + SIG
    # the link and its host are values of their own: a new host is flagged by itself
    assert check_facts(body, ["请发付款链接"]) == [
        "https://pay.example.com/inv/7",
        "pay.example.com",
    ]
    # written differently by the owner: scheme, www and a trailing slash do not matter
    assert check_facts(body, ["付款链接 www.pay.example.com/inv/7/"]) == []
    assert check_facts(body, ["付款链接 pay.example.com/inv/8"]) == [  # a known host, new path
        "https://pay.example.com/inv/7"
    ]


def test_chinese_rendering_must_say_what_the_english_says() -> None:
    en = "Hi Jane, our price is $15,000 including GST. Pay at https://pay.example.com/x.\n" + SIG
    sources = ["报价15000含GST，付款链接 https://pay.example.com/x"]
    faithful = "您好 Jane，我们的报价是15,000澳元含GST。付款链接 https://pay.example.com/x。"
    assert check_facts(en, sources, body_zh=faithful) == []
    # the owner reads 一万四 and no link; the customer would get $15,000 and a link
    unfaithful = "您好 Jane，我们的报价是一万四澳元含GST。"
    flagged = check_facts(en, sources, body_zh=unfaithful)
    assert "$15,000" in flagged and "https://pay.example.com/x" in flagged and "14000" in flagged
    # a value only the Chinese holds is flagged too (he must not approve on a promise he read)
    extra = faithful + "我们3月3日上午9点半上门。"
    assert set(check_facts(en, sources, body_zh=extra)) == {"3月3日", "上午9点半"}
    # what he confirmed stops blocking, in either rendering
    assert check_facts(en, sources, body_zh=extra, confirmed=["3月3日", "上午9点半"]) == []


async def test_model_filled_record_is_not_evidence(  # type: ignore[no-untyped-def]
    services, drafting: Drafting, model: DraftingModel
) -> None:
    # the record says 2400 x 2100 and a phone, but the customer never wrote them
    inquiry_id, _ = add_inquiry(services, body="Hi, could you quote a sliding door for us?")
    model.plant = ["The door will be 2400 x 2100 mm.", "We will call you on 0412 345 678."]
    draft_id = await drafting.composer.compose(inquiry_id, "给报价", actor="owner")
    flagged = (await drafting.reader.get(draft_id)).unconfirmed_facts
    assert "2400 x 2100 mm" in " ".join(flagged) or {"2400", "2100 mm"} <= set(flagged)
    assert "0412 345 678" in flagged
    with pytest.raises(UnconfirmedFactsError):
        await drafting.decisions.approve(draft_id, actor="owner")

    # the owner corrects the size in the record himself: now it is his word
    InquiryEditor(services).update_fields(inquiry_id, {"dimensions": ["2400 x 2000 mm"]})
    model.plant = ["The door will be 2400 x 2000 mm."]
    draft_id = await drafting.composer.compose(inquiry_id, "给报价", actor="owner")
    assert (await drafting.reader.get(draft_id)).unconfirmed_facts == []


async def test_draft_with_only_a_payment_link_cannot_be_approved_in_one_click(  # type: ignore[no-untyped-def]
    services, drafting: Drafting, model: DraftingModel
) -> None:
    inquiry_id, _ = add_inquiry(services)
    model.plant = ["Please pay the deposit at https://pay.evil.example/deposit."]
    draft_id = await drafting.composer.compose(inquiry_id, "回复客户", actor="owner")
    assert (await drafting.reader.get(draft_id)).unconfirmed_facts == [
        "https://pay.evil.example/deposit",
        "pay.evil.example",
    ]
    with pytest.raises(UnconfirmedFactsError):
        await drafting.decisions.approve(draft_id, actor="owner")
    view = await drafting.decisions.approve(draft_id, actor="owner", accept_unconfirmed=True)
    assert view.status == "approved"
