"""Checkable values in text, normalised so that two ways of writing one value meet.

"$15,000", "15000", "15k", "1.5万" and "一万五" are one value; "2.4 m", "2400mm" and "2400" one
dimension; "10am", "10:00", "上午10点" one time; "Tuesday" and "周二" one weekday;
"0412 345 678" and "+61 412 345 678" one phone (E.164 via ``phonenumbers``);
"https://www.pay.example/inv/7" and "pay.example/inv/7" one link; payment details
(``core.text.payment``) are whole values. ``extract_facts`` finds the values a text asserts,
``source_keys`` the values a set of texts can back, ``covered`` whether they meet.

Both the draft fact guard (``core.drafts.factguard``: is a number in a draft backed by people's
words?) and intake grounding (is a field the model extracted really in the mail?) ask this, so
it lives in the text layer below both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import phonenumbers

from core.text.links import (
    HIDDEN_DIGITS,
    HOST_KINDS,
    MAYBE_HIDDEN,
    defang,
    link_spans,
    url_key,
)
from core.text.payment import is_pay_link, payment_spans
from core.text.reading import Reading, reading_form

__all__ = [
    "HOST_KINDS",
    "Fact",
    "arabise",
    "covered",
    "extract_facts",
    "scan_text",
    "source_keys",
    "url_key",
]


@dataclass(frozen=True)
class Fact:
    """One checkable value found in a draft body."""

    kind: str  # amount|percent|date|…|phone|email|link|paylink|payment|dimension|area|number
    text: str  # exactly as written in the body (what the window highlights)
    keys: frozenset[str]  # normalised forms; any match in the sources confirms it
    start: int = 0
    end: int = 0


# ---------------------------------------------------------------- number helpers

_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def _fmt(value: float) -> str:
    """Canonical number text: 15000.0 → "15000", 2.50 → "2.5"."""
    rounded = round(value, 4)
    if rounded == int(rounded):
        return str(int(rounded))
    return f"{rounded:.4f}".rstrip("0").rstrip(".")


_SCALE = {"k": 1_000, "thousand": 1_000, "m": 1_000_000, "mil": 1_000_000, "million": 1_000_000}

_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6}
_CN_DIGITS |= {"七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}


def _cn_section(text: str) -> int:
    """A Chinese numeral below 10,000 ("三千五百", "十五", "五")."""
    total, digit = 0, None
    last_unit = 1
    for ch in text:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            unit = _CN_UNITS[ch]
            total += (1 if digit is None else digit) * unit
            last_unit = unit
            digit = None
    if digit is not None:
        # "一万五" / "三千五": a trailing digit counts in the next lower unit
        total += digit * (last_unit // 10 if last_unit >= 10 and len(text) > 1 else 1)
    return total


def _cn_to_int(text: str) -> int:
    if "万" in text:
        high, _, low = text.partition("万")
        value = _cn_section(high or "一") * 10_000
        if low:
            if len(low) == 1 and low in _CN_DIGITS:  # 一万五 = 15000
                value += _CN_DIGITS[low] * 1000
            else:
                value += _cn_section(low)
        return value
    return _cn_section(text)


_CN_NUMERAL = re.compile(r"[零〇一二两三四五六七八九十百千万]+")
_WAN = re.compile(r"(\d+(?:\.\d+)?)\s*万\s*(\d)?(?![\d千])")


def arabise(text: str) -> str:
    """Rewrite Chinese numerals and 万 amounts as digits so one extractor reads both."""

    def cn(match: re.Match[str]) -> str:
        token = match.group(0)
        # lone 一 is usually a word (一起, 一下); 万/百 alone are not numbers, 十 is
        if token in {"一", "万"} or (token != "十" and not any(c in _CN_DIGITS for c in token)):
            return token
        return str(_cn_to_int(token))

    text = _CN_NUMERAL.sub(cn, text)

    def wan(match: re.Match[str]) -> str:
        value = float(match.group(1)) * 10_000
        if match.group(2):
            value += int(match.group(2)) * 1000
        return _fmt(value)

    return _WAN.sub(wan, text)


# ---------------------------------------------------------------- patterns

_EMAIL = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+")
_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTHS = {m: i for i, m in enumerate(_MONTH_NAMES, 1)}
_MONTH = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
    r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"
)
_DATE_DM = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)?(?:\s+of)?\s+{_MONTH}(?:,?\s+(\d{{4}}))?\b", re.I
)
_DATE_MD = re.compile(rf"\b{_MONTH}\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}}))?", re.I)
_DATE_ISO = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_DATE_NUM = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?:/(\d{2}|\d{4}))?(?![\d/])")
_DATE_NUM_DOT = re.compile(r"(?<![\d.])(\d{1,2})[.-](\d{1,2})[.-](\d{2}|\d{4})(?![\d.])")
_DATE_CN = re.compile(r"(\d{1,2})\s*月\s*(\d{1,2})\s*[日号號]")

_WEEKDAYS = {
    "monday": "mon",
    "tuesday": "tue",
    "wednesday": "wed",
    "thursday": "thu",
    "friday": "fri",
    "saturday": "sat",
    "sunday": "sun",
    "tues": "tue",
    "thurs": "thu",
}
_WEEKDAY = re.compile(
    r"\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tues|thurs)\b", re.I
)
_WEEKDAY_CN = re.compile(r"(?:周|星期|礼拜|禮拜)([一二三四五六日天1-7])")
_CN_WEEKDAY = {"一": "mon", "二": "tue", "三": "wed", "四": "thu", "五": "fri", "六": "sat"}
_CN_WEEKDAY |= {"日": "sun", "天": "sun", "1": "mon", "2": "tue", "3": "wed", "4": "thu"}
_CN_WEEKDAY |= {"5": "fri", "6": "sat", "7": "sun"}

_AMPM = r"(a\.m\.|p\.m\.|am|pm)"
_TIME_RANGE = re.compile(
    rf"\b(\d{{1,2}})(?:[:.](\d{{2}}))?\s*{_AMPM}?\s*(?:-|–|to|and)\s*(\d{{1,2}})(?:[:.](\d{{2}}))?\s*{_AMPM}(?![a-z])",
    re.I,
)
_TIME_12 = re.compile(rf"\b(\d{{1,2}})(?:[:.](\d{{2}}))?\s*{_AMPM}(?![a-z])", re.I)
_TIME_24 = re.compile(r"(?<![\d.:/$])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])")
_TIME_NOON = re.compile(r"\b(noon|midday)\b", re.I)
_TIME_CN = re.compile(
    r"(上午|早上|早晨|中午|下午|晚上|傍晚)?\s*(\d{1,2})\s*[点點时時](?:\s*(半|(\d{1,2})\s*分?))?"
)

_CURRENCY = r"(?:AUD|AU\$|A\$|USD|US\$|\$)"
_AMOUNT_PRE = re.compile(
    rf"{_CURRENCY}\s?({_NUM})\s*(k|thousand|million|mil|m)?(?![a-z0-9])",
    re.I,
)
_AMOUNT_POST = re.compile(
    rf"(?<![\d.,])({_NUM})\s*(k|thousand|million)?\s*(?:dollars|AUD|bucks)\b",
    re.I,
)
_AMOUNT_K = re.compile(rf"(?<![\d.,])({_NUM})\s*(k|K)\b")
_PERCENT = re.compile(rf"(?<![\d.,])({_NUM})\s*(%|percent\b|per cent\b)", re.I)

_LEN_UNIT = r"(mm|millimet(?:re|er)s?|cm|centimet(?:re|er)s?|m|met(?:re|er)s?|米|毫米|厘米|公分)"
_AREA = re.compile(
    rf"(?<![\d.,])({_NUM})\s*(m2|m²|sqm|sq\.? ?m|square met(?:re|er)s?|平方米|平米|平方)",
    re.I,
)
_DIM_CHAIN = re.compile(
    rf"(?<![\d.,])({_NUM})\s*{_LEN_UNIT}?\s*(?:[xX×*]|by)\s*({_NUM})\s*{_LEN_UNIT}?"
    rf"(?:\s*(?:[xX×*]|by)\s*({_NUM})\s*{_LEN_UNIT}?)?(?![a-z0-9])",
    re.I,
)
_DIM_ONE = re.compile(rf"(?<![\d.,])({_NUM})\s*{_LEN_UNIT}(?![a-z0-9²])", re.I)
_DIM_WORD = re.compile(
    rf"(?<![\d.,])({_NUM})\s*(?:mm\s*)?(?:wide|high|tall|deep|W|H|width|height)\b", re.I
)
_DURATION = re.compile(
    rf"(?<![\d.,])({_NUM})(?:\s*(?:-|–|to)\s*({_NUM}))?[\s-]*(?:business\s+|working\s+)?"
    r"(hours?|days?|weeks?|months?|years?|yrs?)\b",
    re.I,
)
_DURATION_CN = re.compile(r"(\d+)\s*(?:个)?\s*(小时|工作日|天|日|周|星期|礼拜|月|年)")
_BARE = re.compile(rf"(?<![\d.,])({_NUM})(?![\d])")

_DUR_UNIT = {
    "hour": "hour",
    "hours": "hour",
    "day": "day",
    "days": "day",
    "week": "week",
    "weeks": "week",
    "month": "month",
    "months": "month",
    "year": "year",
    "years": "year",
    "yr": "year",
    "yrs": "year",
    "小时": "hour",
    "工作日": "day",
    "天": "day",
    "日": "day",
    "周": "week",
    "星期": "week",
    "礼拜": "week",
    "月": "month",
    "年": "year",
}


def _mm(value: float, unit: str | None) -> float:
    unit = (unit or "").lower()
    if unit.startswith(("mm", "millimet", "毫米")):
        return value
    if unit.startswith(("cm", "centimet", "厘米", "公分")):
        return value * 10
    if unit in {"m", "米"} or unit.startswith("met"):
        return value * 1000
    return value  # no unit: window trades quote millimetres


def _hhmm(hour: int, minute: int, ampm: str | None) -> str | None:
    if ampm:
        tag = ampm.lower().replace(".", "")
        if hour < 1 or hour > 12:
            return None
        if tag == "pm" and hour != 12:
            hour += 12
        if tag == "am" and hour == 12:
            hour = 0
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    return f"time:{hour:02d}:{minute:02d}"


def _date_key(day: int, month: int) -> str | None:
    if 1 <= month <= 12 and 1 <= day <= 31:
        return f"date:{month:02d}-{day:02d}"
    return None


class _Scanner:
    """Walks a text pattern by pattern, masking what each pattern consumed."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.taken = [False] * len(text)
        self.facts: list[Fact] = []
        self.hosts: list[Fact] = []  # each link's host: a value inside a value, never masked

    def free(self, start: int, end: int) -> bool:
        return not any(self.taken[start:end])

    def take(self, kind: str, match: re.Match[str], keys: Iterable[str | None], span=None) -> None:  # type: ignore[no-untyped-def]
        start, end = span or match.span()
        clean = frozenset(k for k in keys if k)
        if not clean or not self.free(start, end):
            return
        for i in range(start, end):
            self.taken[i] = True
        self.facts.append(Fact(kind, self.text[start:end].strip(), clean, start, end))

    def add(self, kind: str, start: int, end: int, keys: frozenset[str]) -> None:
        if self.free(start, end):
            self.taken[start:end] = [True] * (end - start)
            self.facts.append(Fact(kind, self.text[start:end].strip(), keys, start, end))

    def mask(self, pattern: re.Pattern[str]) -> None:
        for m in pattern.finditer(self.text):
            for i in range(*m.span()):
                self.taken[i] = True


