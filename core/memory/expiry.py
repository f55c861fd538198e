"""When a short-term memory stops being true: "下周二上门" is over after that Tuesday.

Why in code: a memory that expires too early loses what the owner said, one that never expires
keeps telling every draft "we visit next Tuesday" for months. So the date comes from the words
themselves — explicit dates (``2026-12-08``, ``12月8日``, ``8/12``, ``8 December``) and the
relative ones the owner says (今天/明天/后天, 下周二, 这周五, 下周, 下个月, tomorrow,
next Tuesday, by Friday, next week) — read against the injected clock in Sydney time. A model may *propose*
a date (``expires_on``), but code verifies it: a date the words give wins; a proposal is taken
only when the words carry a time cue at all (a standing fact such as "Billy 预算有限" never
expires because a model said so) and it lies between today and a year ahead. A bare weekday
("周三不上门", "on Fridays") is left to the model: it is a weekly habit as often as one visit.

A memory about an event expires at the end of the event's day (Sydney): ``expires_at`` is the
next midnight in Sydney, stored as naive UTC like every other time in the store.
``expire_due`` flips what has run out to ``expired`` — kept, audited, never deleted.
"""

from __future__ import annotations

import calendar
import re
import unicodedata
from datetime import date, datetime, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.clock import SYDNEY, to_sydney, utc
from core.db.models import AuditEntry, Memory

__all__ = ["event_date", "expire_due", "expires_at_for", "verified_expiry"]

MAX_AHEAD_DAYS = 366  # a proposed date further away than this is not a short-term memory

_ZH_DAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6, "末": 5}
_EN_DAY = {
    name: i
    for i, names in enumerate(
        [("monday", "mon"), ("tuesday", "tue", "tues"), ("wednesday", "wed"),
         ("thursday", "thu", "thur", "thurs"), ("friday", "fri"), ("saturday", "sat"),
         ("sunday", "sun")]
    )
    for name in names
}  # fmt: skip
_EN_MONTH = {
    name: i + 1
    for i, names in enumerate(
        [("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"),
         ("may",), ("june", "jun"), ("july", "jul"), ("august", "aug"),
         ("september", "sep", "sept"), ("october", "oct"), ("november", "nov"),
         ("december", "dec")]
    )
    for name in names
}  # fmt: skip
_EN_DAYS = "|".join(sorted(_EN_DAY, key=len, reverse=True))
_EN_MONTHS = "|".join(sorted(_EN_MONTH, key=len, reverse=True))

_ISO = re.compile(r"(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)")
_ZH_DATE = re.compile(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号號]")
_DMY = re.compile(r"(?<![\d/.x×-])(\d{1,2})/(\d{1,2})(?:/(\d{2}|\d{4}))?(?![\d/.x×-])")
_EN_DM = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_EN_MONTHS})\b")
_EN_MD = re.compile(rf"\b({_EN_MONTHS})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b")
_ZH_WEEKDAY = re.compile(r"(下下|下个?|这个?|本|今)?(?:周|星期|礼拜|禮拜)([一二三四五六日天末])")
_ZH_WEEK = re.compile(r"(下下|下个?|这个?|本)(?:周|星期|礼拜|禮拜)(?![一二三四五六日天末])")
# only after next/this/coming/by: "on Friday" or "Fridays" may be a weekly habit, "sun" a room
_EN_WEEKDAY = re.compile(rf"\b(next|this|coming|by)\s+({_EN_DAYS})\b")
_RELATIVE = (
    (re.compile(r"大后天"), 3),
    (re.compile(r"(?<!大)后天"), 2),
    (re.compile(r"明天|明日|\btomorrow\b"), 1),
    (re.compile(r"今天|今日|今晚|\btoday\b|\btonight\b"), 0),
)
_NEXT_WEEK_EN = re.compile(r"\bnext week\b")
_THIS_WEEK_EN = re.compile(r"\bthis week\b")
_NEXT_MONTH = re.compile(r"下个?月|\bnext month\b")
_MONTH_END = re.compile(r"月底|\bend of (?:the|this) month\b")
# words that say the fact is about a time at all (the condition for taking a model's date)
_TIME_CUE = re.compile(
    r"[今明后昨]天|周|星期|礼拜|月|号|日|下次|这次|本次|暂时|这几天|最近|之前|以前|截止|为止|"
    rf"\b(?:{_EN_DAYS}|{_EN_MONTHS}|today|tonight|tomorrow|week|month|until|till|before|by|"
    r"deadline|temporar\w*|this time|next time)\b"
)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _valid(year: int, month: int, day: int) -> date | None:
    try:
        return date(year, month, day)
    except ValueError:
        return None


def _without_year(today: date, month: int, day: int) -> date | None:
    """A day and month said without a year: this year's, or next year's when this year's is
    more than a month gone ("1月5日" said in December)."""
    found = _valid(today.year, month, day)
    if found is not None and found < today - timedelta(days=31):
        found = _valid(today.year + 1, month, day)
    return found


