"""The approval window with real widgets: approve → exactly one send; 放弃 → none."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from desktop.approval.window import ApprovalWindow
from tests.drafts.support import CUSTOMER, add_inquiry, add_sent
from tests.support.qt import wait_until


async def _draft(services, drafting, graph, model=None, plant=None) -> int:  # type: ignore[no-untyped-def]
    gid = graph.add_message(subject="Sliding door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(services, source_id=gid)
    if model is not None and plant:
        model.plant = plant
    return await drafting.composer.compose(
        inquiry_id, "报价15000含GST，下周二上午10点上门量尺", actor="owner"
    )


async def test_approve_sends_exactly_once(qtbot, zh, services, folder_app, drafting, graph):
    draft_id = await _draft(services, drafting, graph)
    window = ApprovalWindow(folder_app, drafting, draft_id)
    qtbot.addWidget(window)
    window.show()
    await window.ready()
    assert window.banner.text() == "未发送 — 等待您批准"
    assert window.approve_button.text() == "批准并发送"
    assert "$15,000" in window.en_edit.toPlainText()
    assert "您好" in window.zh_preview.toPlainText()
    assert window.approve_button.isEnabled()

    qtbot.mouseClick(window.approve_button, Qt.MouseButton.LeftButton)
    await wait_until(
        lambda: window.view is not None and window.view.status == "sent" and not window.busy
    )
    assert window.banner.text() == "已发送"
    assert window.status_label.text() == "已发送"
    assert len(graph.sent_log) == 1
    assert not window.approve_button.isEnabled()  # a second click cannot send again
    qtbot.mouseClick(window.approve_button, Qt.MouseButton.LeftButton)
    await wait_until(lambda: not window.busy)
    assert len(graph.sent_log) == 1
    assert (await drafting.reader.events(draft_id))[-3].actor == "owner"
    window.close()


async def test_discard_sends_nothing(qtbot, zh, services, folder_app, drafting, graph):
    draft_id = await _draft(services, drafting, graph)
    window = ApprovalWindow(folder_app, drafting, draft_id)
    qtbot.addWidget(window)
    window.show()
    await window.ready()
    qtbot.mouseClick(window.reject_button, Qt.MouseButton.LeftButton)
    await wait_until(lambda: window.view.status == "rejected")
    assert window.banner.text() == "已放弃 — 未发送"
    assert not window.approve_button.isEnabled()
    assert graph.sent_log == [] and graph.requests_to(r"/me/messages") == []
    window.close()


async def test_unconfirmed_and_recent_warnings_gate_approval(
    qtbot, zh, services, folder_app, drafting, graph, model
):
    draft_id = await _draft(services, drafting, graph, model, ["The total is $16,500."])
    add_sent(services, to=CUSTOMER, subject="RE: Brochure", days_ago=3)
    window = ApprovalWindow(folder_app, drafting, draft_id)
    qtbot.addWidget(window)
    window.show()
    await window.ready()
    warnings = window.warnings.text()
    assert "最近 14 天内已给该客户发过邮件" in warnings and "RE: Brochure" in warnings
    assert "未经确认" in warnings and "$16,500" in warnings
    assert len(window.en_edit.extraSelections()) == 1  # the value is highlighted
    assert not window.approve_button.isEnabled()
    assert window.confirm_check.isVisible()
    window.confirm_check.setChecked(True)
    assert window.approve_button.isEnabled()
    status = await window.approve_and_send()
    assert status == "sent" and len(graph.sent_log) == 1
    assert "$16,500" in (await drafting.reader.get(draft_id)).confirmed_facts
    window.close()


async def test_edit_recipient_warns_and_revise_supersedes(
    qtbot, zh, services, folder_app, drafting, graph
):
    draft_id = await _draft(services, drafting, graph)
    window = ApprovalWindow(folder_app, drafting, draft_id)
    qtbot.addWidget(window)
    window.show()
    await window.ready()
    window.to_edit.setText("boss@other.example.com")
    window._on_edit()
    assert await window.save_edits()
    assert "不是该询盘的客户" in window.warnings.text()
    window.revise_edit.setText("语气更正式一点")
    new_id = await window.revise()
    assert new_id and new_id != draft_id and window.draft_id == new_id
    assert (await drafting.reader.get(draft_id)).status == "superseded"
    assert window.view.to == ["boss@other.example.com"]
    assert window.banner.text() == "未发送 — 等待您批准"
    assert graph.sent_log == []
    window.close()


async def test_send_error_keeps_the_draft_with_chinese_message(
    qtbot, zh, services, folder_app, drafting, graph
):
    draft_id = await _draft(services, drafting, graph)
    graph.fail(path=r"/send$", status=400, code="ErrorInvalidRecipients")
    window = ApprovalWindow(folder_app, drafting, draft_id)
    qtbot.addWidget(window)
    window.show()
    await window.ready()
    assert await window.approve_and_send() == "failed"
    assert window.banner.text() == "未发送 — 发送失败，草稿已保留"
    assert "未发送" in window.status_label.text() and "草稿已保留" in window.status_label.text()
    assert graph.sent_log == [] and (await drafting.reader.get(draft_id)).status == "failed"
    window.close()


async def test_pending_view_lists_and_counts(qtbot, zh, services, folder_app, drafting, graph):
    from desktop.approval.pending_view import PendingDraftsView
    from desktop.hub import SignalHub

    hub = SignalHub(services.bus)
    view = PendingDraftsView(folder_app, hub, drafting=drafting)
    qtbot.addWidget(view)
    await view.ready()
    assert view.pending_count() == 0 and view.summary.text() == "没有待审批的草稿。"
    draft_id = await _draft(services, drafting, graph)
    await wait_until(lambda: view.pending_count() == 1)
    assert view.table.item(0, 0).text() == str(draft_id)
    assert view.table.item(0, 4).text() == "待审批"
    window = view.open_row(0)
    assert isinstance(window, ApprovalWindow)
    await window.ready()
    await drafting.decisions.reject(draft_id, actor="owner")
    await wait_until(lambda: view.pending_count() == 0)
    window.close()
    hub.detach()


async def test_screenshot_factory_makes_a_demo_draft(qtbot, zh, services, folder_app):
    from desktop.approval.screenshot import make_approval_window

    window = await make_approval_window(folder_app)
    qtbot.addWidget(window)
    assert window.view.status == "pending_approval"
    assert "最近 14 天内" in window.warnings.text() and "未经确认" in window.warnings.text()
    out = services.home / "approval.png"
    assert window.grab().save(str(out)) and out.stat().st_size > 10_000
    window.close()


@pytest.mark.qt_log_ignore("does not support propagateSizeHints")  # offscreen dialogs
async def test_compose_dialog_writes_a_draft_and_opens_review(
    qtbot, zh, services, folder_app, drafting, graph
):
    from desktop.approval.compose_dialog import ComposeDialog
    from desktop.voice.dictation import DictationButton

    inquiry_id, _ = add_inquiry(services)
    add_sent(services, to=CUSTOMER, subject="RE: Brochure", days_ago=2)
    dialog = ComposeDialog(folder_app, drafting, inquiry_id)
    qtbot.addWidget(dialog)
    dialog.show()
    await wait_until(lambda: dialog.recent_label.isVisible())
    assert "RE: Brochure" in dialog.recent_label.text()
    assert isinstance(dialog.dictation, DictationButton)
    assert not dialog.compose_button.isEnabled()
    dialog.instruction.setPlainText("报价15000含GST")
    assert dialog.compose_button.isEnabled()
    draft_id = await dialog.compose()
    assert (
        draft_id is not None and (await drafting.reader.get(draft_id)).status == "pending_approval"
    )
    window = dialog.approval_window
    assert isinstance(window, ApprovalWindow)
    await window.ready()
    assert window.banner.text() == "未发送 — 等待您批准"
    assert graph.sent_log == []
    window.close()


async def test_attachment_checklist_updates_the_draft_and_the_customer_gets_the_file(
    qtbot, zh, services, folder_app, drafting, graph
):
    from sqlalchemy import select

    from core.db.models import AuditEntry
    from tests.drafts.test_attachments import add_file

    gid = graph.add_message(subject="Sliding door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, msg_pk = add_inquiry(services, source_id=gid)
    plan = add_file(services, msg_pk, "plan.pdf", b"%PDF plan" * 100)
    add_file(services, msg_pk, "video.zip", None)  # not stored: shown, cannot be ticked
    draft_id = await drafting.composer.compose(inquiry_id, "报价15000含GST", actor="owner")
    window = ApprovalWindow(folder_app, drafting, draft_id)
    qtbot.addWidget(window)
    window.show()
    await window.ready()
    assert window.files_label.text() == "附件"
    items = [window.files_list.item(i) for i in range(window.files_list.count())]
    assert [i.text().split("  ")[0] for i in items] == ["plan.pdf", "video.zip"]
    assert "900 B" in items[0].text()
    assert "无法附加" in items[1].text() and not items[1].flags() & Qt.ItemFlag.ItemIsEnabled
    assert window.files_note.text() == "已选 0 个附件，共 0 B"

    items[0].setCheckState(Qt.CheckState.Checked)  # the owner ticks the plan
    await wait_until(lambda: window.view.attachment_ids == [plan])
    await window.ready()
    assert window.files_note.text() == "已选 1 个附件，共 900 B"
    with services.store.session() as s:
        [entry] = s.scalars(select(AuditEntry).where(AuditEntry.action == "attachments"))
        assert entry.actor == "owner" and entry.detail["added"] == [plan]

    assert await window.approve_and_send() == "sent"
    [sent] = graph.sent_log
    assert [name for name, _, _ in sent["attachments"]] == ["plan.pdf"]
    assert not window.files_list.isEnabled()  # a sent email's files cannot change
    window.close()


async def test_over_the_send_limit_is_warned(qtbot, zh, services, folder_app, drafting, graph):
    from tests.drafts.test_attachments import add_file

    gid = graph.add_message(subject="Plans", from_addr=CUSTOMER)
    inquiry_id, msg_pk = add_inquiry(services, source_id=gid)
    big = [add_file(services, msg_pk, f"part{i}.zip", bytes(18 * 1024 * 1024)) for i in range(2)]
    draft_id = await drafting.composer.compose(
        inquiry_id, "报价15000", actor="owner", attachment_ids=big
    )
    window = ApprovalWindow(folder_app, drafting, draft_id)
    qtbot.addWidget(window)
    window.show()
    await window.ready()
    assert "附件合计 36.0 MB，超过 Outlook 通常的 35 MB 上限" in window.warnings.text()
    window.close()


async def test_values_only_the_model_wrote_are_highlighted_and_gate_approval(
    qtbot, zh, services, folder_app, drafting, graph, model
):
    """The assistant drafted with its own instruction (new bank details, a pay link): the
    owner's words of the turn are the instruction of record, so every value is unconfirmed."""
    gid = graph.add_message(subject="Sliding door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(services, source_id=gid)
    model.plant = ["Deposit to BSB 062-999, account 1234 5678, or https://pay.example.net/d/1."]
    draft_id = await drafting.composer.compose(
        inquiry_id,
        "定金转到 BSB 062-999 账号 1234 5678，或 https://pay.example.net/d/1",  # the model's
        actor="agent",
        of_record="帮我回复这个客户",  # the owner's words of the turn
    )
    window = ApprovalWindow(folder_app, drafting, draft_id)
    qtbot.addWidget(window)
    window.show()
    await window.ready()
    assert {"062-999", "1234 5678", "https://pay.example.net/d/1"} <= set(
        window.view.unconfirmed_facts
    )
    assert "062-999" in window.warnings.text()
    assert len(window.en_edit.extraSelections()) >= 3  # each value is highlighted
    assert not window.approve_button.isEnabled() and window.confirm_check.isVisible()
    assert window.view.instruction == "帮我回复这个客户"
    assert graph.sent_log == []
    window.close()
