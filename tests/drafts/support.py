"""Shared helpers of the drafting tests: real rows in the store, a drafting LLM responder.

The responder plays a plausible tier-2 model: it reads the owner's instruction from the request
(between <instruction> tags), writes an English email carrying the instruction's values, and adds
whatever sentences a test "plants" (invented prices, dates, phones) so the fact guard can be
measured.
"""

from __future__ import annotations

import re
import threading
from datetime import datetime, timedelta
from typing import Any

from core.db.models import Inquiry, Message
from core.services import Services
from tests.support.llm_server import last_user_text, schema_name

CUSTOMER = "jane.citizen@example.com"


def add_inquiry(
    services: Services,
    *,
    email: str = CUSTOMER,
    name: str = "Jane Citizen",
    body: str = "Hi, we need a sliding door 2400 x 2100 for 12 Smith St, Ryde. Call me 0412 345 678.",
    subject: str = "Sliding door quote",
    source_id: str | None = None,
    language: str = "en",
    received: datetime | None = None,
) -> tuple[int, int]:
    """An inquiry with one inbound message; returns (inquiry id, message pk)."""
    now = (received or services.clock.now()).replace(tzinfo=None)

    def do(session):  # type: ignore[no-untyped-def]
        inquiry = Inquiry(
            classification="B",
            stage="inquiry",
            stage_changed_at=now,
            customer_name=name,
            customer_email=email,
            customer_phone="+61412345678",
            address="12 Smith St",
            suburb="Ryde",
            product_types=["sliding_door"],
            dimensions=["2400 x 2100 mm"],
            language=language,
            created_at=now,
            updated_at=now,
        )
        session.add(inquiry)
        session.flush()
        msg = Message(
            message_id=f"<{inquiry.id}-{now.timestamp()}@example.com>",
            source_id=source_id,
            source="graph" if source_id else "eml",
            folder="inbox",
            direction="in",
            from_addr=email,
            from_name=name,
            to_addrs=["sales@aurorawindows.com.au"],
            subject=subject,
            received_at=now,
            body_text=body,
            body_full=body,
            disposition="new_inquiry",
            inquiry_id=inquiry.id,
            created_at=now,
            updated_at=now,
        )
        session.add(msg)
        session.flush()
        return inquiry.id, msg.id

    ids: tuple[int, int] = services.store.write(do)
    return ids


def add_sent(
    services: Services, *, to: str, subject: str, days_ago: float, inquiry_id: int | None = None
) -> None:
    """A message from Sent Items (as the Graph sync records it)."""
    at = (services.clock.now() - timedelta(days=days_ago)).replace(tzinfo=None)

    def do(session):  # type: ignore[no-untyped-def]
        session.add(
            Message(
                message_id=f"<sent-{to}-{days_ago}@aurora>",
                folder="sent",
                direction="out",
                from_addr="sales@aurorawindows.com.au",
                to_addrs=[to],
                subject=subject,
                received_at=at,
                disposition="skipped:outgoing",
                inquiry_id=inquiry_id,
                created_at=at,
                updated_at=at,
            )
        )

    services.store.write(do)


def _between(text: str, tag: str) -> str:
    m = re.search(rf"<{tag}>\s*(.*?)\s*</{tag}>", text, re.S)
    return m.group(1) if m else ""


_CN_WEEKDAYS = {
    "一": "Monday",
    "二": "Tuesday",
    "三": "Wednesday",
    "四": "Thursday",
    "五": "Friday",
}


class DraftingModel:
    """A responder for LLMServer that writes drafts like a careful model would, plus plants."""

    def __init__(self) -> None:
        self.plant: list[str] = []  # sentences added to the next drafts (invented facts)
        self.extra_email: str | None = None  # an address the "model" puts in the body
        self.calls: list[str] = []
        self.broken = 0  # the next N answers break the schema (LLM repair round included)
        self.broken_for: set[str] = set()  # answers about these addresses always break
        self.chinese: dict[str, str] = {}  # the Chinese it wrote beside each English body
        self._lock = threading.Lock()

    def __call__(self, request: dict[str, Any]) -> Any:
        name = schema_name(request)
        user = last_user_text(request)
        with self._lock:
            self.calls.append(name or "")
            if self.broken > 0:
                self.broken -= 1
                return {"subject": "broken"}
            everything = " ".join(str(m.get("content")) for m in request.get("messages", []))
            if any(address in everything for address in self.broken_for):
                return {"subject": "broken"}
        if name == "chineserendering":  # its own Chinese for an English it wrote, else a gloss
            body = _between(user, "email")
            english = body.partition("\n\n")[2].strip()
            known = self.chinese.get(english)
            return {"body_zh": known or "【中文】" + body.replace("Thank you", "谢谢")}
        instructions = re.findall(r"<instruction>\s*(.*?)\s*</instruction>", user, re.S)
        instruction = instructions[-1] if instructions else ""
        greeting = "Hi there,"
        m = re.search(r"Reply to: (\S+)", user)
        if m and m.group(1) not in {"<", ""}:
            greeting = f"Hi {m.group(1)},"
        lines = ["Thank you for your enquiry."]
        for amount in re.findall(r"(\d{3,})", instruction):
            lines.append(f"Our price is ${int(amount):,} including GST.")
        day = re.search(r"周([一二三四五])", instruction)
        if day:
            time = " at 10am" if "上午10点" in instruction else ""
            lines.append(f"We can come out to measure on {_CN_WEEKDAYS[day.group(1)]}{time}.")
        if "折" in instruction or "更正式" in instruction:
            lines.append("We would be pleased to assist with your project.")
        lines += self.plant
        if self.extra_email:
            lines.append(f"You can also write to {self.extra_email}.")
        body = f"{greeting}\n\n" + " ".join(lines) + "\n\nKind regards,\nAurora Windows & Doors"
        zh = "您好，\n\n" + "；".join(lines) + "\n\n此致\nAurora Windows & Doors"
        self.chinese[body.strip()] = zh
        return {"subject": "Your quote from Aurora", "body_en": body, "body_zh": zh}
