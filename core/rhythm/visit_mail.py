"""The customer's mails about a measuring visit: the confirmation and the day-before reminder.

Code writes both languages from the same facts (the time he confirmed, the place on the
inquiry), no model asked, so the Chinese he approves is the English that goes. The instruction
of record quotes the English time phrase, so the fact guard finds every date and time of the
body in his own act of confirming and flags nothing he did not say; each draft still waits for
his approval like any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from core.clock import to_sydney

WEEKDAYS_ZH = "一二三四五六日"


@dataclass(frozen=True)
class VisitMail:
    subject: str
    body_en: str
    body_zh: str
    instruction: str  # the record of his act, with the values the body states


def when_en(start: datetime) -> str:
    """``Thursday 3 December 2026 at 10:00 am`` (Sydney)."""
    local = to_sydney(start)
    hour = local.strftime("%I:%M").lstrip("0")
    return f"{local:%A} {local.day} {local:%B %Y} at {hour} {'am' if local.hour < 12 else 'pm'}"


def when_zh(start: datetime) -> str:
    """``2026-12-03（周四）10:00`` (Sydney): the ISO date reads as the same date as the
    English to the fact guard's rendering check (``2026年`` alone would read as a number)."""
    local = to_sydney(start)
    return f"{local:%Y-%m-%d}（周{WEEKDAYS_ZH[local.weekday()]}）{local:%H:%M}"


def _greeting(name: str) -> tuple[str, str]:
    first = name.split()[0] if name.strip() else "there"
    return f"Dear {first},", (f"{name.strip()}您好：" if name.strip() else "您好：")


def _sign(lines: list[str], signature: str) -> str:
    if signature.strip():
        lines += ["", signature.strip()]
    return "\n".join(lines)


def confirmation(
    name: str, start: datetime, minutes: int, where: str, signature: str = ""
) -> VisitMail:
    """The mail that confirms the visit he chose."""
    hello_en, hello_zh = _greeting(name)
    at_en, at_zh = when_en(start), when_zh(start)
    place_en = f" at {where}" if where else ""
    place_zh = f"，地点：{where}" if where else ""
    en = [hello_en, "", f"Thank you. We will come to measure on {at_en}{place_en}.",
          f"It usually takes about {minutes} minutes.", "",
          "If that time no longer suits you, just reply to this email and we will find another."]  # fmt: skip
    zh = [hello_zh, "", f"谢谢。我们将于 {at_zh} 上门量尺{place_zh}。",
          f"一般需要约 {minutes} 分钟。", "",
          "如果这个时间不方便，直接回复这封邮件，我们再另约时间。"]  # fmt: skip
    return VisitMail(
        subject=f"Measure visit confirmed: {at_en}",
        body_en=_sign(en, signature),
        body_zh=_sign(zh, signature),
        instruction=f"确认上门量尺时间：{at_en}（{at_zh}），约 {minutes} minutes，地点：{where}",
    )


def reminder(
    name: str, start: datetime, minutes: int, where: str, signature: str = ""
) -> VisitMail:
    """The day-before reminder of a confirmed visit."""
    hello_en, hello_zh = _greeting(name)
    at_en, at_zh = when_en(start), when_zh(start)
    place_en = f" at {where}" if where else ""
    place_zh = f"（{where}）" if where else ""
    en = [hello_en, "", f"A reminder that we will come to measure tomorrow, {at_en}{place_en}.",
          f"It usually takes about {minutes} minutes.", "",
          "If anything has changed, please reply to this email."]  # fmt: skip
    zh = [hello_zh, "", f"提醒一下：我们明天 {at_zh} 上门量尺{place_zh}。",
          f"一般需要约 {minutes} 分钟。", "", "如有变化，请回复这封邮件。"]  # fmt: skip
    return VisitMail(
        subject=f"Reminder: measure visit tomorrow, {at_en}",
        body_en=_sign(en, signature),
        body_zh=_sign(zh, signature),
        instruction=f"上门前一天提醒客户：{at_en}（{at_zh}），约 {minutes} minutes，地点：{where}",
    )
