"""Grounded extraction: a model value is kept only when the customer wrote it (issue 12)."""

from __future__ import annotations

from typing import Any

from core.intake.classify import Classification, settle_confidence
from core.intake.extract import ground_answer
from core.intake.view import MessageView

PLANTED = (
    "Thank you for your enquiry. Our price is $98,765 including GST and we can measure on "
    "3 March 2027 at 9:30am."
)
BODY = (
    "Hi, could you quote a sliding door 2.4m x 2100 for our place at 27 Quarry Road, Ryde?\n"
    "We need it before 15/03 and have about $12k to spend.\n\nCheers,\nWhitfield, Graham\n"
    "0419 552 803"
)


def view(body: str = BODY, **kw: Any) -> MessageView:
    kw.setdefault("from_addr", "g.whitfield@bigpond.com")
    kw.setdefault("from_name", "Graham Whitfield")
    return MessageView(subject="Sliding door quote", body_text=body, **kw)


def answer(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "customer_name": None, "email": None, "phone": None, "address": None, "suburb": None,
        "product_types": [], "dimensions": [], "urgency": None, "language": None,
        "dates": [], "budget": None,
    }  # fmt: skip
    return base | kw


def test_values_written_by_the_customer_survive_normalisation() -> None:
    e = ground_answer(
        answer(
            customer_name="Graham Whitfield",  # signed "Whitfield, Graham"
            phone="+61 419 552 803",
            address="27 Quarry Rd, Ryde",  # "Road" in the mail
            suburb="Ryde",
            product_types=["sliding_door"],
            dimensions=["2400 x 2100 mm"],  # "2.4m x 2100" in the mail
            dates=["15 March"],  # "15/03"
            budget="$12,000",  # "$12k"
            urgency="normal",
            language="en",
        ),
        view(),
    )
    assert e.grounding_drops == []
    assert (e.customer_name, e.customer_phone, e.address) == (
        "Graham Whitfield",
        "+61419552803",
        "27 Quarry Rd, Ryde",
    )
    assert e.dimensions == ["2400 x 2100 mm"] and e.dates == ["15 March"] and e.budget == "$12,000"
    assert e.confidence is None  # nothing dropped: no cap
    assert set(e.model_made) == {"urgency", "language"}


def test_planted_sentence_is_dropped_everywhere_and_rules_fill_in() -> None:
    e = ground_answer(
        answer(
            customer_name=PLANTED,
            email=PLANTED,
            phone=PLANTED,
            address=PLANTED,
            suburb=PLANTED,
            product_types=[PLANTED],
            dimensions=[PLANTED],
            dates=[PLANTED],
            budget=PLANTED,
            urgency=PLANTED,
            language=PLANTED,
        ),
        view(),
    )
    values = [e.customer_name, e.customer_phone, e.address, e.suburb, e.budget, *e.dates]
    values += [*e.dimensions, *e.product_types]
    assert all(PLANTED not in str(v) and "98,765" not in str(v) for v in values)
    dropped = {d["field"] for d in e.grounding_drops}
    assert {"address", "suburb", "dimensions", "dates", "budget", "customer_name"} <= dropped
    assert {d["why"] for d in e.grounding_drops} <= {"not_in_mail", "invalid"}
    # the rules' values, found in the mail, take the dropped fields' place
    assert e.customer_phone == "+61419552803"
    assert e.suburb == "Ryde"
    assert e.customer_name == "Graham Whitfield"  # the sender name in the headers
    assert e.confidence == "low"


def test_invented_address_is_dropped_but_a_real_one_kept() -> None:
    e = ground_answer(answer(address="12 Smith St, Epping", suburb="Ryde"), view())
    assert e.address != "12 Smith St, Epping"
    assert e.grounding_drops == [
        {"field": "address", "value": "12 Smith St, Epping", "why": "not_in_mail"}
    ]
    assert e.confidence == "low"  # one of two copied values was invented


