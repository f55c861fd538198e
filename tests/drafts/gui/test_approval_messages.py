"""The approval window's messages say what is true: the 14-day warning never points at the email
just sent, a value the two panes disagree on is said to disagree (not "not in your instruction"),
and 正在翻译成中文… goes once the Chinese is in."""

from __future__ import annotations

from dataclasses import replace

from desktop.approval.panels import warning_items
from desktop.approval.window import ApprovalWindow
from tests.drafts.support import CUSTOMER, add_inquiry


async def _window(qtbot, services, folder_app, drafting, graph) -> ApprovalWindow:  # type: ignore[no-untyped-def]
    gid = graph.add_message(subject="Sliding door quote", from_addr=CUSTOMER, body="Quote please")
    inquiry_id, _ = add_inquiry(services, source_id=gid)
    draft_id = await drafting.composer.compose(
        inquiry_id, "报价15000含GST，下周二上午10点上门量尺", actor="owner"
    )
    window = ApprovalWindow(folder_app, drafting, draft_id)
    qtbot.addWidget(window)
    window.show()
    await window.ready()
    return window


async def test_the_recent_mail_warning_never_points_at_the_email_just_sent(  # type: ignore[no-untyped-def]
    qtbot, zh, services, folder_app, drafting, graph
):
    window = await _window(qtbot, services, folder_app, drafting, graph)
    assert "最近 14 天内已给该客户发过邮件" not in window.warnings.text()
    assert await window.approve_and_send() == "sent"
    await window.ready()
    assert window.view is not None and window.view.status == "sent"
    assert "最近 14 天内已给该客户发过邮件" not in window.warnings.text()
    window.close()


async def test_a_value_he_typed_is_his_and_a_disagreement_is_called_one(  # type: ignore[no-untyped-def]
    qtbot, zh, services, folder_app, drafting, graph
):
    window = await _window(qtbot, services, folder_app, drafting, graph)
    english = window.en_edit.toPlainText()
    assert "$15,000" in english
    window.en_edit.setPlainText(english.replace("$15,000", "$15,500"))  # he types it himself
    window._on_edit()
    assert await window.save_edits()
    assert window.view is not None and "$15,500" not in window.view.unconfirmed_facts
    assert "不在您的指示或往来邮件中" not in window.warnings.text()

    # the Chinese he reads says another price than the English: that is the reason given
    view = window.view
    disagreeing = replace(
        view, body_zh="您好，报价 16000 澳元（含 GST）。", unconfirmed_facts=["$15,500"]
    )
    lines = " ".join(warning_items(disagreeing, [], 14, []))
    assert "中文译文和要发出的英文不一致：$15,500" in lines
    assert "不在您的指示或往来邮件中" not in lines
    window.close()


async def test_translating_goes_away_once_the_chinese_is_in(  # type: ignore[no-untyped-def]
    qtbot, zh, services, folder_app, drafting, graph
):
    window = await _window(qtbot, services, folder_app, drafting, graph)
    await window.rerender()  # 重新翻译
    assert "正在翻译" not in window.status_label.text()
    assert window.status_label.text() == "中文已是最新。"
    window.close()
