"""A stage changed in the app moves the customer's OneDrive folder, once, and is not read back."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import select

from core.app import App
from core.app.graph_runtime import GraphRuntime
from core.db.models import DriveItem, Inquiry, StageEvent
from core.drive.stage_move import folder_for_stage
from core.graph.client import StaticToken
from core.services import Services
from tests.graph.test_drive import _inquiry  # one way to add an inquiry at a stage
from tests.support.graph_server import GraphServer


@pytest.fixture
def layout(graph: GraphServer) -> dict[str, str]:
    root = graph.drive_root_id
    folders = {
        name: graph.drive_add(name, parent_id=root, folder=True)
        for name in ("未报价顾客", "厂家已报价", "已报价顾客")  # no 已确定并付定金顾客 yet
    }
    folders["amy"] = graph.drive_add("Amy Lee - Ryde", parent_id=folders["未报价顾客"], folder=True)
    graph.drive_add("plan.pdf", parent_id=folders["amy"], content=b"%PDF")
    return folders


@pytest.fixture
async def app(services: Services, graph: GraphServer):
    services.settings.set("graph.base_url", graph.base_url)
    app = App(services)
    from core.intake.pipeline import build_pipeline

    runtime = app.graph(
        pipeline=build_pipeline(services, offline=True),
        token_provider=StaticToken(graph.token or ""),
    )
    yield app
    runtime.detach()
    await app.aclose()


def _moves(graph: GraphServer) -> list:
    return [r for r in graph.requests_to(r"/me/drive/items/[^/]+$", "PATCH")]


async def test_owner_stage_change_moves_folder_once_and_next_poll_changes_nothing(
    services: Services, graph: GraphServer, layout: dict[str, str], app: App
) -> None:
    runtime: GraphRuntime = app.graph()
    amy = _inquiry(services, "Amy Lee", "inquiry", customer_email="amy@example.com")
    first = await runtime.drive_round()
    assert first.matched == 1
    runtime.attach()
    graph.reset_stats()

    # inquiry → measure share 未报价顾客: nothing to move, nothing sent
    await app.inquiries.advance_stage(amy, "measure", reason="约好量尺")
    await runtime.drive.move_folders()
    assert _moves(graph) == []

    change = await app.inquiries.advance_stage(amy, "quoting", reason="报价已发给厂家")
    assert change is not None
    await runtime.drive.move_folders()  # the task the event started may still be in flight
    assert len(_moves(graph)) == 1
    assert graph.drive_item(layout["amy"])["parentReference"]["id"] == layout["厂家已报价"]

    again = await runtime.drive_round()
    assert again.stage_changes == [] and again.moved == 0 and again.folders_moved == 0
    assert len(_moves(graph)) == 1
    with services.store.session() as s:
        assert s.get(Inquiry, amy).stage == "quoting"
        events = list(s.scalars(select(StageEvent).where(StageEvent.inquiry_id == amy)))
    assert [(e.to_stage, e.triggered_by) for e in events] == [
        ("measure", "owner"),
        ("quoting", "owner"),
    ]
    assert (await runtime.drive_round()).items == 0  # idle afterwards


async def test_missing_stage_folder_is_created_and_a_name_clash_is_not_overwritten(
    services: Services, graph: GraphServer, layout: dict[str, str], app: App
) -> None:
    runtime = app.graph()
    amy = _inquiry(services, "Amy Lee", "follow_up", customer_email="amy@example.com")
    graph.drive_move(layout["amy"], layout["已报价顾客"])
    await runtime.drive_round()
    runtime.attach()
    assert folder_for_stage(services.settings.get("drive.stage_folders"), "ordered") == (
        "已确定并付定金顾客"
    )
    await app.inquiries.advance_stage(amy, "ordered", reason="定金已付")
    await runtime.drive.move_folders()
    [created] = [
        c for c in graph.drive_children(graph.drive_root_id) if c["name"] == "已确定并付定金顾客"
    ]
    assert graph.drive_item(layout["amy"])["parentReference"]["id"] == created["id"]
    report = await runtime.drive_round()
    assert report.stage_changes == []

    # another customer folder of the same name waits in 厂家已报价: the move renames, never replaces
    twin = graph.drive_add("Amy Lee - Ryde", parent_id=layout["厂家已报价"], folder=True)
    await app.inquiries.advance_stage(amy, "quoting", reason="重新报价", triggered_by="agent")
    await runtime.drive.move_folders()
    names = sorted(c["name"] for c in graph.drive_children(layout["厂家已报价"]))
    assert names == ["Amy Lee - Ryde", "Amy Lee - Ryde 1"]
    assert graph.drive_item(twin)["name"] == "Amy Lee - Ryde"
    with services.store.session() as s:
        assert s.get(Inquiry, amy).drive_folder_name == "Amy Lee - Ryde 1"
        assert s.get(DriveItem, layout["amy"]).parent_id == layout["厂家已报价"]
    after = await runtime.drive_round()
    assert after.stage_changes == [] and after.matched == 0
    with services.store.session() as s:
        assert s.get(Inquiry, amy).stage == "quoting"


async def test_moves_wait_for_the_next_round_when_published_off_the_loop(
    services: Services, graph: GraphServer, layout: dict[str, str], app: App
) -> None:
    """A stage moved by a synchronous caller (no running loop) is moved at the next round."""
    from core.inquiry.stages import StageService

    runtime = app.graph()
    amy = _inquiry(services, "Amy Lee", "measure", customer_email="amy@example.com")
    await runtime.drive_round()
    runtime.attach()
    import asyncio

    stages = StageService(services.store, services.bus, services.clock)
    await asyncio.to_thread(stages.advance, amy, "lost", reason="客户不做了", triggered_by="owner")
    await asyncio.to_thread(
        stages.advance, amy, "follow_up", reason="又回来了", triggered_by="owner"
    )
    graph.reset_stats()
    report = await runtime.drive_round()
    assert report.folders_moved == 1 and report.stage_changes == []
    assert graph.drive_item(layout["amy"])["parentReference"]["id"] == layout["已报价顾客"]
    assert (await runtime.drive_round()).stage_changes == []


async def test_demo_or_offline_stage_change_makes_no_graph_call_and_says_so(
    services: Services, graph: GraphServer, caplog: pytest.LogCaptureFixture
) -> None:
    demo = App(services, is_demo=True)
    amy = _inquiry(services, "Amy Lee", "measure")
    with caplog.at_level(logging.INFO, logger="core.app.facade"):
        await demo.inquiries.advance_stage(amy, "quoting", reason="demo")
    assert "OneDrive folder is not moved (demo data)" in caplog.text
    assert graph.requests == []
