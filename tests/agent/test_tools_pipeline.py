"""The pipeline through the assistant: a stage change audited as agent, and an audit that lists
every inquiry whose board stage, OneDrive folder and mail disagree — and changes nothing."""

from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import select

from core.db.models import DriveItem, Inquiry, StageEvent
from core.services import Services
from tests.agent.conftest import Model, add_customer, add_mail, run


def _drive(services: Services, folders: dict[str, str | None]) -> dict[str, str]:
    """The stage folders under the drive root, and customer folders {name: stage folder}."""
    now = services.clock.now().replace(tzinfo=None)
    ids = {"root": "root"}

    def do(session):  # type: ignore[no-untyped-def]
        session.add(DriveItem(id="root", name="root", parent_id=None, is_folder=True,
                              updated_at=now))  # fmt: skip
        for stage_folder in ("未报价顾客", "厂家已报价", "已报价顾客", "已确定并付定金顾客"):
            ids[stage_folder] = f"sf-{len(ids)}"
            session.add(DriveItem(id=ids[stage_folder], name=stage_folder, parent_id="root",
                                  is_folder=True, updated_at=now))  # fmt: skip
        for name, parent in folders.items():
            ids[name] = f"cf-{len(ids)}"
            session.add(DriveItem(id=ids[name], name=name, parent_id=ids.get(parent or "", "x"),
                                  is_folder=True, deleted=parent is None, updated_at=now))  # fmt: skip

    services.store.write(do)
    return ids


def _link(services: Services, inquiry_id: int, folder_id: str, name: str) -> None:
    def do(session):  # type: ignore[no-untyped-def]
        inquiry = session.get(Inquiry, inquiry_id)
        inquiry.drive_folder_id, inquiry.drive_folder_name = folder_id, name

    services.store.write(do)


async def test_audit_lists_disagreements_and_changes_nothing(
    services: Services, model: Model
) -> None:
    ids = _drive(services, {"Amy": "已报价顾客", "Carl": "已报价顾客", "Eve": "未报价顾客",
                            "Fay": None})  # fmt: skip
    amy = add_customer(services, "Amy", stage="inquiry")
    bob = add_customer(services, "Bob", stage="quoting")
    carl = add_customer(services, "Carl", stage="follow_up")
    dan = add_customer(services, "Dan", stage="lost", stage_days=3)
    eve = add_customer(services, "Eve", stage="measure")
    fay = add_customer(services, "Fay", stage="measure")
    for who, inquiry_id in (("Amy", amy), ("Carl", carl), ("Eve", eve), ("Fay", fay)):
        _link(services, inquiry_id, ids[who], who)
    add_mail(services, dan, subject="Still keen?", body="Can you still do it?",
             at=services.clock.now() - timedelta(days=1))  # fmt: skip

    reply = await run(model, ("audit_pipeline", {}))
    result = reply.tool_calls[0].result
    assert (
        result.startswith("PIPELINE_DISAGREEMENTS: 5 inquiries") and "Nothing was changed" in result
    )
    found = {
        i["inquiry_id"]: " ".join(i["problems"])
        for i in json.loads(result.split("\n", 1)[1])["inquiries"]
    }
    assert set(found) == {amy, bob, carl, dan, fay}
    assert "board stage is inquiry" in found[amy] and "已报价顾客" in found[amy]
    assert "no OneDrive folder" in found[bob]
    assert "no email to the customer was ever sent" in found[carl]
    assert "wrote after the job was closed" in found[dan]
    assert "no longer exists" in found[fay]
    with services.store.session() as s:
        assert s.scalars(select(StageEvent)).all() == []
        row = s.get(Inquiry, amy)
        assert row is not None and row.stage == "inquiry"


async def test_a_consistent_pipeline_says_so(services: Services, model: Model) -> None:
    add_customer(services, "Amy", stage="inquiry")
    reply = await run(model, ("audit_pipeline", {}))
    assert reply.tool_calls[0].result.startswith("PIPELINE_CONSISTENT")


async def test_change_stage_is_audited_as_agent(services: Services, model: Model) -> None:
    amy = add_customer(services, "Amy", stage="inquiry")
    reply = await run(
        model,
        ("change_stage", {"inquiry_id": amy, "to_stage": "measure", "reason": "约好量尺"}),
        ("change_stage", {"inquiry_id": amy, "to_stage": "measure", "reason": "again"}),
    )
    assert reply.tool_calls[0].result == f"STAGE_CHANGED inquiry {amy}: inquiry -> measure"
    assert reply.tool_calls[1].result.startswith("STAGE_UNCHANGED")
    with services.store.session() as s:
        [event] = s.scalars(select(StageEvent)).all()
        assert (event.to_stage, event.triggered_by, event.reason) == (
            "measure",
            "agent",
            "约好量尺",
        )


async def test_add_note_is_audited_as_agent(services: Services, model: Model) -> None:
    from core.db.models import AuditEntry, Memory

    amy = add_customer(services, "Amy", stage="inquiry")
    reply = await run(model, ("add_note", {"inquiry_id": amy, "text": "她只在周末有空"}))
    assert reply.tool_calls[0].result.startswith("NOTE_SAVED id=")
    with services.store.session() as s:
        [note] = s.scalars(select(Memory)).all()
        assert (note.kind, note.inquiry_id, note.source) == ("customer_note", amy, "agent")
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "add_note")).all()
        assert entry.actor == "agent"
