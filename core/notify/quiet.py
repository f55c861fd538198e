"""Quiet hours: when the owner does not want his phone to buzz.

Alerts raised during quiet hours are held in the outbox (not dropped) and go out when the quiet
period ends. Times are wall-clock Sydney time (``schedule.quiet_hours_start``/``_end``, e.g.
21:00–07:00 spanning midnight); daylight-saving changes are handled by zoneinfo.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from core.clock import SYDNEY, utc

if TYPE_CHECKING:
    from core.config import SettingsReader


def parse_hhmm(text: str) -> time | None:
    """'21:00' -> time(21, 0); empty or malformed -> None (quiet hours off)."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        hours, minutes = text.split(":", 1)
        return time(int(hours), int(minutes))
    except (ValueError, TypeError):
        return None


def quiet_until(now: datetime, start: str, end: str, tz: ZoneInfo = SYDNEY) -> datetime | None:
    """If ``now`` is inside quiet hours, the (UTC) moment they end; otherwise None.

    ``start == end`` or an unparsable bound means no quiet hours.
    """
    t_start, t_end = parse_hhmm(start), parse_hhmm(end)
    if t_start is None or t_end is None or t_start == t_end:
        return None
    local = utc(now).astimezone(tz)
    clock_time = local.time().replace(tzinfo=None)
    today = local.date()
    if t_start < t_end:  # same-day window, e.g. 12:00-14:00
        inside = t_start <= clock_time < t_end
        end_date = today
    else:  # spans midnight, e.g. 21:00-07:00
        inside = clock_time >= t_start or clock_time < t_end
        end_date = today + timedelta(days=1) if clock_time >= t_start else today
    if not inside:
        return None
    ends = datetime.combine(end_date, t_end, tzinfo=tz)
    return utc(ends)


def quiet_until_for(settings: SettingsReader, now: datetime) -> datetime | None:
    """``quiet_until`` with the bounds and zone from settings."""
    try:
        tz = ZoneInfo(settings.text("general.timezone") or "Australia/Sydney")
    except Exception:  # unknown zone name: fall back to the business's zone
        tz = SYDNEY
    return quiet_until(
        now,
        settings.text("schedule.quiet_hours_start"),
        settings.text("schedule.quiet_hours_end"),
        tz,
    )
