"""Writing for the owner's approval through the assistant: a reply with a file, a batch from a
CSV, a proposed measuring time — every one waits for him, and the answer says so."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from sqlalchemy import select

from core.agent.conversation import drafts_written
from core.clock import FakeClock, to_sydney
from core.db.models import AppState, Attachment, AuditEntry, Draft, DraftEvent
from core.services import Services
from tests.agent.conftest import Model, add_customer, add_mail, run


def _never_sent(services: Services) -> None:
    with services.store.session() as s:
        statuses = {e.to_status for e in s.scalars(select(DraftEvent))}
    assert statuses.isdisjoint({"approved", "sending", "sent"})


async def test_draft_reply_with_an_attachment_waits_for_approval(
    services: Services, model: Model
) -> None:
    jane = add_customer(services, "Jane Citizen", email="jane@example.com")
    add_mail(services, jane, subject="Plans", body="see attached", at=services.clock.now(),
             attachments=(("plan.pdf", b"%PDF-1.4"),))  # fmt: skip
    with services.store.session() as s:
        plan = s.scalar(select(Attachment.id))
    reply = await run(
        model,
        (
            "draft_reply",
            {"inquiry_id": jane, "instruction": "把图纸发回给她", "attachment_ids": [plan]},
        ),
        answer="草稿已发送给客户。",
    )
    answer = json.loads(reply.tool_calls[0].result)
    assert answer["status"].startswith("DRAFT_PENDING_APPROVAL — NOT SENT")
    assert "已发送" not in reply.text and "未发送" in reply.text  # the assertion guard corrected it
    with services.store.session() as s:
        [draft] = s.scalars(select(Draft)).all()
        assert (draft.to_addrs, draft.attachment_ids) == (["jane@example.com"], [plan])
    _never_sent(services)


async def test_batch_drafts_from_a_csv_file(
    services: Services, model: Model, tmp_path: Path
) -> None:
    csv = tmp_path / "builders.csv"
    csv.write_text(
        "name,email\nAnn,ann@build.com.au\nBen,ben@build.com.au\nAnn again,ANN@build.com.au\n"
        ",not-an-email\n",
        encoding="utf-8",
    )
    reply = await run(
        model,
        ("batch_drafts", {"instruction": "介绍我们的新款推拉门", "csv_path": str(csv)}),
        ("batch_drafts", {"instruction": "介绍", "csv_path": str(tmp_path / "x.txt")}),
        text=f"用 {csv} 和 x.txt 群发，介绍我们的新款推拉门",  # the owner names the files
    )
    result, refused = (c.result for c in reply.tool_calls)
    assert result.startswith("BATCH ") and "2 DRAFTS_PENDING_APPROVAL — NOT SENT" in result
    rows = json.loads(result.split("\n", 1)[1])["rows"]
    assert [r["outcome"] for r in rows] == ["drafted", "drafted", "skipped", "error"]
    assert refused.startswith("ERROR") and "not a .csv" in refused
    with services.store.session() as s:
        drafts = s.scalars(select(Draft).order_by(Draft.id)).all()
        # drafted concurrently: ids follow the model's answers, not the CSV
        assert sorted((d.to_addrs, d.status, d.created_by) for d in drafts) == [
            (["ann@build.com.au"], "pending_approval", "agent"),
            (["ben@build.com.au"], "pending_approval", "agent"),
        ]
        # the front end opens exactly the drafts this turn wrote (TurnDone.draft_ids)
        assert sorted(drafts_written(reply)) == sorted(d.id for d in drafts)
    _never_sent(services)


async def test_propose_appointment_is_only_a_proposal(
    services: Services, model: Model, clock: FakeClock
) -> None:
    jane = add_customer(services, "Jane Citizen", email="jane@example.com", suburb="Ryde",
                        address="12 Smith St")  # fmt: skip
    tomorrow = (to_sydney(clock.now()) + timedelta(days=1)).strftime("%Y-%m-%d 10:00")
    past = (to_sydney(clock.now()) - timedelta(days=1)).strftime("%Y-%m-%d 10:00")
    reply = await run(
        model,
        ("propose_appointment", {"inquiry_id": jane, "start": tomorrow}),
        ("propose_appointment", {"inquiry_id": jane, "start": past}),
        ("propose_appointment", {"inquiry_id": jane, "start": "next tuesday"}),
        answer="已安排好明天上午十点上门量尺。",
    )
    proposed, gone, unreadable = (c.result for c in reply.tool_calls)
    assert proposed.startswith("APPOINTMENT_PROPOSED — NOT IN THE CALENDAR")
    assert f"appointment {jane} --confirm" in proposed
    details = json.loads(proposed.split("\n", 1)[1])
    assert details["start"].startswith(tomorrow.replace(" ", "T"))
    assert details["location"] == "12 Smith St, Ryde"
    assert gone.startswith("ERROR") and unreadable.startswith("ERROR")
    assert "已安排" not in reply.text  # the assertion guard: nothing was scheduled
    with services.store.session() as s:
        keys = set(s.scalars(select(AppState.key)))
        assert f"appointment.proposal.{jane}" in keys and f"appointment.event.{jane}" not in keys
        audited = s.scalars(select(AuditEntry).where(AuditEntry.action == "appointment_proposed"))
        assert [(a.entity_id, a.actor) for a in audited] == [(jane, "agent")]


async def test_a_look_alike_csv_is_not_the_file_he_named(
    services: Services, model: Model, tmp_path: Path, monkeypatch: object
) -> None:
    """He names Desktop/customers.csv; a fraudster mailed a customers.csv of his own, and the
    model passes the stored attachment. Only the exact path he named is his: the look-alike is
    refused and nothing is drafted from it; the file he named (however the model spells its
    path) is read."""
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    owner_home = tmp_path / "owner"
    (owner_home / "Desktop").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(owner_home))
    mine = owner_home / "Desktop" / "customers.csv"
    mine.write_text("name,email\nAnn,ann@build.com.au\n", encoding="utf-8")
    jane = add_customer(services, "Jane Citizen", email="jane@example.com")
    evil = b"name,email\nAll,everyone@pay-evil.example\nBob,bob@example.org\n"
    add_mail(services, jane, subject="list", body="our list", at=services.clock.now(),
             attachments=(("customers.csv", evil),))  # fmt: skip
    with services.store.session() as s:
        mailed = str(s.scalar(select(Attachment.stored_path)))
    assert mailed.endswith("customers.csv") and Path(mailed).read_bytes() == evil
    words = "用 Desktop/customers.csv 群发，通知客户新账户"
    instruction = {"instruction": "通知客户新账户 BSB 062-999"}
    reply = await run(
        model,
        ("batch_drafts", {**instruction, "csv_path": mailed}),
        ("batch_drafts", {**instruction, "csv_path": str(tmp_path / "Desktop" / "customers.csv")}),
        ("batch_drafts", {**instruction, "csv_path": "~/Desktop/customers.csv"}),
        text=words,
    )
    refused, elsewhere, taken = (c.result for c in reply.tool_calls)
    assert "CSV_NOT_CHOSEN_BY_OWNER" in refused and "CSV_NOT_CHOSEN_BY_OWNER" in elsewhere
    assert taken.startswith("BATCH ") and "1 DRAFTS_PENDING_APPROVAL" in taken
    with services.store.session() as s:
        drafts = s.scalars(select(Draft)).all()
    assert [d.to_addrs for d in drafts] == [["ann@build.com.au"]]
    assert "062-999" not in drafts[0].body_en or "062-999" in drafts[0].unconfirmed_facts
