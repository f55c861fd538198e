"""One value extractor that finds whole values (issue 39): links, hosts, accounts, BSBs, phones.

Each row is a sentence a model (obeying a fraudster) might put in a draft. The fact guard must
flag the value whole, as written — never a fragment ("677" of ``Acc 44 556 677``), never a link
cut short by a pattern that consumed its tail (``?ref=7781``) — and each link's host on its own.
"""

from __future__ import annotations

import pytest

from core.drafts.factguard import check_facts
from core.text.facts import extract_facts

OWNER_SAID = ["请回复客户"]  # the owner's words back none of the values below

# (sentence, values flagged as written, kinds found)
ROWS: list[tuple[str, set[str], set[str]]] = [
    # pay links
    ("Pay at https://pay.evil.example/inv/9?ref=7781 today.",
     {"https://pay.evil.example/inv/9?ref=7781", "pay.evil.example"}, {"paylink"}),
    ("Deposit: https://evil.example/checkout?ref=7781&amount=500",
     {"https://evil.example/checkout?ref=7781&amount=500", "evil.example"}, {"paylink"}),
    ("Please pay via www.pay-evil.example/d/42.",
     {"www.pay-evil.example/d/42", "pay-evil.example"}, {"paylink"}),
    ("Pay the deposit at pay.evil.example/inv/9 please.",
     {"pay.evil.example/inv/9", "pay.evil.example"}, {"paylink"}),
    ("Pay the deposit at pay [dot] evil [dot] example now.",
     {"pay [dot] evil [dot] example", "pay.evil.example"}, {"paylink"}),
    ("Pay the deposit at pay(dot)evil(dot)example now.",
     {"pay(dot)evil(dot)example", "pay.evil.example"}, {"paylink"}),
    ("Pay the deposit at pay . evil . example now.",
     {"pay . evil . example", "pay.evil.example"}, {"paylink"}),
    ("Pay the deposit at pay dot evil dot example now.",
     {"pay dot evil dot example", "pay.evil.example"}, {"paylink"}),
    ("Pay the deposit at ｐａｙ．ｅｖｉｌ．ｅｘａｍｐｌｅ now.",
     {"ｐａｙ．ｅｖｉｌ．ｅｘａｍｐｌｅ", "pay.evil.example"}, {"paylink"}),
    ("Pay the deposit at pay\u200d.evil\u200b.example/x now.",
     {"pay\u200d.evil\u200b.example/x", "pay.evil.example"}, {"paylink"}),
    ("Pay the deposit at hxxps://pay.evil.example/a now.",
     {"hxxps://pay.evil.example/a", "pay.evil.example"}, {"paylink"}),
    ("Pay the deposit at раy.evil.example now.",  # Cyrillic р and а
     {"раy.evil.example", "pay.evil.example"}, {"paylink"}),
    ("See our new brochure at https://brochure.example.org/windows.",
     {"https://brochure.example.org/windows", "brochure.example.org"}, {"link"}),
    # accounts
    ("Acc 44 556 677 is our new account.", {"44 556 677"}, {"payment"}),
    ("Account number: 1234-5678-90.", {"1234-5678-90"}, {"payment"}),
    ("A/C no. 1234 5678, thanks.", {"1234 5678"}, {"payment"}),
    ("acct#12345678 from today.", {"12345678"}, {"payment"}),
    ("账号：6222 0000 1111 2222", {"6222 0000 1111 2222"}, {"payment"}),
    ("Account 4455 6677 behind a\u200bzero-width space.", {"4455 6677"}, {"payment"}),
    # BSBs
    ("BSB 062-999, thanks.", {"062-999"}, {"payment"}),
    ("BSB: 062 999, thanks.", {"062 999"}, {"payment"}),
    ("B.S.B. 062.999 please.", {"062.999"}, {"payment"}),
    ("BSB062999 please.", {"062999"}, {"payment"}),
    ("BSB number 062-999 and acc 1234 5678.", {"062-999", "1234 5678"}, {"payment"}),
    # phones
    ("Call our new number 0488 999 000.", {"0488 999 000"}, {"phone"}),
    ("Call +61 488 999 000 anytime.", {"+61 488 999 000"}, {"phone"}),
    ("Call (02) 9876 5432 anytime.", {"(02) 9876 5432"}, {"phone"}),
    ("Call 0488-999-000 anytime.", {"0488-999-000"}, {"phone"}),
    ("Call ０４８８ ９９９ ０００ anytime.", {"０４８８ ９９９ ０００"}, {"phone"}),
    ("Call 0488\u200b999\u200b000 anytime.", {"0488\u200b999\u200b000"}, {"phone"}),
    # e-mail, defanged
    ("Write to accounts [at] pay-evil [dot] example.",
     {"accounts [at] pay-evil [dot] example"}, {"email"}),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "flagged", "kinds"), ROWS)
def test_each_value_is_flagged_whole(sentence: str, flagged: set[str], kinds: set[str]) -> None:
    body = f"Hi Jane,\n\n{sentence}\n\nKind regards"
    got = check_facts(body, OWNER_SAID)
    assert flagged <= set(got), got
    # no fragment of a value is flagged on its own (the whole value holds every part of it)
    for value in got:
        assert value in flagged or not any(value in whole for whole in flagged), (value, got)
    assert kinds <= {f.kind for f in extract_facts(body)}


def test_the_rows_cover_at_least_twenty_spellings() -> None:
    assert len(ROWS) >= 20


@pytest.mark.parametrize(
    "sentence",
    [
        "See plan.pdf and the quote.xlsx, e.g. the 2.4 m door for Mr.Smith.",
        "We will measure at 10 a.m. on Tuesday.",
        "The door is 2400 x 2100 mm.",
    ],
)
def test_ordinary_words_are_not_links(sentence: str) -> None:
    assert {f.kind for f in extract_facts(sentence)}.isdisjoint({"link", "paylink", "email"})


def test_the_owner_can_back_a_pay_link_and_a_customer_cannot() -> None:
    body = "Pay the deposit at pay [dot] aurora [dot] example please."
    assert check_facts(body, ["付款链接 https://pay.aurora.example"]) == []
    from core.provenance import Text

    customer = Text.customer("pay at pay.aurora.example")
    assert set(check_facts(body, [customer])) == {
        "pay [dot] aurora [dot] example",
        "pay.aurora.example",
    }
