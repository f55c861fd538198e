"""OneDrive and the factory through the assistant, over a loopback Graph: a customer's files
listed and read (PDF, Excel), his folder created once (audited as agent), a forward to the
factory drafted with the chosen files and never sent."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import select

from core.agent.conversation import drafts_written
from core.db.models import Attachment, AuditEntry, Draft, DraftEvent
from core.drive.watcher import DriveWatcher
from core.graph.client import GraphClient, StaticToken
from core.services import Services
from tests.agent.conftest import Model, add_customer, add_mail, run
from tests.graph.test_drive import _pdf, _xlsx
from tests.support.graph_server import GraphServer

FACTORY = "orders@factory.example.cn"


@pytest.fixture
async def synced(graph: GraphServer, services: Services) -> dict[str, object]:
    """Stage folders, Amy's folder with a plan, a quote workbook and a photo; one sync."""
    root = graph.drive_root_id
    folders = {
        name: graph.drive_add(name, parent_id=root, folder=True)
        for name in ("未报价顾客", "厂家已报价", "已报价顾客", "已确定并付定金顾客")
    }
    amy_folder = graph.drive_add("Amy Lee - Ryde", parent_id=folders["未报价顾客"], folder=True)
    plan = graph.drive_add(
        "plan.pdf", parent_id=amy_folder, content=_pdf("Sliding door 2400 x 2100")
    )
    quotes = graph.drive_add("quotes", parent_id=amy_folder, folder=True)
    graph.drive_add("v1.xlsx", parent_id=quotes, content=_xlsx())
    graph.drive_add("photo.jpg", parent_id=amy_folder, content=b"\xff\xd8\xff")
    graph.drive_add("notes.txt", parent_id=amy_folder, content=("尺寸 2400x2100。" * 2000).encode())
    amy = add_customer(services, "Amy Lee", email="amy@example.com", suburb="Ryde",
                       stage="measure")  # fmt: skip
    bob = add_customer(services, "Bob Builder", email="bob@build.com.au", suburb="Parramatta")
    client = GraphClient(graph.base_url, StaticToken(str(graph.token)), clock=services.clock)
    try:
        await DriveWatcher(
            client, services.store, services.settings, services.bus, services.clock
        ).run_once()
    finally:
        await client.aclose()
    return {"amy": amy, "bob": bob, "plan": plan, "folders": folders}


def _data(result: str) -> dict:  # type: ignore[type-arg]
    return json.loads(result.split("<data>")[1].split("</data>")[0])


async def test_list_and_read_a_customers_files(
    services: Services, model: Model, synced: dict
) -> None:  # type: ignore[type-arg]
    amy, bob = synced["amy"], synced["bob"]
    reply = await run(
        model,
        ("list_customer_files", {"inquiry_id": amy}),
        ("read_customer_file", {"inquiry_id": amy, "item_id": "plan.pdf"}),
        ("read_customer_file", {"inquiry_id": amy, "item_id": "quotes/v1.xlsx"}),
        ("read_customer_file", {"inquiry_id": amy, "item_id": "photo.jpg"}),
        ("list_customer_files", {"inquiry_id": bob}),
        ("read_customer_file", {"inquiry_id": amy, "item_id": "secret.txt"}),
    )
    listed, pdf, xlsx, photo, no_folder, missing = (c.result for c in reply.tool_calls)
    long_read = await run(
        model, ("read_customer_file", {"inquiry_id": amy, "item_id": "notes.txt"})
    )
    long = long_read.tool_calls[0].result
    assert listed.startswith("FOLDER 「Amy Lee - Ryde」: 4 files")
    assert [f["path"] for f in _data(listed)["files"]] == [
        "notes.txt",
        "photo.jpg",
        "plan.pdf",
        "quotes/v1.xlsx",
    ]
    text = _data(long)["text"]
    assert text.startswith("尺寸 2400x2100。") and text.endswith("[truncated: the file is longer]")
    assert len(text) < 6_100  # a session's whole prompt is 16,000 characters
    assert "Sliding door 2400 x 2100" in _data(pdf)["text"]
    assert "Sliding door | 2400 | 2100 | 3200" in _data(xlsx)["text"]
    assert photo.startswith("FILE_HAS_NO_TEXT") and "Do not guess" in photo
    assert no_folder.startswith("NO_FOLDER")
    assert missing.startswith("ERROR") and "secret.txt" in missing


