"""A send shows on the board and in the thread at once, from the send itself: the row says
等客户回复 and the thread holds the reply before any sync has read the Sent folder."""

from __future__ import annotations

from PySide6.QtCore import Qt

from core.inquiry.board import COLUMNS
from desktop.approval.window import ApprovalWindow
from desktop.board.view import BoardPage
from desktop.context import AppContext
from desktop.hub import SignalHub
from tests.drafts.support import CUSTOMER, add_inquiry
from tests.support.qt import wait_until


async def test_after_a_send_the_row_waits_for_the_customer_and_the_thread_has_the_reply(  # type: ignore[no-untyped-def]
    qtbot, zh, services, folder_app, drafting, graph
):
    gid = graph.add_message(subject="Sliding door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(services, source_id=gid)
    draft_id = await drafting.composer.compose(
        inquiry_id, "报价15000含GST，下周二上午10点上门量尺", actor="owner"
    )
    hub = SignalHub(folder_app.bus)
    board = BoardPage(AppContext(app=folder_app, hub=hub))
    qtbot.addWidget(board)
    board.show()
    await board.ready()
    owes = COLUMNS.index("owes")
    row = board.model.row_of(inquiry_id)
    assert board.model.data(board.model.index(row, owes)).startswith("待我们回复")
    board.select_inquiry(inquiry_id)
    await board.detail.ready()
    assert len(board.detail.thread_panel.cards) == 1  # the customer's mail

    window = ApprovalWindow(folder_app, drafting, draft_id)
    qtbot.addWidget(window)
    window.show()
    await window.ready()
    qtbot.mouseClick(window.approve_button, Qt.MouseButton.LeftButton)
    await wait_until(lambda: window.view is not None and window.view.status == "sent")
    assert len(graph.sent_log) == 1

    # no sync has run: the board and the thread learn it from the send
    def waits_for_customer() -> bool:
        r = board.model.row_of(inquiry_id)
        return str(board.model.data(board.model.index(r, owes))).startswith("等客户回复")

    await wait_until(waits_for_customer)
    await wait_until(lambda: len(board.detail.thread_panel.cards) == 2)
    sent = [c for c in board.detail.thread_panel.cards.values() if c.message.direction == "out"]
    assert len(sent) == 1 and "$15,000" in sent[0].body.text()
    assert sent[0].header.text().startswith("我们发给")
    await board.ready()
    await board.detail.ready()
    window.close()
    hub.detach()
