"""OneDrive watcher: folder moves between stage folders change the stage (audited); renames don't."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from openpyxl import Workbook
from sqlalchemy import select

from core.db.models import DriveItem, Inquiry, StageEvent
from core.drive.files import download, list_customer_files, read_text
from core.drive.watcher import DriveWatcher
from core.events import InquiryCreated, StageChanged
from core.graph.client import GraphClient, StaticToken
from core.services import Services
from tests.support.graph_server import GraphServer


def _pdf(text: str) -> bytes:
    """A one-page PDF with real text, written by hand (no PDF writer in the stack)."""
    stream = f"BT /F1 18 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % n + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for off in offsets:
        out.write(b"%010d 00000 n \n" % off)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    )
    return out.getvalue()


def _xlsx() -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.title = "Quote"
    ws.append(["Item", "Width", "Height", "Price"])
    ws.append(["Sliding door", 2400, 2100, 3200])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _inquiry(services: Services, name: str, stage: str, **kw) -> int:
    now = services.clock.now().replace(tzinfo=None)

    def _add(session) -> int:
        inquiry = Inquiry(
            customer_name=name,
            stage=stage,
            stage_changed_at=now,
            created_at=now,
            updated_at=now,
            **kw,
        )
        session.add(inquiry)
        session.flush()
        return inquiry.id

    return services.store.write(_add)


@pytest.fixture
def layout(graph: GraphServer) -> dict[str, str]:
    root = graph.drive_root_id
    folders = {
        name: graph.drive_add(name, parent_id=root, folder=True)
        for name in ("未报价顾客", "厂家已报价", "已报价顾客", "已确定并付定金顾客", "Other")
    }
    amy = graph.drive_add("Amy Lee - Ryde", parent_id=folders["未报价顾客"], folder=True)
    graph.drive_add("plan.pdf", parent_id=amy, content=_pdf("Sliding door 2400 x 2100"))
    sub = graph.drive_add("quotes", parent_id=amy, folder=True)
    graph.drive_add("v1.xlsx", parent_id=sub, content=_xlsx())
    folders["amy"] = amy
    folders["bob"] = graph.drive_add(
        "0413 222 333 Bob", parent_id=folders["已报价顾客"], folder=True
    )
    return folders


@pytest.fixture
async def watcher(graph: GraphServer, services: Services):
    client = GraphClient(graph.base_url, StaticToken("test-token"), clock=services.clock)
    yield DriveWatcher(
        client, services.store, services.settings, services.bus, services.clock, page_size=3
    )
    await client.aclose()


def _stage(services: Services, inquiry_id: int) -> str:
    with services.store.session() as s:
        return s.get(Inquiry, inquiry_id).stage


def _events(services: Services, inquiry_id: int) -> list[StageEvent]:
    with services.store.session() as s:
        return list(s.scalars(select(StageEvent).where(StageEvent.inquiry_id == inquiry_id)))


async def test_move_changes_stage_with_audit_rename_does_not(
    graph: GraphServer, services: Services, watcher: DriveWatcher, layout: dict[str, str]
) -> None:
    amy = _inquiry(services, "Amy Lee", "measure", customer_email="amy@example.com")
    bob = _inquiry(services, "Robert Smith", "follow_up", customer_phone="+61413222333")
    first = await watcher.run_once()
    assert first.matched == 2 and first.stage_changes == []
    with services.store.session() as s:
        assert s.get(Inquiry, amy).drive_folder_id == layout["amy"]
        assert s.get(Inquiry, bob).drive_folder_id == layout["bob"]  # matched by phone

    graph.drive_rename(layout["amy"], "Amy LEE (Ryde) 2026")
    renamed = await watcher.run_once()
    assert renamed.renamed == 1 and renamed.stage_changes == []
    assert _stage(services, amy) == "measure"
    with services.store.session() as s:
        assert s.get(Inquiry, amy).drive_folder_name == "Amy LEE (Ryde) 2026"

    graph.drive_move(layout["amy"], layout["厂家已报价"])
    moved = await watcher.run_once()
    assert moved.moved == 1
    assert _stage(services, amy) == "quoting"
    [event] = [e for e in _events(services, amy)]
    assert (event.from_stage, event.to_stage, event.triggered_by) == (
        "measure",
        "quoting",
        "onedrive",
    )
    assert "厂家已报价" in event.reason
    assert any(
        isinstance(e, StageChanged) and e.triggered_by == "onedrive" for e in services.bus.events
    )

    # a folder moved into a stage folder whose stages already include the inquiry's: no change
    with services.store.session() as s:
        s.get(Inquiry, bob).stage = "production"
    graph.drive_move(layout["bob"], layout["已确定并付定金顾客"])
    assert (await watcher.run_once()).stage_changes == []
    assert _stage(services, bob) == "production"

    # a move out of the stage folders and a rename+move in one round (item listed twice)
    graph.drive_rename(layout["amy"], "Amy Lee")
    graph.drive_move(layout["amy"], layout["已报价顾客"])
    both = await watcher.run_once()
    assert [c.to_stage for c in both.stage_changes] == ["follow_up"]


async def test_idle_poll_is_one_request_and_410_resyncs(
    graph: GraphServer, services: Services, watcher: DriveWatcher, layout: dict[str, str]
) -> None:
    amy = _inquiry(services, "Amy Lee", "inquiry")
    await watcher.run_once()
    graph.reset_stats()
    idle = await watcher.run_once()
    assert idle.delta_requests == 1 and len(graph.requests) == 1 and idle.items == 0

    gone = graph.drive_children(layout["amy"])[0]["id"]
    graph.drive_delete(gone)
    graph.expire_drive_state()
    graph.drive_move(layout["amy"], layout["厂家已报价"])
    resync = await watcher.run_once()
    assert resync.resynced
    assert _stage(services, amy) == "quoting"  # a move during the outage still counts
    with services.store.session() as s:
        assert s.get(DriveItem, gone).deleted
    assert (await watcher.run_once()).delta_requests == 1


async def test_customer_files_list_download_and_read(
    graph: GraphServer,
    services: Services,
    watcher: DriveWatcher,
    layout: dict[str, str],
    tmp_path: Path,
) -> None:
    amy = _inquiry(services, "Amy Lee", "inquiry")
    await watcher.run_once()
    files = list_customer_files(services.store, amy)
    assert [f.path for f in files] == ["plan.pdf", "quotes/v1.xlsx"]
    pdf = await download(watcher.client, files[0].item_id, tmp_path, name=files[0].name)
    assert "Sliding door 2400 x 2100" in await read_text(pdf)
    xlsx = await download(watcher.client, files[1].item_id, tmp_path, name=files[1].name)
    text = await read_text(xlsx)
    assert "[sheet Quote]" in text and "Sliding door | 2400 | 2100 | 3200" in text


async def test_new_inquiry_gets_a_folder_when_enabled(
    graph: GraphServer, services: Services, watcher: DriveWatcher, layout: dict[str, str]
) -> None:
    services.settings.set("drive.create_customer_folders", True)
    await watcher.run_once()
    watcher.attach()
    new = _inquiry(services, "Chen Wei", "inquiry", suburb="Hurstville")
    services.bus.publish(InquiryCreated(new))
    report = await watcher.run_once()
    assert report.folders_created == 1
    names = [c["name"] for c in graph.drive_children(layout["未报价顾客"])]
    assert "Chen Wei - Hurstville" in names
    # the next delta lists the new folder; it stays linked, no duplicate, no stage change
    again = await watcher.run_once()
    assert again.stage_changes == [] and again.folders_created == 0
    with services.store.session() as s:
        assert s.get(Inquiry, new).drive_folder_name == "Chen Wei - Hurstville"
    watcher.detach()
