"""Claims across processes: a conditional UPDATE decides, on both engines, with no lock of ours.

Two sessions (two desks, or a desk and ``serve``) both read an approved draft, then both try
to claim it for sending at the same instant. The store's writer lock is bypassed on purpose
(plain ``session()``), so only the conditional UPDATE stands between the owner's customer and
a second copy of the email.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any

from sqlalchemy import event, func, select

from core.db.models import Draft, DraftEvent, Inquiry, StageEvent
from core.drafts.send_claim import claim_for_send
from core.errors import DraftStateError, InquiryBridgeError
from core.inquiry.stages import change_stage
from core.services import Services
from tests.drafts.support import add_inquiry


def _approved_draft(services: Services) -> int:
    inquiry_id, _ = add_inquiry(services)
    now = services.clock.now().replace(tzinfo=None)

    def add(session: Any) -> int:
        draft = Draft(
            inquiry_id=inquiry_id,
            status="approved",
            to_addrs=["jane@example.com"],
            subject="Re: Sliding door quote",
            body_en="Hello Jane",
            body_zh="你好",
            created_at=now,
            updated_at=now,
        )
        session.add(draft)
        session.flush()
        return int(draft.id)

    return services.store.write(add)


def _race(services: Services, attempt: Any, statement: str) -> list[object]:
    """Run ``attempt(session)`` in two threads that both pass their read before either writes:
    each waits at its first ``statement`` (an UPDATE) until the other has reached it too."""
    engine = services.store.engine
    barrier = threading.Barrier(2, timeout=30)
    waited: set[int] = set()

    def hold(conn: Any, cursor: Any, sql: str, *args: Any) -> None:
        me = threading.get_ident()
        if sql.lstrip().upper().startswith(statement) and me not in waited:
            waited.add(me)
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait()

    outcomes: list[object] = [None, None]

    def run(i: int) -> None:
        try:
            with services.store.session() as session:
                outcomes[i] = attempt(session)
        except Exception as exc:  # the loser's refusal, whatever the engine says
            outcomes[i] = exc

    event.listen(engine, "before_cursor_execute", hold)
    try:
        threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    finally:
        event.remove(engine, "before_cursor_execute", hold)
    return outcomes


def test_two_desks_claiming_one_send_at_once_exactly_one_wins(services: Services) -> None:
    draft_id = _approved_draft(services)

    def claim(session: Any) -> object:
        return claim_for_send(
            session, draft_id, actor="owner", clock=services.clock, paths=services.paths
        )

    outcomes = _race(services, claim, "UPDATE DRAFTS")
    winners = [o for o in outcomes if isinstance(o, tuple)]
    losers = [o for o in outcomes if isinstance(o, Exception)]
    assert len(winners) == 1, outcomes
    assert len(losers) == 1
    if services.store.kind == "postgresql":  # SQLite refuses the stale writer as "locked"
        assert isinstance(losers[0], DraftStateError)
        assert "未发送" in str(losers[0])
    with services.store.session() as session:
        assert session.get(Draft, draft_id).status == "sending"  # type: ignore[union-attr]
        claims = session.scalar(
            select(func.count())
            .select_from(DraftEvent)
            .where(DraftEvent.draft_id == draft_id, DraftEvent.to_status == "sending")
        )
    assert claims == 1


def test_two_stage_moves_from_one_stage_record_one_move(services: Services) -> None:
    inquiry_id, _ = add_inquiry(services)
    targets = iter(["measure", "lost"])
    lock = threading.Lock()

    def move(session: Any) -> object:
        inquiry = session.get(Inquiry, inquiry_id)
        with lock:
            to = next(targets)
        return change_stage(
            session, inquiry, to, reason="test", triggered_by="owner", clock=services.clock
        )

    outcomes = _race(services, move, "UPDATE INQUIRIES")
    assert sum(1 for o in outcomes if isinstance(o, InquiryBridgeError | Exception)) == 1
    with services.store.session() as session:
        stage = session.get(Inquiry, inquiry_id).stage  # type: ignore[union-attr]
        moves = session.scalars(
            select(StageEvent.to_stage).where(StageEvent.inquiry_id == inquiry_id)
        ).all()
    moved = [m for m in moves if m != "inquiry"]
    assert moved == [stage]  # the stage on the board is the one move recorded
