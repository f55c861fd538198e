"""Payment details as whole values: where a customer is told to send his money.

Payment-redirection mail is the costliest email fraud against small businesses: a stranger's
mail (or a model obeying it) slips "deposit to BSB 062-999, account 1234 5678" into a reply that
looks like the owner's. So the fact guard reads a payment detail as *one* value — a BSB, an
account number, a PayID, a card number, an IBAN, a SWIFT/BIC code, a payment reference, a pay
link — never as digit fragments that a customer's phone number happens to contain ("345 678"
of 0412 345 678 backs nothing here). And only the owner's own words can back one: a customer
can tell us his phone, never where our bank account is (``core.drafts.factguard`` applies that).

``payment_spans`` lists ``(start, end, key)``; keys are ``pay:<kind>:<normalised value>``, so
"BSB 062-999" and "BSB: 062999" are one value. A link is a pay link when the link itself or the
words just before it speak of paying (``is_pay_link``).
"""

from __future__ import annotations

import re

__all__ = ["PAYMENT_KINDS", "is_pay_link", "payment_spans"]

PAYMENT_KINDS = frozenset({"payment", "paylink"})

_SEP = r"[\s:：#.=-]*"
_DIGITS = r"(\d(?:[ -]?\d){%d,%d})"
_LABELLED: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "bsb",
        re.compile(
            rf"\bB\.?S\.?B(?![A-Za-z])\.?(?:\s*(?:number|no\.?|号))?{_SEP}(\d{{3}}[ .-]?\d{{3}})(?!\d)",
            re.I,
        ),
    ),
    (
        "acct",
        re.compile(
            r"(?:\baccount(?:\s*(?:number|no\.?|#))?|\bacct\.?|\bacc\b\.?(?:\s*(?:number|no\.?|#))?"
            r"|\ba/c(?:\s*(?:number|no\.?|#))?|账号|帐号|账户|帐户|户号)"
            rf"{_SEP}" + _DIGITS % (4, 17) + r"(?!\d)",
            re.I,
        ),
    ),
    ("payid", re.compile(rf"\bPay\s?ID{_SEP}([^\s,;，。；]+[^\s,;，。；.])", re.I)),
    (
        "swift",
        re.compile(
            rf"\b(?:SWIFT|BIC)(?:\s*(?:code|代码))?{_SEP}([A-Z]{{6}}[A-Z0-9]{{2}}(?:[A-Z0-9]{{3}})?)\b",
            re.I,
        ),
    ),
    (
        "ref",
        re.compile(
            r"(?:\b(?:payment\s+)?ref(?:erence)?\b(?:\s*(?:number|no\.?|#))?"
            r"|\binvoice\s*(?:number|no\.?|#)|参考号|付款备注|发票号)"
            rf"{_SEP}([A-Z0-9][A-Z0-9-]*\d[A-Z0-9-]*)",
            re.I,
        ),
    ),
)
_IBAN = re.compile(r"\b([A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,4})?)\b")
_CARD = re.compile(r"(?<![\d-])(\d(?:[ -]?\d){12,18})(?![\d-])")
_PAY_WORDS = re.compile(
    r"pay|invoice|checkout|billing|deposit|transfer|remit|付款|支付|定金|订金|转账|汇款|收款", re.I
)


def _norm(value: str) -> str:
    return re.sub(r"[\s.-]", "", value).lower()


def _luhn(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def payment_spans(
    text: str, links: list[tuple[int, int]] | None = None
) -> list[tuple[int, int, str]]:
    """Every payment detail in ``text``: (start, end, key), labelled kinds first.

    ``links``: spans of the links in ``text``. A value inside a link is part of that link
    (``pay.example/inv?ref=7781`` is one pay link, not a link and a reference), so it is left
    for the link to carry."""
    found: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = list(links or [])

    def add(start: int, end: int, key: str) -> None:
        if any(s < end and start < e for s, e in taken):
            return
        taken.append((start, end))
        found.append((start, end, key))

    for kind, pattern in _LABELLED:
        for m in pattern.finditer(text):
            add(m.start(1), m.end(1), f"pay:{kind}:{_norm(m.group(1))}")
    for m in _IBAN.finditer(text):
        add(m.start(1), m.end(1), f"pay:iban:{_norm(m.group(1))}")
    for m in _CARD.finditer(text):
        digits = _norm(m.group(1))
        if 13 <= len(digits) <= 19 and _luhn(digits):
            add(m.start(1), m.end(1), f"pay:card:{digits}")
    return sorted(found)


def is_pay_link(text: str, start: int, end: int) -> bool:
    """A link that takes money: its own words say so, or the few words before it do."""
    return bool(
        _PAY_WORDS.search(text[start:end]) or _PAY_WORDS.search(text[max(0, start - 40) : start])
    )
