"""Proposed measuring times on his phone: one button per time, and one press books the visit.

The owner (or the assistant) asks for three free times; his Telegram chat gets them with a ✅
button each. A stranger's press books nothing. His press confirms through the same path as the
desktop: the visit is booked in the store (an IMAP user here: no Outlook, the app's visits are
his calendar), the job moves to ``measure``, and the customer's confirmation waits as a draft
whose 发送 / 放弃 alert arrives at once. A press on a time another visit took meanwhile is
refused in one Chinese line, and nothing is booked twice.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from core.app import App
from core.db.models import Inquiry, Visit
from core.telegram.runner import TelegramRunner
from tests.notify.conftest import OWNER, STRANGER, add_inquiry, sydney
from tests.support.telegram_server import TelegramServer


async def _round(app: App) -> None:
    runner = TelegramRunner(app)
    try:
        await runner.run_once()
    finally:
        await runner.aclose()


def _visits(services: Any) -> list[tuple[int, str]]:
    with services.store.session() as session:
        return [(v.inquiry_id, v.status) for v in session.scalars(select(Visit))]


async def test_a_press_on_a_proposed_time_books_the_visit(
    services: Any, owner_env: TelegramServer, app: App
) -> None:
    # the clock: Wednesday 1 April 2026, 11:00 in Sydney (Good Friday and Easter Monday follow)
    mary = add_inquiry(services, customer_name="Mary Lee", customer_email="mary@example.com")
    proposal = await app.rhythm.visits.propose_free(mary)
    assert proposal.times == [
        sydney(2026, 4, 2, 8).isoformat(timespec="minutes"),
        sydney(2026, 4, 7, 8).isoformat(timespec="minutes"),
        sydney(2026, 4, 8, 8).isoformat(timespec="minutes"),
    ]
    # another customer is offered Tuesday 08:30 before Mary's time is booked
    tom = add_inquiry(services, customer_name="Tom Chan", customer_email="tom@example.com")
    await app.rhythm.visits.propose(tom, sydney(2026, 4, 7, 8, 30))
    await _round(app)
    offer = next(m for m in owner_env.sent_to(OWNER) if "Mary Lee" in m.visible and m.buttons())
    offer_tom = next(m for m in owner_env.sent_to(OWNER) if "Tom Chan" in m.visible and m.buttons())
    assert "上门时间待确认" in offer.visible
    assert "Mary Lee" in offer.visible and "2026-04-07 08:00" in offer.visible
    assert [b["text"] for b in offer.buttons()] == [
        "✅ 周四 4/2 08:00",
        "✅ 周二 4/7 08:00",
        "✅ 周三 4/8 08:00",
    ]

    owner_env.press(offer, "4/7", user_id=STRANGER)  # not his: nothing happens
    await _round(app)
    assert _visits(services) == []

    owner_env.press(offer, "4/7")
    await _round(app)
    assert _visits(services) == [(mary, "booked")]
    with services.store.session() as session:
        row = session.get(Inquiry, mary)
        assert row is not None and row.stage == "measure"
        (visit,) = session.scalars(select(Visit)).all()
        draft_id = visit.confirmation_draft_id
    assert draft_id is not None
    draft = await app.drafts.reader.get(draft_id)
    assert draft.status == "pending_approval" and "Tuesday 7 April 2026 at 8:00 am" in draft.body_en
    texts = [m.visible for m in owner_env.sent_to(OWNER)]
    assert any("已约好 2026-04-07 08:00 上门量尺" in t and f"草稿 #{draft_id}" in t for t in texts)
    alert = next(m for m in owner_env.sent_to(OWNER) if m.draft_buttons())
    assert "Mary Lee" in alert.visible  # its 发送 / 放弃 are on the phone now

    # Tom's 08:30 now overlaps Mary's visit: his press is refused in one line, nothing booked
    owner_env.press(offer_tom, "4/7")
    await _round(app)
    assert _visits(services) == [(mary, "booked")]
    assert any("冲突" in m.visible for m in owner_env.sent_to(OWNER)[-2:])
