"""Fixtures of the tool tests: the real assistant loop over a loopback model that calls tools.

``model.steps`` is the script: each assistant round takes the next step — a list of tool calls
or the final text. The drafting model's structured calls (tier 2) get a fixed, fact-free email,
so drafts land in the approval queue without fact-guard flags. ``run`` plays one turn with one
tool call per round and returns the assistant's reply (``reply.tool_calls[i].result``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import pytest

from core.agent.loop import Assistant, AssistantReply
from core.agent.tools.drive_access import CustomerDrive
from core.app.standalone import own_graph_client
from core.clock import FakeClock, utc
from core.db.models import Attachment, Inquiry, Message
from core.drafts.drafting import build_drafting
from core.llm.client import LLMClient
from core.services import Services
from tests.support.graph_server import GraphServer
from tests.support.llm_server import LLMServer, schema_name

DRAFT = {
    "subject": "Plans for the sliding door",
    "body_en": "Hello,\n\nPlease find the plans attached.\n\nKind regards",
    "body_zh": "您好：\n\n附件是图纸。\n\n此致",
}


@dataclass
class Model:
    steps: list[Any] = field(default_factory=list)
    draft: dict[str, str] = field(default_factory=lambda: dict(DRAFT))
    assistant: Any = None
    server: Any = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, request: dict[str, Any]) -> Any:
        if schema_name(request):
            return self.draft
        with self._lock:
            return self.steps.pop(0) if self.steps else "好的。"


@pytest.fixture
async def model(services: Services):  # type: ignore[no-untyped-def]
    scripted = Model()
    with LLMServer(scripted) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        client = LLMClient(services.settings, services.secrets, services.store, services.clock)
        scripted.server = server
        drive = CustomerDrive(services, own_graph_client)  # a client of its own per call
        scripted.assistant = Assistant(
            services, client, build_drafting(services, client), drive=drive
        )
        yield scripted
        await client.aclose()


async def run(
    model: Model, *calls: tuple[str, dict[str, Any]], text: str = "?", answer: str = "好的。"
) -> AssistantReply:
    """One turn: each call in its own round, then ``answer``."""
    model.steps = [[{"name": name, "arguments": args}] for name, args in calls] + [answer]
    reply: AssistantReply = await model.assistant.ask(text)
    assert [c.name for c in reply.tool_calls] == [name for name, _ in calls]
    return reply


@pytest.fixture
def graph(
    clock: FakeClock, services: Services, monkeypatch: pytest.MonkeyPatch
) -> Iterator[GraphServer]:
    """A loopback Graph the data folder is signed in to (token from the environment)."""
    with GraphServer(page_size=5, now=clock.now) as srv:
        services.settings.update({"graph.base_url": srv.base_url})
        monkeypatch.setenv("INQUIRY_BRIDGE_GRAPH_TOKEN", str(srv.token))
        yield srv


def add_customer(
    services: Services,
    name: str,
    *,
    email: str | None = None,
    phone: str | None = None,
    suburb: str | None = None,
    stage: str = "inquiry",
    created: datetime | None = None,
    stage_days: float = 0,
    **fields: Any,
) -> int:
    """An inquiry row with its search text, as intake would store it."""
    from core.inquiry.search import refresh_search_text

    now = services.clock.now().replace(tzinfo=None)
    at = (created or services.clock.now()).replace(tzinfo=None)

    def do(session):  # type: ignore[no-untyped-def]
        inquiry = Inquiry(
            classification=fields.pop("classification", "A"),
            stage=stage,
            stage_changed_at=now - timedelta(days=stage_days),
            customer_name=name,
            customer_email=email,
            customer_phone=phone,
            suburb=suburb,
            created_at=at,
            updated_at=at,
            **fields,
        )
        refresh_search_text(inquiry)
        session.add(inquiry)
        session.flush()
        return inquiry.id

    return int(services.store.write(do))


def add_mail(
    services: Services,
    inquiry_id: int | None,
    *,
    subject: str,
    body: str,
    at: datetime,
    sender: str = "jane@example.com",
    direction: str = "in",
    attachments: tuple[tuple[str, bytes], ...] = (),
) -> int:
    """A message (and its stored attachments) as intake records it."""

    naive = utc(at).replace(tzinfo=None) if at.tzinfo else at

    def do(session):  # type: ignore[no-untyped-def]
        msg = Message(
            message_id=f"<{subject}-{naive.isoformat()}@example.com>",
            folder="inbox" if direction == "in" else "sent",
            direction=direction,
            from_addr=sender,
            from_name=sender.split("@")[0],
            subject=subject,
            received_at=naive,
            body_text=body,
            body_full=body,
            disposition="new_inquiry" if direction == "in" else "skipped:outgoing",
            inquiry_id=inquiry_id,
            created_at=naive,
            updated_at=naive,
        )
        session.add(msg)
        session.flush()
        for name, data in attachments:
            stored = services.paths.attachments / f"{msg.id}-{name}"
            stored.parent.mkdir(parents=True, exist_ok=True)
            stored.write_bytes(data)
            session.add(
                Attachment(
                    message_pk=msg.id,
                    filename=name,
                    size=len(data),
                    stored_path=str(stored),
                    content_type="application/pdf",
                )
            )
        if inquiry_id is not None:
            inquiry = session.get(Inquiry, inquiry_id)
            if direction == "in":
                inquiry.last_inbound_at = naive
            else:
                inquiry.last_outbound_at = naive
                inquiry.owes_reply = "customer"
        return msg.id

    return int(services.store.write(do))