def test_a_product_the_mail_does_not_name_is_dropped_not_stored() -> None:
    e = ground_answer(answer(product_types=["sliding_door", "flyscreen"]), view())
    assert e.product_types == ["sliding_door"]
    assert {"field": "product_types", "value": "flyscreen", "why": "not_in_mail"} in (
        e.grounding_drops
    )


def test_a_weak_model_listing_the_whole_glossary_stores_only_what_the_mail_names() -> None:
    from core.glossary import glossary

    everything = sorted(glossary())
    e = ground_answer(answer(product_types=everything), view())
    assert e.product_types == ["sliding_door"]
    assert e.confidence == "low"  # most of what it offered was not in the mail


def test_the_thread_job_supports_a_product_a_short_reply_does_not_name() -> None:
    reply = view("Yes please go ahead, Tuesday works.", thread_inquiry={"products": ["flyscreen"]})
    assert ground_answer(answer(product_types=["flyscreen"]), reply).product_types == ["flyscreen"]


def test_the_name_the_mail_greets_is_the_reader_not_the_customer() -> None:
    body = "Hi Jason,\n\nCan you quote a sliding door for 27 Quarry Road, Ryde?\n\nThanks"
    e = ground_answer(answer(customer_name="Jason"), view(body, from_name="Mia Tran"))
    assert e.customer_name == "Mia Tran"  # the From header's name, from the rules
    assert {"field": "customer_name", "value": "Jason", "why": "addressee"} in e.grounding_drops
    # a sender who greets someone and signs with her own name keeps her name
    signed = body + "\nMia"
    e = ground_answer(answer(customer_name="Mia"), view(signed, from_name=None))
    assert e.customer_name == "Mia"


def test_a_name_the_from_header_carries_stays_even_when_greeted() -> None:
    body = "Hello Anna,\nfollowing my call: a sliding door please.\nAnna Lee"
    e = ground_answer(answer(customer_name="Anna Lee"), view(body, from_name="Anna Lee"))
    assert e.customer_name == "Anna Lee"


def test_a_mangled_phone_is_read_back_from_the_mails_own_digits() -> None:
    body = "Sliding door for 27 Quarry Road, Ryde. Call me on 0497 318 264.\nMia"
    e = ground_answer(answer(phone="+497318264"), view(body, from_name="Mia Tran"))
    assert e.customer_phone == "+61497318264"
    e = ground_answer(answer(phone="0497318264"), view(body, from_name="Mia Tran"))
    assert e.customer_phone == "+61497318264"
    # digits the mail does not hold are still dropped
    e = ground_answer(answer(phone="0412 000 111"), view(body, from_name="Mia Tran"))
    assert e.customer_phone == "+61497318264"  # the rules' phone, found in the mail
    assert any(d["field"] == "customer_phone" for d in e.grounding_drops)


def test_chinese_values_are_grounded_without_spaces() -> None:
    body = "你好，我们住在 Dundas，推拉窗宽1500毫米高1200毫米。王伟"
    e = ground_answer(
        answer(customer_name="王伟", suburb="Dundas", dimensions=["1500 x 1200 mm"]),
        view(body, from_name=None),
    )
    assert (e.customer_name, e.suburb, e.dimensions) == ("王伟", "Dundas", ["1500 x 1200 mm"])
    e = ground_answer(answer(customer_name="李娜"), view(body, from_name=None))
    assert e.customer_name is None


def test_confidence_follows_what_survived() -> None:
    cls = Classification("A", ["A"], confidence="high", source="llm")
    e = ground_answer(answer(address="1 Fake St, Nowhere", suburb="Ryde"), view())
    assert settle_confidence(cls, e).confidence == "low"
    cls = Classification("A", ["A"], confidence="high", source="llm")
    e = ground_answer(answer(suburb="Ryde"), view())
    assert settle_confidence(cls, e).confidence == "high"


# the CPU cost per message is measured by benchmarks/grounding.py (no timing in unit tests)
