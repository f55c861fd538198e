"""Today's numbers and what is waiting, through the assistant, on the injected clock's Sydney
day (00:30 in Sydney is still yesterday in UTC: it counts as today)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from core.agent.memory import save_memory
from core.clock import FakeClock, to_sydney
from core.db.models import Draft
from core.services import Services
from tests.agent.conftest import Model, add_customer, add_mail, run


def _sydney_today(clock: FakeClock, hour: int, minute: int = 0) -> datetime:
    local = to_sydney(clock.now())
    return local.replace(hour=hour, minute=minute, second=0, microsecond=0)


def _pending_draft(services: Services, inquiry_id: int) -> int:
    now = services.clock.now().replace(tzinfo=None)

    def do(session):  # type: ignore[no-untyped-def]
        draft = Draft(inquiry_id=inquiry_id, status="pending_approval", to_addrs=["a@b.com"],
                      subject="Quote", created_at=now, updated_at=now)  # fmt: skip
        session.add(draft)
        session.flush()
        return draft.id

    return int(services.store.write(do))


def _numbers(result: str) -> dict[str, Any]:
    numbers: dict[str, Any] = json.loads(result.split("\n", 1)[1])
    return numbers


async def test_today_numbers_count_the_sydney_day(
    services: Services, model: Model, clock: FakeClock
) -> None:
    early = add_customer(services, "Early Bird", created=_sydney_today(clock, 0, 30))
    yesterday = add_customer(
        services, "Late Owl", created=_sydney_today(clock, 0, 30) - timedelta(hours=2)
    )
    add_customer(services, "Spam Co", created=_sydney_today(clock, 8), classification="C")
    add_customer(services, "Old Job", created=clock.now() - timedelta(days=20), stage_days=10)
    add_mail(services, yesterday, subject="RE: quote", body="Here is our quote",
             at=_sydney_today(clock, 9), direction="out",
             sender="sales@aurorawindows.com.au")  # fmt: skip
    _pending_draft(services, early)

    reply = await run(model, ("today_numbers", {}))
    result = reply.tool_calls[0].result
    day = to_sydney(clock.now()).date().isoformat()
    assert result.startswith(
        f"TODAY {day} (Sydney): 2 new, 1 replied, 1 drafts waiting for approval (NOT sent), "
        "1 overdue"
    )
    numbers = _numbers(result)
    # the early bird and the old job; the spam is no customer, the late owl has his answer
    assert numbers["waiting_for_our_reply"] == 2


async def test_pending_items_list_what_waits_on_the_owner(
    services: Services, model: Model, clock: FakeClock
) -> None:
    jane = add_customer(services, "Jane Citizen", suburb="Ryde", address="12 Smith St")
    old = add_customer(services, "Old Job", stage_days=10)
    draft = _pending_draft(services, jane)
    save_memory(services, "boss_pref", "周三不上门", source="agent", proposal=True)
    tomorrow = (to_sydney(clock.now()) + timedelta(days=1)).strftime("%Y-%m-%d 10:00")

    reply = await run(
        model,
        ("propose_appointment", {"inquiry_id": jane, "start": tomorrow}),
        ("pending_items", {}),
    )
    result = reply.tool_calls[1].result
    assert result.startswith("PENDING: drafts_waiting_for_approval=1")
    items = _numbers(result)
    assert [d["draft_id"] for d in items["drafts_waiting_for_approval"]["items"]] == [draft]
    assert "NOT sent" in items["drafts_waiting_for_approval"]["items"][0]["status"]
    waiting = items["customers_waiting_for_our_reply"]["items"]
    assert {w["inquiry_id"] for w in waiting} == {jane, old}
    assert [o["inquiry_id"] for o in items["overdue"]["items"]] == [old]
    assert [a["inquiry_id"] for a in items["appointments_to_confirm"]["items"]] == [jane]
    assert [m["text"] for m in items["memories_to_confirm"]["items"]] == ["周三不上门"]
