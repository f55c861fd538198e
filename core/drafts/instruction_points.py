"""The points of the owner's instruction a draft must carry, and a draft that parrots the customer.

Why: the fact guard asks "did a person say this value?" -- the other direction was never asked.
Against a small local model, "谢谢他的询问，告诉他我们可以下周二上午10点上门量尺，请他确认地址" came back as
the customer's own mail in the first person, with no Tuesday, no 10 am and no request to confirm
the address, and it waited in 待审批 unflagged because every value in it was the customer's (#45).

A point of his instruction is either a *value* (a date, weekday, time, amount, size, phone, link:
the fact guard's own extractor, so "下周二上午10点" is found as "Tuesday ... 10:00 am") or a *request*
from a short table of what he asks customers for (confirm the address, send photos, sizes, a
deposit, a call, a visit to measure, a "no"). Each must be found in the English that will be
sent; a missing one is flagged "未包含您的指示：…" beside the unconfirmed facts, so it blocks a plain
approval the same way. The table is deliberately small: a request it does not know is not
checked, never wrongly flagged.

A draft whose sentences are mostly the customer's own (long runs of his words, in his first
person) is flagged "草稿大段重复客户来信" -- the owner must read it before it can go.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from core.provenance import Provenance, Text
from core.text.facts import covered, extract_facts, source_keys

MISSING = "未包含您的指示：{point}"
PARROT = "草稿大段重复客户来信，请确认这是您要的回复"


@dataclass(frozen=True)
class _Request:
    """Something he asks the customer for: how he says it, how the English must say it."""

    label: str
    asked: re.Pattern[str]  # in his instruction (Chinese or English)
    said: re.Pattern[str]  # in the English draft


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE | re.DOTALL)


_REQUESTS = (
    _Request(
        "请他确认地址",
        _rx(r"确认.{0,6}地址|地址.{0,6}确认|confirm\w*.{0,40}address"),
        _rx(r"confirm\w*.{0,80}address|address.{0,80}confirm"),
    ),
    _Request(
        "请他发照片",
        _rx(r"(?:发|寄|拍|传|提供|给).{0,6}(?:照片|图片|相片)|send.{0,30}(?:photo|picture)"),
        _rx(r"photo|picture|image"),
    ),
    _Request(
        "请他提供尺寸",
        _rx(r"(?:发|给|提供|量|告诉).{0,6}尺寸|send.{0,30}(?:size|measurement|dimension)"),
        _rx(r"size|measurement|dimension|width|height"),
    ),
    _Request("定金", _rx(r"定金|订金|\bdeposit\b"), _rx(r"deposit")),
    _Request(
        "上门量尺",
        _rx(r"上门|量尺|测量|\bmeasure\b"),
        _rx(r"measur|site visit|come (?:out|by|over|to)|visit"),
    ),
    _Request(
        "否定答复",
        _rx(
            r"不能|不可以|不做|没办法|无法|做不了|不接|can'?t|cannot|unable to|do not do|don'?t do"
        ),
        _rx(r"can ?not|can'?t|unable|not able|won'?t|do not|don'?t|no longer|unfortunately"),
    ),
)


def instruction_points(instruction: str, region: str = "AU") -> list[str]:
    """What the instruction asks the reply to say: its values as written, then its requests."""
    points = [fact.text for fact in extract_facts(instruction or "", region)]
    points += [r.label for r in _REQUESTS if r.asked.search(instruction or "")]
    return list(dict.fromkeys(points))


def missing_points(instruction: str, body_en: str, region: str = "AU") -> list[str]:
    """The flags for points of ``instruction`` the English ``body_en`` does not carry."""
    if not (instruction or "").strip():
        return []
    keys = source_keys([body_en or ""], region)
    missing = [
        fact.text
        for fact in extract_facts(instruction, region)
        if not covered(fact, keys) and fact.kind != "number"
    ]
    missing += [
        r.label
        for r in _REQUESTS
        if r.asked.search(instruction) and not r.said.search(body_en or "")
    ]
    return [MISSING.format(point=p) for p in dict.fromkeys(missing)]


_WORD = re.compile(r"[a-z0-9']+")
_RUN = 6  # words in a row that count as copied


def _runs(text: str) -> set[tuple[str, ...]]:
    words = _WORD.findall(text.casefold())
    return {tuple(words[i : i + _RUN]) for i in range(len(words) - _RUN + 1)}


def parrots_customer(body_en: str, sources: Iterable[Text]) -> bool:
    """Most of the draft is runs of the customer's own words (six in a row or more)."""
    mine = _runs(body_en or "")
    if len(mine) < 4:
        return False
    theirs: set[tuple[str, ...]] = set()
    for text in sources:
        if text.source is Provenance.CUSTOMER:
            theirs |= _runs(text.value)
    return len(mine & theirs) * 2 >= len(mine)