def _scan_links(s: _Scanner, text: str, origin: Reading | None = None) -> None:
    """Links, whole payment details and e-mails, before any other pattern takes a character.

    Links come first so that nothing inside one (``?ref=7781``, a number in its path) is taken
    for a value of its own; every link's host is a value of its own too (``host:``), so a new
    link on a known site and a known path on a new host are both seen. ``origin``: ``text`` is
    the reading form of ``s.text`` (``_scan_hidden``); spans are mapped back to the original."""

    def span(start: int, end: int) -> tuple[int, int]:
        return origin.span(start, end) if origin is not None else (start, end)

    links = link_spans(text)
    for start, end in links:
        written = text[start:end]
        key = url_key(written)
        if not key:
            continue
        kind = "paylink" if is_pay_link(text, start, end) else "link"
        host = key.removeprefix("url:").partition("/")[0]
        o_start, o_end = span(start, end)
        if s.free(o_start, o_end):
            s.add(kind, o_start, o_end, frozenset({key}))
            s.hosts.append(Fact(kind, host, frozenset({f"host:{host}"}), o_start, o_end))
    for start, end, pay in payment_spans(text, links):  # whole details before any digit
        s.add("payment", *span(start, end), frozenset({pay}))
    for m in _EMAIL.finditer(text):
        s.add("email", *span(m.start(), m.end()), frozenset({f"email:{m.group(0).lower()}"}))


