from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.models import Inquiry, StageEvent
from core.events import StageChanged
from core.inquiry.stages import (
    StageError,
    StageService,
    is_overdue,
    record_initial_stage,
    stage_history,
)
from core.services import Services


def _new_inquiry(services: Services) -> int:
    def _do(session: Session) -> int:
        now = services.clock.now().replace(tzinfo=None)
        inquiry = Inquiry(stage="inquiry", stage_changed_at=now, created_at=now, updated_at=now)
        session.add(inquiry)
        session.flush()
        record_initial_stage(
            session, inquiry, reason="new", triggered_by="pipeline", clock=services.clock
        )
        return inquiry.id

    return services.store.write(_do)


def test_advance_writes_audit_and_event(services) -> None:  # type: ignore[no-untyped-def]
    iid = _new_inquiry(services)
    stages = StageService(services.store, services.bus, services.clock)
    change = stages.advance(iid, "measure", reason="booked", triggered_by="owner")
    assert change and change.from_stage == "inquiry"
    assert stages.advance(iid, "measure", reason="again", triggered_by="owner") is None
    with services.store.session() as s:
        events = s.scalars(
            select(StageEvent).where(StageEvent.inquiry_id == iid).order_by(StageEvent.id)
        ).all()
        assert [(e.from_stage, e.to_stage, e.triggered_by) for e in events] == [
            (None, "inquiry", "pipeline"),
            ("inquiry", "measure", "owner"),
        ]
        assert [h["to"] for h in stage_history(s, iid)] == ["inquiry", "measure"]
        # stored once: the rows are the history, the inquiry keeps no copy to disagree with
        assert "stage_history" not in (s.get(Inquiry, iid).context_data or {})
    assert [e for e in services.bus.events if isinstance(e, StageChanged)][-1].to_stage == "measure"


def test_unknown_stage_and_trigger_are_refused(services) -> None:  # type: ignore[no-untyped-def]
    iid = _new_inquiry(services)
    stages = StageService(services.store, services.bus, services.clock)
    with pytest.raises(StageError):
        stages.advance(iid, "shipped", reason="", triggered_by="owner")
    with pytest.raises(StageError):
        stages.advance(iid, "measure", reason="", triggered_by="martians")


def test_overdue_after_stage_timeout(services) -> None:  # type: ignore[no-untyped-def]
    # entered on Wed 1 April 2026 (Sydney); Good Friday and Easter Monday do not count, so the
    # two working days of "inquiry" are Thu 2 and Tue 7 April: overdue from Wed 8 April
    iid = _new_inquiry(services)
    with services.store.session() as s:
        inquiry = s.get(Inquiry, iid)
        assert not is_overdue(inquiry, services.clock.now() + timedelta(days=6))
        assert is_overdue(inquiry, services.clock.now() + timedelta(days=7))
