"""The fact guard: code, not the model, decides whether a number in a draft is backed by data.

A model asked to write "报价15000含GST，下周二上门量尺" may helpfully add "$16,500 including GST",
"Tuesday 21 April at 10am" or a phone number it half-remembers. Every *checkable value* in the
English body — amounts, percentages, dates, weekdays, times, durations, phone numbers, email
addresses, product dimensions and any other number of three or more digits — must appear, after
normalisation, in the owner's instruction, the inquiry record or the thread (or the owner's own
signature/settings, or a value he explicitly confirmed). Anything else is returned as
*unconfirmed*: the approval window highlights it as 未经确认 and one-click approval is refused.

Normalisation (``core.text.facts``) makes "$15,000", "15000", "15k", "1.5万" and "一万五" one value; "2.4 m", "2400mm"
and "2400" one dimension; "10am", "10:00", "上午10点" one time; "Tuesday" and "周二" one weekday;
"0412 345 678" and "+61 412 345 678" one phone (E.164 via ``phonenumbers``);
"https://www.pay.example/inv/7" and "pay.example/inv/7" one link.

Sources are people's words only (``core.provenance``): the owner's instruction, edits, confirmed
facts, signature and settings, and the customer's thread — a ``Text`` a model wrote is dropped
here, never read. Payment details (``core.text.payment``) are whole values backed by the
owner's words alone: a customer's mail never vouches for where his money should go.
The Chinese rendering is compared with the English body (``rendering_mismatches``): a value the
owner read that the customer will not get, or the reverse, is flagged.

The guard errs towards flagging: a derived value (15000 + GST = 16,500; "next Tuesday" → a
calendar date) is flagged because the owner never said it — he confirms it with one click.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.provenance import Text, owner_words, people_words
from core.text.facts import arabise, covered, extract_facts, scan_text, source_keys
from core.text.payment import PAYMENT_KINDS

__all__ = ["check_facts", "promises", "rendering_mismatches"]


def check_facts(
    body_en: str,
    sources: Iterable[str | Text],
    *,
    confirmed: Iterable[str] = (),
    region: str = "AU",
    body_zh: str | None = None,
) -> list[str]:
    """The body's values not backed by ``sources`` (nor by ``confirmed``), as written, unique.

    ``confirmed`` holds values the owner accepted one by one; they join the sources, so a later
    edit that repeats the same value stays confirmed.

    ``body_zh`` (the Chinese rendering the owner reads) is compared with the English body: a
    checkable value in one that is missing from, or different in, the other is flagged too —
    the owner approves what he read, so what he read must say what will be sent. The English
    value is flagged as written in the English body; a value only the Chinese holds, as written
    there. Empty ``body_zh`` (no rendering yet) skips the comparison.
    """
    confirmed, sources = list(confirmed), list(sources)
    keys = source_keys([*people_words(sources), *confirmed], region)
    owner_keys = source_keys([*owner_words(sources), *confirmed], region)  # payment: his alone
    unconfirmed: list[str] = []
    for fact in extract_facts(body_en, region):
        pool = owner_keys if fact.kind in PAYMENT_KINDS else keys
        if not covered(fact, pool) and fact.text not in unconfirmed:
            unconfirmed.append(fact.text)
    if body_zh and body_zh.strip():
        for text in rendering_mismatches(body_en, body_zh, confirmed=confirmed, region=region):
            if text not in unconfirmed:
                unconfirmed.append(text)
    return unconfirmed


def rendering_mismatches(
    body_en: str, body_zh: str, *, confirmed: Iterable[str] = (), region: str = "AU"
) -> list[str]:
    """Checkable values present in one rendering and missing (or different) in the other.

    Weekdays are left out: Chinese renders "next Tuesday" as 下周二 but also writes dates with
    their weekday, and a weekday alone never changes a price or an appointment's day by itself
    (the date or time beside it does, and those are compared)."""
    zh = arabise(body_zh)
    zh_keys = source_keys([body_zh], region)
    en_keys = source_keys([body_en], region)
    ok_keys = source_keys(list(confirmed), region)
    out: list[str] = []
    for fact in extract_facts(body_en, region):
        if fact.kind == "weekday" or covered(fact, zh_keys) or covered(fact, ok_keys):
            continue
        out.append(fact.text)
    for fact in scan_text(zh, region, source=False):
        if fact.kind == "weekday" or covered(fact, en_keys) or covered(fact, ok_keys):
            continue
        out.append(fact.text)
    accepted = set(confirmed)
    en_promises, zh_promises = promises(body_en, _PROMISES_EN), promises(body_zh, _PROMISES_ZH)
    for kind, written in en_promises.items():
        if kind not in zh_promises and written not in accepted:
            out.append(written)
    for kind, written in zh_promises.items():
        if kind in _BOTH_WAYS and kind not in en_promises and written not in accepted:
            out.append(written)
    return list(dict.fromkeys(out))


# Promises that cost money or admit fault: the English must not make one the Chinese leaves
# out ("we accept full responsibility and will refund" beside "下周上门量尺"), nor the reverse
_PROMISES_EN = {
    "refund": r"\brefund\w*|\bmoney back\b|\breimburse\w*",
    "discount": r"\bdiscount\w*|\b\d+(?:\.\d+)?\s*%\s*off\b|\bwaive\w*|\bprice match\w*",
    "free": r"\bfree of charge\b|\bat no (?:extra |additional )?(?:cost|charge)\b|\bfor free\b"
    r"|\bcomplimentary\b",
    "compensation": r"\bcompensat\w*",
    "liability": r"\bliab(?:le|ility)\b|\bour fault\b|\b(?:accept|admit|take)\w*\s+(?:full\s+)?"
    r"(?:responsibility|the blame)\b|\bwe are (?:fully )?responsible\b",
}
_PROMISES_ZH = {
    "refund": r"退款|退钱|退还|退回|返还|退费",
    "discount": r"折扣|打折|\d+(?:\.\d+)?\s*折|优惠|减免|让利|免去",
    "free": r"免费|不收费|不另收费|不收取",
    "compensation": r"赔偿|补偿|赔付",
    "liability": r"责任|过错|我们的错|过失|负全责",
}
_BOTH_WAYS = frozenset({"refund", "discount", "free", "compensation"})


def promises(text: str, table: dict[str, str]) -> dict[str, str]:
    """The kinds of promise ``text`` makes, each with its first words as written."""
    found: dict[str, str] = {}
    for kind, pattern in table.items():
        m = re.search(pattern, text, re.I)
        if m:
            found[kind] = m.group(0)
    return found