def _scan_hidden(s: _Scanner, text: str) -> Reading | None:
    """Values spelled to slip past a reader's eye or a pattern: links written
    ``pay [dot] evil [dot] example`` or ``hxxps://``, addresses with ``[at]``, and links,
    e-mails, payment details and phones behind zero-width characters, full-width forms or
    look-alike letters. Found in the text's reading form (``core.text.reading``), shown as
    written."""
    if not MAYBE_HIDDEN.search(text):
        return None
    clean = defang(reading_form(text))
    if clean.text == text:
        return None
    _scan_links(s, clean.text, clean)
    # its phones are read after the dates (``scan_text``), when anything hides their digits
    return clean if HIDDEN_DIGITS.search(text) else None


def _scan_dates(s: _Scanner, text: str) -> None:
    """The unambiguous date forms, before phones take their digits."""

    # dates before phones (phonenumbers ignores most dates, but 15/04/2026 must stay a date)
    for m in _DATE_ISO.finditer(text):
        s.take("date", m, [_date_key(int(m.group(3)), int(m.group(2)))])
    for m in _DATE_DM.finditer(text):
        s.take("date", m, [_date_key(int(m.group(1)), _MONTHS[m.group(2)[:3].lower()])])
    for m in _DATE_MD.finditer(text):
        s.take("date", m, [_date_key(int(m.group(2)), _MONTHS[m.group(1)[:3].lower()])])
    for m in _DATE_CN.finditer(text):
        s.take("date", m, [_date_key(int(m.group(2)), int(m.group(1)))])


