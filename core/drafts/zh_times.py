"""Times and durations the model left in English inside the Chinese rendering, made Chinese.

The owner approves a reply by reading its Chinese rendering. Models often copy "10am" or
"4 weeks" straight from the English into it, so the one part of a reply he most needs to check
(when we come, how long it takes) is the part he reads in English. The rendering's answer
passes through ``localise_times`` in code (``core.drafts.reply_model``'s answer models), never
through another prompt:

    上午 10am → 上午10点     2:30pm → 下午2点30分     12pm → 中午12点
    4 weeks → 4周     3-5 business days → 3-5个工作日     2 hours → 2小时     6 months → 6个月

Only text with an am/pm marker or a unit word is touched; the forms written are the ones the
fact guard's rendering comparison reads back (``core.drafts.factguard``), so a faithful
rendering stays faithful.
"""

from __future__ import annotations

import re
from collections.abc import Callable

_PERIODS = "上午|下午|早上|晚上|中午|凌晨"
_TIME = re.compile(
    rf"(?:(?:{_PERIODS})\s*)?(?<![\d:.])(?P<h>\d{{1,2}})(?:[:.](?P<m>[0-5]\d))?\s*"
    r"(?P<ampm>[ap])(?:m\b|\.m\.|\.m\b| m\b)",
    re.IGNORECASE,
)
_WORDS = {
    "a": "1",
    "an": "1",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "twelve": "12",
}
_UNITS = {
    "business day": "个工作日",
    "working day": "个工作日",
    "week": "周",
    "day": "天",
    "hour": "小时",
    "hr": "小时",
    "minute": "分钟",
    "min": "分钟",
    "month": "个月",
    "year": "年",
    "yr": "年",
}
_NUMBER = r"\d+(?:\.\d+)?(?:\s*(?:-|–|~|to)\s*\d+(?:\.\d+)?)?"
_DURATION = re.compile(
    rf"(?<![\w.])(?P<n>{_NUMBER}|{'|'.join(_WORDS)})\s*"
    rf"(?P<unit>{'|'.join(sorted(_UNITS, key=len, reverse=True))})s?\b",
    re.IGNORECASE,
)


def _time(match: re.Match[str]) -> str:
    hour, minutes = int(match["h"]), match["m"]
    if hour > 12:
        return match[0]
    pm = match["ampm"].lower() == "p"
    if pm and hour == 12:
        period = "中午"
    elif not pm and hour == 12:
        period = "凌晨"
    elif not pm:
        period = "上午"
    else:
        period = "下午" if hour < 6 else "晚上"
    clock = f"{hour}点" if not minutes or minutes == "00" else f"{hour}点{minutes}分"
    return period + clock


def _duration(match: re.Match[str]) -> str:
    number = match["n"]
    number = _WORDS.get(number.lower(), number)
    number = re.sub(r"\s*(?:to|~|–)\s*", "-", number)
    number = re.sub(r"\s*-\s*", "-", number)
    return number + _UNITS[match["unit"].lower()]


_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def _tight(pattern: re.Pattern[str], make: Callable[[re.Match[str]], str], text: str) -> str:
    """``pattern.sub(make, text)``, also dropping a space between the result and a Chinese
    character beside it (Chinese puts none there)."""
    out: list[str] = []
    last = 0
    for match in pattern.finditer(text):
        start, end = match.span()
        if start >= 2 and text[start - 1] == " " and _CJK.match(text[start - 2]):
            start -= 1
        if end + 1 < len(text) and text[end] == " " and _CJK.match(text[end + 1]):
            end += 1
        out.append(text[last : max(start, last)])
        out.append(make(match))
        last = end
    out.append(text[last:])
    return "".join(out)


def localise_times(zh: str) -> str:
    """``zh`` with English clock times and durations written the Chinese way."""
    if not zh:
        return zh
    return _tight(_DURATION, _duration, _tight(_TIME, _time, zh))
