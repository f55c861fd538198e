""" "改一下" through the assistant, seen on the desktop: the approval window that shows the old
draft says it was replaced and will not approve it, and the 待审批 list offers only the new one.

Real widgets offscreen, the real assistant loop over a loopback model that calls
``revise_draft``, the desktop's own drafting on the same store and event bus.
"""

from __future__ import annotations

from typing import Any

import pytest

from core.agent.conversation import Conversation
from core.agent.loop import Assistant
from desktop.approval.pending_view import PendingDraftsView
from desktop.approval.window import ApprovalWindow
from desktop.hub import SignalHub
from tests.drafts.support import CUSTOMER, DraftingModel, add_inquiry
from tests.support.llm_server import schema_name
from tests.support.qt import wait_until


class AssistantModel(DraftingModel):
    """Drafts like ``DraftingModel``; as the assistant, plays ``steps`` (tool calls, then text)."""

    def __init__(self) -> None:
        super().__init__()
        self.steps: list[Any] = []

    def __call__(self, request: dict[str, Any]) -> Any:
        if request.get("tools") and not schema_name(request):
            return self.steps.pop(0) if self.steps else "好的。"
        return super().__call__(request)


@pytest.fixture
def model() -> AssistantModel:
    return AssistantModel()


async def test_a_revision_by_the_assistant_retires_the_old_draft_on_the_desktop(  # type: ignore[no-untyped-def]
    qtbot, zh, services, folder_app, drafting, graph, llm, model
) -> None:
    gid = graph.add_message(subject="Sliding door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(services, source_id=gid)
    old = await drafting.composer.compose(inquiry_id, "报价 $800", actor="owner")
    hub = SignalHub(services.bus)
    queue = PendingDraftsView(folder_app, hub, drafting=drafting)
    qtbot.addWidget(queue)
    await queue.ready()
    window = queue.open_draft(old)
    assert isinstance(window, ApprovalWindow)
    await window.ready()
    assert window.approve_button.isEnabled()

    talk = Conversation("desk", "desktop", Assistant(services, llm, drafting, channel="desktop"))
    talk.current_inquiry_id = inquiry_id
    model.steps = [
        [{"name": "revise_draft", "arguments": {"draft_id": old, "instruction": "改成 $750"}}],
        "已修改。",
    ]
    await talk.ask("改一下，改成 $750")

    await wait_until(lambda: window.view is not None and window.view.status == "superseded")
    assert window.banner.text() == "已被修改稿取代 — 未发送"
    assert not window.approve_button.isEnabled() and not window.revise_button.isEnabled()
    await wait_until(lambda: [v.id for v in queue.views] == [old + 1])
    assert queue.pending_count() == 1 and queue.table.rowCount() == 1
    first = queue.table.item(0, 0)
    assert first is not None and first.text() == str(old + 1)
    assert graph.sent_log == []
    window.close()
    hub.detach()