def _scan_phones(s: _Scanner, text: str, region: str, origin: Reading | None = None) -> None:
    """Phones, before the dimension and number patterns chew their digits."""
    try:
        matcher = phonenumbers.PhoneNumberMatcher(
            text, region, leniency=phonenumbers.Leniency.VALID
        )
        for pm in matcher:
            e164 = phonenumbers.format_number(pm.number, phonenumbers.PhoneNumberFormat.E164)
            start, end = origin.span(pm.start, pm.end) if origin else (pm.start, pm.end)
            s.add("phone", start, end, frozenset({f"phone:{e164}"}))
    except Exception:  # phonenumbers never should, but a guard must not crash a draft
        pass


def _scan_numeric_dates_and_weekdays(s: _Scanner, text: str) -> None:
    """Numeric dates ("15/4", "15.4.") once phones are taken, then weekdays."""
    for m in _DATE_NUM.finditer(text):
        year = m.group(3)
        key = _date_key(int(m.group(1)), int(m.group(2)))
        # "3/45" is a unit number, not a date; a bare d/m needs both parts in range
        if key and (year or int(m.group(2)) <= 12):
            s.take("date", m, [key])
    for m in _DATE_NUM_DOT.finditer(text):
        s.take("date", m, [_date_key(int(m.group(1)), int(m.group(2)))])

    for m in _WEEKDAY.finditer(text):
        s.take("weekday", m, [f"weekday:{_WEEKDAYS[m.group(1).lower()]}"])
    for m in _WEEKDAY_CN.finditer(text):
        s.take("weekday", m, [f"weekday:{_CN_WEEKDAY[m.group(1)]}"])


