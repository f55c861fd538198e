"""A board over 50,000 inquiries updates the one row an approval changed, without re-reading its
page: the approval window's operation says what it changed (``OpChanges``), the board re-reads
that row by id, and the statements the store sees prove it (counted with SQLAlchemy's
``before_cursor_execute``)."""

from __future__ import annotations

from datetime import timedelta

from PySide6.QtCore import Qt
from sqlalchemy import text

from core.db.models import ALL_STAGES
from core.inquiry.board import COLUMNS
from core.services import Services
from desktop.approval.window import ApprovalWindow
from desktop.board.model import FIRST_PAGE
from desktop.board.view import BoardPage
from desktop.context import AppContext
from desktop.hub import SignalHub
from tests.drafts.support import CUSTOMER, add_inquiry
from tests.support.qt import wait_until
from tests.support.sql_seen import statements_sent

BOARD_SIZE = 50_000
ROW_SELECT = "AS pending_drafts"  # the board's row query (``core.inquiry.board._row_select``)


def bulk_inquiries(services: Services, n: int) -> None:
    """``n`` plain inquiries in one INSERT … SELECT over a counter (SQLite): a second or two,
    where row-by-row seeding of 50,000 takes minutes on a busy machine."""
    stamp = (services.clock.now().replace(tzinfo=None) - timedelta(days=3)).isoformat(sep=" ")
    stage = " ".join(f"WHEN {i} THEN '{s}'" for i, s in enumerate(ALL_STAGES))

    def do(session):  # type: ignore[no-untyped-def]
        session.execute(
            text(
                f"""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < :n)
                INSERT INTO inquiries (classification, confidence, stage, stage_changed_at,
                    customer_name, customer_email, suburb, product_types, dimensions, language,
                    owes_reply, last_inbound_at, last_contact_at, context_data, search_text,
                    created_at, updated_at)
                SELECT 'A', 'high', CASE i % {len(ALL_STAGES)} {stage} END, :at, 'Customer ' || i, 'c' || i || '@example.com', 'Ryde', '[]', '[]',
                    'en', 'customer', :at, :at, '{{}}', 'customer ' || i, :at, :at
                FROM n
                """
            ),
            {"n": n, "at": stamp},
        )

    services.store.write(do)


async def test_an_approval_re_reads_one_row_of_a_50k_board_not_its_page(  # type: ignore[no-untyped-def]
    qtbot, zh, services, folder_app, drafting, graph
):
    gid = graph.add_message(subject="Sliding door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(services, source_id=gid, name="Aaron Able")
    draft_id = await drafting.composer.compose(
        inquiry_id, "报价15000含GST，下周二上午10点上门量尺", actor="owner"
    )
    bulk_inquiries(services, BOARD_SIZE)
    hub = SignalHub(folder_app.bus)
    board = BoardPage(AppContext(app=folder_app, hub=hub))
    qtbot.addWidget(board)
    board.show()
    await board.ready()
    board.table.sortByColumn(COLUMNS.index("customer"), Qt.SortOrder.AscendingOrder)
    await board.ready()
    model = board.model
    assert model.total == BOARD_SIZE + 1 and model.rowCount() == FIRST_PAGE
    position = model.row_of(inquiry_id)
    assert position == 0  # "Aaron Able" before every "Customer n"
    owes = COLUMNS.index("owes")
    assert str(model.data(model.index(position, owes))).startswith("待我们回复")
    needs_me = model.needs_me_total

    window = ApprovalWindow(folder_app, drafting, draft_id, hub=hub)
    qtbot.addWidget(window)
    window.show()
    await window.ready()
    with statements_sent(services.store.engine) as sent:
        qtbot.mouseClick(window.approve_button, Qt.MouseButton.LeftButton)
        await wait_until(lambda: window.view is not None and window.view.status == "sent")

        def row_says_sent() -> bool:
            shown = str(model.data(model.index(model.row_of(inquiry_id), owes)))
            return shown.startswith("等客户回复")

        await wait_until(row_says_sent)
        await board.ready()
    assert len(graph.sent_log) == 1

    seen = [x.sql for x in sent]
    board_reads = [s for s in seen if ROW_SELECT in s]
    # the row, re-read by id: once per burst of changes (approve, send), never the page
    assert 1 <= len(board_reads) <= 3, board_reads
    assert all(" IN (" in s and "LIMIT" not in s for s in board_reads), board_reads
    assert not [s for s in seen if "GROUP BY inquiries.stage" in s]  # no stage-bar recount
    assert not [s for s in seen if "LIMIT" in s and "FROM inquiries" in s]  # no page
    # the row kept its place; the counts moved with it, the total stayed
    assert model.row_of(inquiry_id) == position and model.rowCount() == FIRST_PAGE
    assert model.total == BOARD_SIZE + 1
    assert model.needs_me_total == needs_me - 1  # he owed a reply and had a draft waiting
    assert board.needs_me.text().endswith(f"({needs_me - 1})")
    window.close()
    hub.detach()