async def test_create_customer_folder_once_audited_as_agent(
    services: Services, model: Model, graph: GraphServer, synced: dict
) -> None:  # type: ignore[type-arg]
    bob, amy = synced["bob"], synced["amy"]
    reply = await run(
        model,
        ("create_customer_folder", {"inquiry_id": bob}),
        ("create_customer_folder", {"inquiry_id": bob}),
        ("create_customer_folder", {"inquiry_id": amy}),
    )
    created, again, existing = (c.result for c in reply.tool_calls)
    assert created == f"FOLDER_CREATED 「Bob Builder - Parramatta」 in OneDrive for inquiry {bob}"
    assert again.startswith("FOLDER_EXISTS") and existing.startswith("FOLDER_EXISTS")
    stage_folder = synced["folders"]["未报价顾客"]
    names = [c["name"] for c in graph.drive_children(stage_folder)]
    assert names.count("Bob Builder - Parramatta") == 1
    with services.store.session() as s:
        rows = s.scalars(select(AuditEntry).where(AuditEntry.action == "drive_folder_created"))
        assert [(a.entity_id, a.actor) for a in rows] == [(bob, "agent")]


async def test_without_an_account_onedrive_says_so(services: Services, model: Model) -> None:
    amy = add_customer(services, "Amy Lee", email="amy@example.com")
    reply = await run(model, ("create_customer_folder", {"inquiry_id": amy}))
    assert reply.tool_calls[0].result.startswith("ERROR: ONEDRIVE_NOT_CONNECTED")


async def test_forward_to_factory_is_a_pending_draft_with_the_files(
    services: Services, model: Model, graph: GraphServer, synced: dict
) -> None:  # type: ignore[type-arg]
    amy = synced["amy"]
    add_mail(services, amy, subject="Plans", body="see attached", at=services.clock.now(),
             sender="amy@example.com", attachments=(("sketch.pdf", b"%PDF-1.4 sketch"),))  # fmt: skip
    with services.store.session() as s:
        sketch = s.scalar(select(Attachment.id).where(Attachment.filename == "sketch.pdf"))
    args = {"inquiry_id": amy, "instruction": "请工厂按图纸报价", "attachment_ids": [sketch],
            "drive_item_ids": [synced["plan"]]}  # fmt: skip

    refused = await run(model, ("forward_to_factory", args))
    assert refused.tool_calls[0].result.startswith("ERROR: NO_FACTORY_ADDRESS")
    services.settings.update({"drafts.factory_address": FACTORY})
    reply = await run(model, ("forward_to_factory", args))

    answer = json.loads(reply.tool_calls[0].result)
    assert answer["status"].startswith("DRAFT_PENDING_APPROVAL — NOT SENT")
    assert answer["to"] == [FACTORY]
    with services.store.session() as s:
        [draft] = s.scalars(select(Draft)).all()
        assert (draft.status, draft.to_addrs, draft.created_by) == (
            "pending_approval",
            [FACTORY],
            "agent",
        )
        files = {a.id: a for a in s.scalars(select(Attachment))}
        assert sorted(files[i].filename for i in draft.attachment_ids) == ["plan.pdf", "sketch.pdf"]
        assert drafts_written(reply) == (draft.id,)  # the approval window opens on it
        assert {e.to_status for e in s.scalars(select(DraftEvent))}.isdisjoint({"approved", "sent"})
        audited = s.scalars(select(AuditEntry).where(AuditEntry.action == "drive_file_attached"))
        assert [a.actor for a in audited] == ["agent"]
    assert graph.sent_log == []
    assert not [r for r in graph.requests if r.method == "POST" and "/me/" in r.path
                and "drive" not in r.path]  # fmt: skip
