"""Helpers for the pipeline tests: synthetic emails and a model played by simple rules.

Not tests themselves. ``make_email`` builds real RFC 5322 bytes with ``email.message``;
``ScriptedModel`` is the responder of a ``tests.support.llm_server.LLMServer`` that answers the
classification and extraction prompts from a per-subject script, so a test states exactly what
"the model" said about each message and checks what the pipeline did with it.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any

from core.mail.source import RawMessage
from tests.support.llm_server import last_user_text, system_text

BASE_TIME = datetime(2026, 3, 23, 9, 0, tzinfo=UTC)


def make_email(
    *,
    subject: str,
    body: str,
    sender: str = "Jane Citizen <jane.citizen@example.com>",
    to: str = "Aurora Windows & Doors <sales@aurorawindows.com.au>",
    message_id: str | None = "auto",
    in_reply_to: str | None = None,
    references: list[str] | None = None,
    reply_to: str | None = None,
    minutes: int = 0,
    headers: dict[str, str] | None = None,
    attachments: list[tuple[str, str, bytes]] = (),  # type: ignore[assignment]
) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(BASE_TIME + timedelta(minutes=minutes))
    if message_id == "auto":
        slug = re.sub(r"\W+", ".", subject.lower()).strip(".")[:40]
        message_id = f"<{slug}.{minutes}@test.example>"
    if message_id:
        msg["Message-ID"] = message_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    if references:
        msg["References"] = " ".join(references)
    if reply_to:
        msg["Reply-To"] = reply_to
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    for filename, ctype, payload in attachments:
        maintype, subtype = ctype.split("/", 1)
        msg.add_attachment(payload, maintype=maintype, subtype=subtype, filename=filename)
    return bytes(msg)


def raw(data: bytes, name: str = "x.eml", **kw: Any) -> RawMessage:
    return RawMessage(raw=data, source="eml", source_ref=name, **kw)


def message_id_of(data: bytes) -> str:
    match = re.search(rb"^Message-ID: (<[^>]+>)", data, re.M | re.I)
    assert match, "no Message-ID"
    return match.group(1).decode()


@dataclass
class Verdict:
    """What the scripted model says about one email (keyed by a subject substring)."""

    labels: list[str]
    confidence: str = "high"
    name: str | None = None
    phone: str | None = None
    address: str | None = None
    suburb: str | None = None
    products: list[str] = field(default_factory=list)
    dimensions: list[str] = field(default_factory=list)
    new_project: bool = False


def is_classify(request: dict[str, Any]) -> bool:
    return "sort incoming email" in system_text(request)


def is_extract(request: dict[str, Any]) -> bool:
    return "extract the facts" in system_text(request)


def prompt_subject(request: dict[str, Any]) -> str:
    match = re.search(r"^Subject: (.*)$", last_user_text(request), re.M)
    return match.group(1).strip() if match else ""


def classification_answer(v: Verdict) -> dict[str, Any]:
    return {
        "labels": v.labels,
        "confidence": v.confidence,
        "reason": "scripted",
        "has_site_address": bool(v.address),
        "needs_measure": "A" in v.labels,
        "has_sizes": bool(v.dimensions),
        "new_project": v.new_project,
    }


def extraction_answer(v: Verdict, language: str = "en") -> dict[str, Any]:
    return {
        "customer_name": v.name,
        "email": None,
        "phone": v.phone,
        "address": v.address,
        "suburb": v.suburb,
        "product_types": v.products,
        "dimensions": v.dimensions,
        "urgency": "normal",
        "language": language,
    }


class ScriptedModel:
    """Responder: answers classify/extract prompts from ``script`` (subject substring → Verdict).

    Unknown subjects are "C, not an inquiry". Counts calls per kind (thread-safe).
    """

    def __init__(self, script: dict[str, Verdict] | None = None) -> None:
        self.script = dict(script or {})
        self.calls: dict[str, int] = {"classify": 0, "extract": 0, "other": 0}
        self.prompts: list[str] = []
        self._lock = threading.Lock()

    def verdict(self, subject: str) -> Verdict:
        for key in reversed(list(self.script)):  # the key a test added last wins
            if key.lower() in subject.lower():
                return self.script[key]
        return Verdict(["C"])

    def __call__(self, request: dict[str, Any]) -> Any:
        subject = prompt_subject(request)
        with self._lock:
            self.prompts.append(last_user_text(request))
        if is_classify(request):
            with self._lock:
                self.calls["classify"] += 1
            return classification_answer(self.verdict(subject))
        if is_extract(request):
            with self._lock:
                self.calls["extract"] += 1
            return extraction_answer(self.verdict(subject))
        with self._lock:
            self.calls["other"] += 1
        return "ok"
