"""The approval window puts a complaining customer's flag first, in Chinese, before he approves."""

from __future__ import annotations

from core.events import NeedsAttention
from core.rhythm import attention
from desktop.approval.window import ApprovalWindow
from tests.drafts.support import CUSTOMER, add_inquiry


async def test_the_window_shows_the_complaint_first(  # type: ignore[no-untyped-def]
    qtbot, zh, services, folder_app, drafting, graph
):
    gid = graph.add_message(subject="Sliding door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(services, source_id=gid)
    calm_id, _ = add_inquiry(services, email="bob@example.com", name="Bob Steward")
    # the reason quotes the customer: his markup and bidi overrides must stay visible as such
    reason = "要求退款或赔偿：“refund” <a href='file:///C:/x.exe'>\u202eexe.pdf</a>"
    event = NeedsAttention("complaint", "inquiry", inquiry_id, reason)
    now = services.clock.now()
    services.store.write(lambda s: attention.record(s, event, now))
    shown: list[str] = []
    windows: list[ApprovalWindow] = []
    for target in (inquiry_id, calm_id):
        draft_id = await drafting.composer.compose(target, "报价15000含GST", actor="owner")
        window = ApprovalWindow(folder_app, drafting, draft_id)
        qtbot.addWidget(window)
        window.show()
        await window.ready()
        shown.append(window.warnings.text() if window.warnings.isVisibleTo(window) else "")
        windows.append(window)
    flagged, calm = shown
    assert flagged.startswith("⚠ <b>该客户在投诉：要求退款或赔偿：“refund” &lt;a href=")
    assert "<a " not in flagged and "\u202e" not in flagged and "⟨U+202E⟩exe.pdf" in flagged
    assert "，请先看一下再批准</b>" in flagged
    assert "该客户在投诉" not in calm
    for window in windows:  # closing the last window earlier would stop the loop
        window.close()
