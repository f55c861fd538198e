"""The demo reads as recent whenever it is opened, and its stages agree with its mail.

Before, a demo opened months after it was loaded showed "260 天" reply debts, and an "ordered"
customer whose inquiry had never been answered.
"""

from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import select

from core.app import build_app
from core.clock import FakeClock, utc
from core.db.models import Draft, Message, StageEvent
from core.demo import demo_dir, load_demo, refresh_dates
from core.inquiry.board import BoardQuery
from core.inquiry.stages import ALL_STAGES

NEEDS_OUR_REPLY = {"measure", "follow_up", "ordered", "production", "install", "done"}


async def _load(services, clock):  # type: ignore[no-untyped-def]
    app = build_app(services.paths.demo_home, clock=clock, is_demo=True)
    await load_demo(app._services)
    return app


async def _debts_and_stage_days(app, now):  # type: ignore[no-untyped-def]
    rows = await app.inquiries.rows(BoardQuery(), limit=100)
    owed = [r.owes_since() for r in rows if r.owes_since() is not None]
    return [(utc(now) - utc(at)).days for at in owed], [r.days_in_stage(now) for r in rows]


async def test_the_demo_reads_as_recent_when_loaded_and_when_reopened_months_later(  # type: ignore[no-untyped-def]
    services,
) -> None:
    start = services.clock.now()
    clock = FakeClock(start)
    app = await _load(services, clock)
    try:
        debts, in_stage = await _debts_and_stage_days(app, start)
        assert debts and max(debts) <= 14 and min(debts) >= 0
        assert max(in_stage) <= 14
    finally:
        await app.aclose()
        app.close()

    later = start + timedelta(days=260)  # he comes back to the demo in the next spring
    clock = FakeClock(later)
    again = build_app(services.paths.demo_home, clock=clock, is_demo=True)
    try:
        assert refresh_dates(again._services) == timedelta(days=260)
        debts, in_stage = await _debts_and_stage_days(again, later)
        assert max(debts) <= 14 and max(in_stage) <= 14  # days, not "260 天"
        assert refresh_dates(again._services) == timedelta(0)  # once per opening, not twice
    finally:
        await again.aclose()
        again.close()


async def test_every_stage_move_of_the_demo_follows_its_mail(services) -> None:  # type: ignore[no-untyped-def]
    app = await _load(services, services.clock)
    try:
        rows = {r.id: r for r in await app.inquiries.rows(BoardQuery(), limit=100)}
        with app._services.store.session() as session:
            events = session.execute(
                select(StageEvent.inquiry_id, StageEvent.to_stage, StageEvent.at)
            ).all()
            messages = session.execute(
                select(Message.inquiry_id, Message.direction, Message.received_at)
            ).all()
    finally:
        await app.aclose()
        app.close()
    moves = json.loads((demo_dir() / "stages.json").read_text(encoding="utf-8"))["moves"]
    assert {m["stage"] for m in moves} <= set(ALL_STAGES) | {"lost"}
    for inquiry_id, stage, at in events:
        inbound = [r for i, d, r in messages if i == inquiry_id and d == "in"]
        ours = [r for i, d, r in messages if i == inquiry_id and d == "out"]
        assert inbound and min(inbound) <= at, (rows[inquiry_id].customer_name, stage)
        if stage in NEEDS_OUR_REPLY:  # booked, quoted or ordered: we must have written
            assert any(o <= at for o in ours), (rows[inquiry_id].customer_name, stage)
    # a customer past quoting is never one whose inquiry we left unanswered
    for row in rows.values():
        if row.stage in NEEDS_OUR_REPLY:
            assert row.last_outbound_at is not None, row.customer_name


async def test_trying_the_demo_again_neither_doubles_its_mail_nor_its_sample_drafts(  # type: ignore[no-untyped-def]
    services,
) -> None:
    """试用示例数据 after 退出示例 loads the demo again a few seconds later: its messages,
    re-dated by those seconds, used to be stored a second time under their reused Message-IDs."""
    clock = FakeClock(services.clock.now())
    app = await _load(services, clock)
    try:
        clock.advance(7)
        second = await load_demo(app._services)
        assert second.already_loaded
        with app._services.store.session() as session:
            refs = list(session.scalars(select(Message.source_ref)))
            drafts = session.scalars(select(Draft)).all()
        assert len(refs) == len(set(refs)) == len(list(demo_dir().glob("*.eml")))
        assert len(drafts) == 2 and {d.batch_id for d in drafts} == {"demo"}
        assert all(d.status == "pending_approval" and d.unconfirmed_facts == [] for d in drafts)
        assert all(d.body_en.startswith("Hi ") and "您好" in d.body_zh for d in drafts)
    finally:
        await app.aclose()
        app.close()
