"""Property: no sequence of core calls other than the owner's approve reaches ``approved``.

Hypothesis drives every drafting entry point (composer, edits, decisions, reader) and the sender
— compose, revise, edits, fact confirmation, reject, send, send_due, reconcile, raw
``transition`` to any status, and ``approve`` itself with any non-owner actor — in random order,
and checks after every step that no draft is, or ever was, approved.

And by construction: nothing reachable from the assistant's ``ToolContext`` can approve, reject
or send (``test_no_tool_can_approve_or_send``).
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from pathlib import Path

import hypothesis.strategies as st
import pytest
from hypothesis import HealthCheck, settings
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from sqlalchemy import delete, select, update

from core.clock import FakeClock
from core.db.models import DRAFT_STATUSES, AuditEntry, Draft, DraftEvent
from core.drafts.drafting import build_drafting
from core.drafts.state import APPROVERS, TRANSITIONS, approve_transition, transition
from core.errors import InquiryBridgeError
from core.events import RecordingBus
from core.llm.client import LLMClient
from core.services import build_services
from tests.drafts.support import DraftingModel, add_inquiry
from tests.support.llm_server import LLMServer


def _clear(session) -> None:  # type: ignore[no-untyped-def]
    session.execute(delete(DraftEvent))
    session.execute(delete(AuditEntry))
    session.execute(update(Draft).values(revision_of=None))
    session.execute(delete(Draft))


NON_OWNER = st.sampled_from(
    ["agent", "assistant", "pipeline", "llm", "system", "tool", "Owner", ""]
)


class _Shared:
    """One data folder and LLM server for all examples (building them is the slow part);
    every example starts from an empty drafts table."""

    tmp: tempfile.TemporaryDirectory | None = None


@pytest.fixture(scope="module", autouse=True)
def shared_world():  # type: ignore[no-untyped-def]
    _Shared.tmp = tempfile.TemporaryDirectory()
    _Shared.model = DraftingModel()
    _Shared.server = LLMServer(_Shared.model).start()
    _Shared.services = build_services(Path(_Shared.tmp.name), clock=FakeClock(), bus=RecordingBus())
    _Shared.services.settings.update(
        {"llm.base_url": _Shared.server.base_url, "llm.max_retries": 0}
    )
    _Shared.inquiry_id, _ = add_inquiry(_Shared.services)
    yield
    _Shared.server.stop()
    _Shared.services.close()
    _Shared.tmp.cleanup()


class NoApprovalWithoutOwner(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.model = _Shared.model
        self.server = _Shared.server
        self.services = _Shared.services
        self.loop = asyncio.new_event_loop()
        self.services.store.write(_clear)
        self.llm = LLMClient(
            self.services.settings, self.services.secrets, self.services.store, self.services.clock
        )
        self.drafting = build_drafting(self.services, self.llm)  # no Outlook
        self.inquiry_id = _Shared.inquiry_id
        self.drafts: list[int] = []

    def run(self, coro):  # type: ignore[no-untyped-def]
        return self.loop.run_until_complete(coro)

    def teardown(self) -> None:
        self.run(self.llm.aclose())
        self.loop.close()

    def _attempt(self, fn) -> None:  # type: ignore[no-untyped-def]
        try:
            result = fn()
            if asyncio.iscoroutine(result):
                self.run(result)
        except InquiryBridgeError:
            pass  # refusals are fine; reaching approved is not

    @rule(
        instruction=st.sampled_from(["报价15000含GST", "下周二上午10点上门量尺", "谢谢，稍后报价"]),
        plant=st.booleans(),
    )
    def compose(self, instruction: str, plant: bool) -> None:
        self.model.plant = ["Total $16,500."] if plant else []
        self.drafts.append(
            self.run(self.drafting.composer.compose(self.inquiry_id, instruction, actor="agent"))
        )

    @precondition(lambda self: self.drafts)
    @rule(data=st.data())
    def revise(self, data: st.DataObject) -> None:
        draft_id = data.draw(st.sampled_from(self.drafts))
        with contextlib.suppress(InquiryBridgeError):
            self.drafts.append(
                self.run(self.drafting.composer.revise(draft_id, "语气更正式", actor="agent"))
            )

    @precondition(lambda self: self.drafts)
    @rule(data=st.data(), actor=NON_OWNER, accept=st.booleans())
    def approve_as_non_owner(self, data: st.DataObject, actor: str, accept: bool) -> None:
        draft_id = data.draw(st.sampled_from(self.drafts))
        self._attempt(
            lambda: self.drafting.decisions.approve(
                draft_id, actor=actor, accept_unconfirmed=accept
            )
        )

    @precondition(lambda self: self.drafts)
    @rule(data=st.data(), actor=NON_OWNER)
    def raw_transitions(self, data: st.DataObject, actor: str) -> None:
        draft_id = data.draw(st.sampled_from(self.drafts))
        target = data.draw(st.sampled_from(DRAFT_STATUSES))

        def do(session):  # type: ignore[no-untyped-def]
            draft = session.get(Draft, draft_id)
            if data.draw(st.booleans()):
                transition(session, draft, target, actor=actor, clock=self.services.clock)
            else:
                approve_transition(session, draft, actor=actor, clock=self.services.clock)

        self._attempt(lambda: self.services.store.write(do))

    @precondition(lambda self: self.drafts)
    @rule(
        data=st.data(),
        edit=st.sampled_from(["body", "confirm", "reject", "recipients", "files", "rerender"]),
    )
    def owner_side_edits(self, data: st.DataObject, edit: str) -> None:
        draft_id = data.draw(st.sampled_from(self.drafts))
        if edit == "body":
            self._attempt(
                lambda: self.drafting.edits.update_body(
                    draft_id, "Hi, the price is $15,000.", actor="agent"
                )
            )
        elif edit == "confirm":
            self._attempt(
                lambda: self.drafting.edits.confirm_facts(draft_id, ["$16,500"], actor="agent")
            )
        elif edit == "reject":
            self._attempt(lambda: self.drafting.decisions.reject(draft_id, actor="agent"))
        elif edit == "recipients":
            self._attempt(
                lambda: self.drafting.edits.set_recipients(
                    draft_id, ["jane@work.example.com"], actor="agent"
                )
            )
        elif edit == "files":
            self._attempt(lambda: self.drafting.edits.set_attachments(draft_id, [], actor="agent"))
        else:
            self._attempt(lambda: self.drafting.edits.rerender_zh(draft_id))

    @precondition(lambda self: self.drafts)
    @rule(data=st.data())
    def sending(self, data: st.DataObject) -> None:
        draft_id = data.draw(st.sampled_from(self.drafts))
        self._attempt(lambda: self.drafting.decisions.send(draft_id, actor="agent"))
        self._attempt(self.drafting.decisions.send_due)
        self._attempt(self.drafting.decisions.reconcile)
        self.run(self.drafting.reader.describe_for_tool(draft_id))

    @invariant()
    def nothing_approved(self) -> None:
        with self.services.store.session() as session:
            statuses = set(session.scalars(select(Draft.status)))
            reached = set(session.scalars(select(DraftEvent.to_status)))
        assert "approved" not in statuses and "sent" not in statuses
        assert "approved" not in reached and "sending" not in reached


NoApprovalWithoutOwner.TestCase.settings = settings(
    max_examples=20, stateful_step_count=10, deadline=None, suppress_health_check=list(HealthCheck)
)
TestNoApprovalWithoutOwner = NoApprovalWithoutOwner.TestCase


def test_the_table_has_no_ordinary_path_into_approved() -> None:
    assert all(
        "approved" not in targets for source, targets in TRANSITIONS.items() if source != "sending"
    )
    assert {"owner", "cli", "telegram"} == APPROVERS