def _explicit(text: str, today: date) -> list[date]:
    found: list[date | None] = []
    found += [_valid(int(y), int(m), int(d)) for y, m, d in _ISO.findall(text)]
    for y, m, d in _ZH_DATE.findall(text):
        found.append(_valid(int(y), int(m), int(d)) if y else _without_year(today, int(m), int(d)))
    for d, m, y in _DMY.findall(text):  # Australian order: day/month
        if y:
            year = int(y) + (2000 if len(y) == 2 else 0)
            found.append(_valid(year, int(m), int(d)))
        else:
            found.append(_without_year(today, int(m), int(d)))
    found += [_without_year(today, _EN_MONTH[m], int(d)) for d, m in _EN_DM.findall(text)]
    found += [_without_year(today, _EN_MONTH[m], int(d)) for m, d in _EN_MD.findall(text)]
    return [d for d in found if d is not None]


def _week_start(today: date, weeks_ahead: int) -> date:
    return today - timedelta(days=today.weekday()) + timedelta(weeks=weeks_ahead)


def _relative(text: str, today: date) -> list[date]:
    found = [today + timedelta(days=n) for pattern, n in _RELATIVE if pattern.search(text)]
    for prefix, day in _ZH_WEEKDAY.findall(text):
        weekday = _ZH_DAY[day]
        if prefix in {"下", "下个"}:
            found.append(_week_start(today, 1) + timedelta(days=weekday))
        elif prefix == "下下":
            found.append(_week_start(today, 2) + timedelta(days=weekday))
        elif prefix:  # 这周二 / 本周二: this week's
            found.append(_week_start(today, 0) + timedelta(days=weekday))
        # a bare 周三 is no date: "周三不上门" is a weekly habit as often as one visit
    for prefix in _ZH_WEEK.findall(text):
        ahead = {"下下": 2, "下": 1, "下个": 1}.get(prefix, 0)
        found.append(_week_start(today, ahead) + timedelta(days=6))  # the week's Sunday
    for prefix, short in _EN_WEEKDAY.findall(text):
        weekday = _EN_DAY[short]
        if prefix == "next":
            found.append(_week_start(today, 1) + timedelta(days=weekday))
        else:  # this / coming / by Friday: the next one (today counts)
            found.append(today + timedelta(days=(weekday - today.weekday()) % 7))
    if _NEXT_WEEK_EN.search(text):
        found.append(_week_start(today, 1) + timedelta(days=6))
    if _THIS_WEEK_EN.search(text):
        found.append(_week_start(today, 0) + timedelta(days=6))
    if _NEXT_MONTH.search(text):
        year, month = (today.year + 1, 1) if today.month == 12 else (today.year, today.month + 1)
        found.append(date(year, month, calendar.monthrange(year, month)[1]))
    if _MONTH_END.search(text):
        found.append(date(today.year, today.month, calendar.monthrange(today.year, today.month)[1]))
    return found


def event_date(text: str, today: date) -> date | None:
    """The last day the words speak of, or ``None`` for a standing fact."""
    folded = _fold(text)
    days = _explicit(folded, today) + _relative(folded, today)
    return max(days) if days else None


def verified_expiry(text: str, proposed: str | None, today: date) -> date | None:
    """The event day of a memory: the words' own date, else the model's proposal when the
    words carry a time cue and it is a real date from today to a year ahead."""
    said = event_date(text, today)
    if said is not None or not proposed:
        return said
    try:
        day = date.fromisoformat(str(proposed).strip()[:10])
    except ValueError:
        return None
    if not _TIME_CUE.search(_fold(text)):
        return None
    if not today <= day <= today + timedelta(days=MAX_AHEAD_DAYS):
        return None
    return day


def expires_at_for(day: date | None) -> datetime | None:
    """The end of ``day`` in Sydney (the next local midnight), as naive UTC for the store."""
    if day is None:
        return None
    midnight = datetime(day.year, day.month, day.day, tzinfo=SYDNEY) + timedelta(days=1)
    end = datetime(midnight.year, midnight.month, midnight.day, tzinfo=SYDNEY)
    return utc(end).replace(tzinfo=None)


def today_in_sydney(now: datetime) -> date:
    return to_sydney(now).date()


def expire_due(session: Session, now: datetime) -> list[int]:
    """Active or proposed memories whose time has passed become ``expired`` (audited, kept).
    Returns their ids."""
    moment = utc(now).replace(tzinfo=None)
    rows = session.scalars(
        select(Memory).where(
            Memory.status.in_(("active", "proposed")),
            Memory.expires_at.is_not(None),
            Memory.expires_at <= moment,
        )
    ).all()
    for memory in rows:
        previous = memory.status
        memory.status = "expired"
        memory.updated_at = moment
        session.add(
            AuditEntry(
                entity="memory",
                entity_id=memory.id,
                action="memory_expired",
                detail={"previous": previous, "expires_at": str(memory.expires_at)},
                actor="system",
                at=moment,
            )
        )
    return [m.id for m in rows]
