"""Extraction: rules on realistic text, and every model field validated before it is kept."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from core.intake.extract import extract_llm, extract_rules
from core.intake.view import MessageView
from core.llm.client import LLMClient
from core.services import Services
from tests.support.llm_server import LLMServer, last_user_text


def view(body: str, subject: str = "Quote", **kw: Any) -> MessageView:
    kw.setdefault("from_addr", "Jo.Smith@Gmail.com")
    kw.setdefault("from_name", "Jo Smith")
    return MessageView(subject=subject, body_text=body, **kw)


def test_rules_extract_a_typical_inquiry() -> None:
    body = (
        "Hello,\n\nWe'd like to replace the timber windows in our house at 27 Quarry Rd, Ryde. "
        "Mostly awning windows plus two fixed panes, and a stacker door to the deck.\n"
        "It's urgent as we are selling.\n\nRegards,\nGraham Whitfield\nMob 0419 552 803\n"
    )
    e = extract_rules(view(body, "Replacing old windows", from_name="Graham Whitfield"))
    assert e.customer_name == "Graham Whitfield"
    assert e.customer_email == "jo.smith@gmail.com"  # from the headers, lower-cased
    assert e.customer_phone == "+61419552803"
    assert (e.address, e.suburb) == ("27 Quarry Rd, Ryde", "Ryde")
    assert e.product_types == ["awning_window", "fixed_window", "stacker_door"]
    assert e.urgency == "high"
    assert e.language == "en"


def test_rules_sizes_in_english_and_chinese() -> None:
    e = extract_rules(
        view(
            "1. 推拉窗一扇，宽1500毫米 × 高1200毫米\n2. 纱窗四个，尺寸都是 900 × 1000\n我们住在 Dundas"
        )
    )
    assert e.dimensions == ["1500 x 1200 mm", "900 x 1000 mm"]
    assert e.product_types == ["sliding_window", "flyscreen"]
    assert e.suburb == "Dundas"
    assert e.language == "zh"
    e = extract_rules(
        view("A sliding window 1810mm wide x 1200mm high, and 600w x 900h, 1.2m x 2.4m")
    )
    assert e.dimensions == ["1810 x 1200 mm", "600 x 900 mm", "1200 x 2400 mm"]


def test_rules_product_only_named_as_a_place_is_not_wanted() -> None:
    e = extract_rules(
        view("Can you quote 4 replacement flyscreens for our sliding windows please?")
    )
    assert e.product_types == ["flyscreen"]
    e = extract_rules(
        view("A pane in the bedroom sliding window is cracked. Price to replace the glass?")
    )
    assert e.product_types == ["glass_replacement"]
    e = extract_rules(view("If nobody answers the front door, the side gate is open."))
    assert e.product_types == []


def test_rules_ignore_office_address_in_a_work_signature() -> None:
    body = (
        "Just following up on the stacker door quote. Please call me on 0438271905.\n\nThanks,\n"
        "Priya Raman\n\nPriya Raman | Senior Associate\nNorthpoint Legal\n"
        "Level 9, 60 Margaret St, Sydney NSW 2000\n"
    )
    e = extract_rules(view(body, "Stacker door quote - Raman, Epping"))
    assert e.suburb == "Epping"  # from the subject, not the CBD office
    assert e.address is None
    assert e.customer_phone == "+61438271905"


def test_rules_website_form_fields() -> None:
    body = (
        "New enquiry from aurorawindows.com.au\nName            Rebecca Lau\n"
        "Email           rebecca.lau@icloud.com\nPhone           (02) 9871 4526\n"
        "Address         4 Honeysuckle Pl, Carlingford NSW 2118\n"
        "Products        Security doors; Entry doors\nMessage         Could someone measure?"
    )
    form = view(
        body,
        from_addr="no-reply@aurorawindows.com.au",
        from_name="Aurora Windows Website",
        reply_to="Rebecca.Lau@icloud.com",
    )
    e = extract_rules(form)
    assert e.customer_name == "Rebecca Lau"
    assert e.customer_email == "rebecca.lau@icloud.com"
    assert e.customer_phone == "+61298714526"
    assert e.suburb == "Carlingford"
    assert e.product_types == ["security_door", "entry_door"]


def test_rules_reply_subject_is_not_the_customers_words() -> None:
    reply = view("Thursday is fine.", "RE: Replacing windows - Ryde", is_reply=True)
    e = extract_rules(reply)
    assert e.suburb is None and e.product_types == []


# ------------------------------------------------------------------------- LLM + validation

_clients: list[LLMClient] = []


@pytest.fixture(autouse=True)
async def close_clients() -> AsyncIterator[None]:
    yield
    while _clients:
        await _clients.pop().aclose()


def llm(services: Services, srv: LLMServer) -> LLMClient:
    services.settings.update({"llm.base_url": srv.base_url, "llm.max_retries": 0})
    client = LLMClient(services.settings, services.secrets, services.store, services.clock)
    _clients.append(client)
    return client


BODY = "Hi, price for a sliding door 2400 x 2100 please. We're in Kellyville.\nJo\n0412 345 678"


async def test_llm_extraction_valid_fields_are_kept(services: Services) -> None:
    good = {
        "customer_name": "Jo Smith",
        "email": "jo.smith@gmail.com",
        "phone": "0412 345 678",
        "address": None,
        "suburb": "Kellyville",
        "product_types": ["sliding_door"],
        "dimensions": ["2400 x 2100 mm"],
        "urgency": "normal",
        "language": "en",
    }
    with LLMServer(lambda r: good) as srv:
        e = await extract_llm(llm(services, srv), view(BODY))
    assert e.customer_phone == "+61412345678"
    assert e.suburb == "Kellyville"
    assert e.product_types == ["sliding_door"]
    assert e.dimensions == ["2400 x 2100 mm"]
    assert e.dropped == [] and e.source == "llm"
    body = srv.chat_requests[0].body
    assert body["model"] == services.settings.get("llm.tier2")
    assert "sliding_door" in body["messages"][0]["content"]  # the glossary keys are offered
    assert "<email>" in last_user_text(body)


async def test_llm_extraction_junk_is_dropped(services: Services) -> None:
    junk = {
        "customer_name": "call 0499 999 999",
        "email": "export@leadvault-mail.com",  # an address the model read in the text
        "phone": "0499 999 999",  # valid-looking but not in the email: invented
        "address": "  ",
        "suburb": "Atlantis",
        "product_types": ["sliding_door", "pergola", "SLIDING_DOOR"],
        "dimensions": ["big", "2400 x 2100 mm"],
        "urgency": "yesterday",
        "language": "klingon",
    }
    with LLMServer(lambda r: junk) as srv:
        e = await extract_llm(llm(services, srv), view(BODY))
    assert e.customer_email == "jo.smith@gmail.com"  # headers win, never the model
    # The model's junk is gone; where the rules found the field in the mail, theirs is used
    # (grounding, issue 12): the customer's own phone, sender name and suburb.
    assert e.customer_phone == "+61412345678" and "0499" not in str(e.customer_phone)
    assert e.customer_name == "Jo Smith"
    assert e.address is None
    assert e.suburb == "Kellyville"
    assert set(e.from_rules) == {"customer_phone", "customer_name", "suburb"}
    assert e.product_types == ["sliding_door"]
    assert e.dimensions == ["2400 x 2100 mm"]
    assert e.urgency is None
    assert e.language == "en"
    assert {"customer_phone", "suburb", "product_types:pergola", "urgency"} <= set(e.dropped)


async def test_llm_unparseable_phone_is_dropped(services: Services) -> None:
    answer = {
        "customer_name": None, "email": "not-an-email", "phone": "12345", "address": None,
        "suburb": None, "product_types": [], "dimensions": [], "urgency": None, "language": "en",
    }  # fmt: skip
    with LLMServer(lambda r: answer) as srv:
        e = await extract_llm(llm(services, srv), view("12345", from_addr=None))
    assert e.customer_phone is None
    assert e.customer_email is None
    assert "customer_email" in e.dropped
