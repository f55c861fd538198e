"""Measuring appointments in the owner's Outlook calendar (``/me/events``, ``/me/calendarView``).

Events are written in Sydney time with the Windows zone name Outlook knows
("AUS Eastern Standard Time"), so the appointment shows at the right hour on his phone whatever
the PC's zone. Each create carries a ``transactionId`` derived from the inquiry and the time:
Graph drops a repeated create with the same id, so a retry after a lost connection cannot put the
same visit in his calendar twice.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from core.clock import SYDNEY, utc
from core.graph.client import GraphClient

OUTLOOK_SYDNEY = "AUS Eastern Standard Time"
MEASURE_CATEGORY = "询盘桥-上门量尺"


@dataclass(frozen=True)
class CalendarEvent:
    id: str
    subject: str
    start: datetime  # aware, Sydney
    end: datetime
    location: str


def _local(moment: datetime) -> str:
    return moment.astimezone(SYDNEY).replace(tzinfo=None).isoformat(timespec="seconds")


def _parse(value: dict[str, Any]) -> datetime:
    """A Graph dateTimeTimeZone read in UTC (the default when no outlook.timezone is asked)."""
    text = str(value.get("dateTime", "")).split(".")[0]
    moment = datetime.fromisoformat(text)
    zone = str(value.get("timeZone") or "UTC")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=SYDNEY if zone in (OUTLOOK_SYDNEY, str(SYDNEY)) else UTC)
    return moment.astimezone(SYDNEY)


def transaction_id(inquiry_id: int, start: datetime) -> str:
    digest = hashlib.sha256(f"{inquiry_id}|{utc(start).isoformat()}".encode()).hexdigest()
    return f"inquirybridge-{inquiry_id}-{digest[:16]}"


class CalendarReader:
    """His calendar, read only: what a proposal checks against (the assistant's tools hold
    this and nothing that writes)."""

    def __init__(self, client: GraphClient) -> None:
        self.client = client

    async def between(self, start: datetime, end: datetime) -> list[CalendarEvent]:
        """Every event overlapping [start, end), following ``@odata.nextLink``."""
        params: dict[str, str] | None = {
            "startDateTime": utc(start).isoformat().replace("+00:00", "Z"),
            "endDateTime": utc(end).isoformat().replace("+00:00", "Z"),
            "$orderby": "start/dateTime",
            "$select": "id,subject,start,end,location",
        }
        url = "/me/calendarView"
        events: list[CalendarEvent] = []
        while url:
            page = await self.client.get_json(url, params=params)
            for item in page.get("value", []):
                events.append(
                    CalendarEvent(
                        id=str(item.get("id", "")),
                        subject=str(item.get("subject") or ""),
                        start=_parse(item.get("start") or {}),
                        end=_parse(item.get("end") or {}),
                        location=str((item.get("location") or {}).get("displayName") or ""),
                    )
                )
            url, params = page.get("@odata.nextLink") or "", None
        return sorted(events, key=lambda e: e.start)


class OutlookCalendar(CalendarReader):
    """Reads, and writes the measuring event he confirmed."""

    async def create_measure(
        self,
        *,
        inquiry_id: int,
        subject: str,
        start: datetime,
        minutes: int,
        location: str,
        body_html: str,
    ) -> CalendarEvent:
        end = start + timedelta(minutes=minutes)
        body = {
            "subject": subject,
            "body": {"contentType": "HTML", "content": body_html},
            "start": {"dateTime": _local(start), "timeZone": OUTLOOK_SYDNEY},
            "end": {"dateTime": _local(end), "timeZone": OUTLOOK_SYDNEY},
            "location": {"displayName": location},
            "categories": [MEASURE_CATEGORY],
            "transactionId": transaction_id(inquiry_id, start),
        }
        created = await self.client.post_json("/me/events", body, idempotent=True)
        return CalendarEvent(
            id=str(created.get("id", "")),
            subject=subject,
            start=start.astimezone(SYDNEY),
            end=end.astimezone(SYDNEY),
            location=location,
        )