def _cn_time_keys(m: re.Match[str]) -> list[str | None]:
    """Keys for a Chinese time: "下午3点" is 15:00, a bare "10点" reads both ways."""
    hour = int(m.group(2))
    minute = 30 if m.group(3) == "半" else int(m.group(4) or 0)
    part = m.group(1)
    if part in {"下午", "晚上", "傍晚"} and hour < 12:
        return [_hhmm(hour + 12, minute, None)]
    if part in {"上午", "早上", "早晨"}:
        return [_hhmm(hour, minute, None)]
    if part == "中午":
        return [_hhmm(hour if hour >= 11 else hour + 12, minute, None)]
    return [  # "10点": ambiguous, both readings count
        _hhmm(hour, minute, None),
        _hhmm(hour + 12, minute, None) if hour < 12 else None,
    ]


def _scan_times(s: _Scanner, text: str, *, source: bool) -> None:
    """Time ranges, 12-hour, noon, Chinese and 24-hour times, in that order."""
    for m in _TIME_RANGE.finditer(text):
        second = _hhmm(int(m.group(4)), int(m.group(5) or 0), m.group(6))
        first_tag = m.group(3) or m.group(6)
        if (
            not m.group(3)
            and int(m.group(1)) > int(m.group(4))
            and m.group(6).lower().startswith("p")
        ):
            first_tag = "am"  # "11-1pm"
        first = _hhmm(int(m.group(1)), int(m.group(2) or 0), first_tag)
        if first and second:
            s.take(
                "time",
                m,
                [first],
                span=(m.start(1), m.end(3) if m.group(3) else m.end(2) if m.group(2) else m.end(1)),
            )
            s.take("time", m, [second], span=(m.start(4), m.end(6)))
            # the range as one value too, so "9-11am" in a source confirms "9-11am"
    for m in _TIME_12.finditer(text):
        s.take("time", m, [_hhmm(int(m.group(1)), int(m.group(2) or 0), m.group(3))])
    for m in _TIME_NOON.finditer(text):
        s.take("time", m, ["time:12:00"])
    for m in _TIME_CN.finditer(text):
        s.take("time", m, _cn_time_keys(m))
    for m in _TIME_24.finditer(text):
        hour, minute = int(m.group(1)), int(m.group(2))
        keys: list[str | None] = [_hhmm(hour, minute, None)]
        if source and hour < 12:
            keys.append(_hhmm(hour + 12, minute, None))
        s.take("time", m, keys)


def _scan_sizes(s: _Scanner, text: str) -> None:
    """Money, percentages, areas and dimensions."""
    for pattern in (_AMOUNT_PRE, _AMOUNT_POST, _AMOUNT_K):
        for m in pattern.finditer(text):
            scale = _SCALE.get((m.group(2) or "").lower(), 1)
            s.take("amount", m, [f"num:{_fmt(_num(m.group(1)) * scale)}"])
    for m in _PERCENT.finditer(text):
        s.take("percent", m, [f"pct:{_fmt(_num(m.group(1)))}"])

    for m in _AREA.finditer(text):
        s.take("area", m, [f"area:{_fmt(_num(m.group(1)))}"])
    for m in _DIM_CHAIN.finditer(text):
        values = [(m.group(i), m.group(i + 1)) for i in (1, 3, 5) if m.group(i)]
        last_unit = next((u for _, u in reversed(values) if u), None)
        for idx, (value, unit) in enumerate(values):
            gi = 1 + idx * 2
            key = f"dim:{_fmt(_mm(_num(value), unit or last_unit))}"
            end = m.end(gi + 1) if m.group(gi + 1) else m.end(gi)
            s.take("dimension", m, [key], span=(m.start(gi), end))
    for m in _DIM_ONE.finditer(text):
        s.take("dimension", m, [f"dim:{_fmt(_mm(_num(m.group(1)), m.group(2)))}"])
    for m in _DIM_WORD.finditer(text):
        s.take("dimension", m, [f"dim:{_fmt(_num(m.group(1)))}"], span=m.span(1))


def _scan_durations_and_numbers(s: _Scanner, text: str, *, source: bool) -> None:
    """Durations ("3-4 weeks", "3个月"), then any other number of three digits or more."""
    for m in _DURATION.finditer(text):
        unit = _DUR_UNIT.get(m.group(3).lower(), m.group(3).lower())
        keys = [f"dur:{_fmt(_num(m.group(1)))}:{unit}"]
        if m.group(2):
            keys = [f"dur:{_fmt(_num(m.group(1)))}-{_fmt(_num(m.group(2)))}:{unit}"]
        s.take("duration", m, keys)
    for m in _DURATION_CN.finditer(text):
        s.take("duration", m, [f"dur:{m.group(1)}:{_DUR_UNIT[m.group(2)]}"])

    # any other number of three or more digits (quote numbers, postcodes, a bare "15000")
    for m in _BARE.finditer(text):
        value = _num(m.group(1))
        if value >= 100 or source:
            s.take("number", m, [f"num:{_fmt(value)}"])


def scan_text(text: str, region: str, *, source: bool) -> list[Fact]:
    """Every fact in ``text``; the order of the passes decides who owns contested characters."""
    s = _Scanner(text)
    _scan_links(s, text)
    clean = _scan_hidden(s, text)
    _scan_dates(s, text)
    if clean is not None:
        _scan_phones(s, clean.text, region, clean)
    _scan_phones(s, text, region)
    _scan_numeric_dates_and_weekdays(s, text)
    _scan_times(s, text, source=source)
    _scan_sizes(s, text)
    _scan_durations_and_numbers(s, text, source=source)
    return sorted([*s.facts, *s.hosts], key=lambda f: (f.start, f.kind in HOST_KINDS))


def extract_facts(body: str, region: str = "AU") -> list[Fact]:
    """Every checkable value in a draft body, in reading order."""
    return scan_text(body, region, source=False)


def source_keys(sources: Iterable[str], region: str = "AU") -> set[str]:
    """Every normalised value the owner's instruction, the record and the thread provide.

    Sources are read generously: each number also counts as an amount, a dimension in mm and a
    duration value, because a customer's "2400 x 2100" or the owner's "15000" carry no unit.
    """
    keys: set[str] = set()
    for raw in sources:
        if raw:
            keys |= _text_keys(raw, region)
    return keys


@lru_cache(maxsize=256)
def _text_keys(raw: str, region: str) -> frozenset[str]:
    """The keys of one source text, remembered: the thread and the owner's knowledge file are
    read again at every edit and approval, and a long file costs a second to scan."""
    keys: set[str] = set()
    for text in {raw, arabise(raw)}:
        for fact in scan_text(text, region, source=True):
            keys |= fact.keys
            for key in fact.keys:
                kind, _, value = key.partition(":")
                if kind in {"num", "dim", "pct", "area"}:
                    keys |= {f"num:{value}", f"dim:{value}", f"pct:{value}", f"area:{value}"}
                elif kind == "dur":
                    number = value.split(":")[0]
                    keys |= {f"num:{number}", f"dim:{number}"}
        for m in _BARE.finditer(text):  # numbers hidden inside larger tokens
            keys.add(f"num:{_fmt(_num(m.group(1)))}")
            keys.add(f"dim:{_fmt(_num(m.group(1)))}")
    return frozenset(keys)


def _covered(fact: Fact, keys: set[str]) -> bool:
    if fact.keys & keys:
        return True
    if fact.kind == "duration":
        # "3 weeks" is backed by the owner's "3周" or a bare "3" next to a unit we did not parse
        for key in fact.keys:
            number, _, unit = key.removeprefix("dur:").partition(":")
            if f"dur:{number}:{unit}" in keys:
                return True
            if "-" in number and all(f"num:{n}" in keys for n in number.split("-")):
                return True
    if fact.kind in {"amount", "number", "dimension", "area"}:
        return any(f"num:{k.partition(':')[2]}" in keys for k in fact.keys)
    return False


def covered(fact: Fact, keys: set[str]) -> bool:
    """Whether ``keys`` (from ``source_keys``) back ``fact`` — also used by intake grounding."""
    return _covered(fact, keys)
