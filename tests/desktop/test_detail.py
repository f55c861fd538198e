"""The inquiry detail: every owner action goes through a core service and leaves an audit entry."""

from __future__ import annotations

from sqlalchemy import select

from core.db.models import AuditEntry, Inquiry, Memory, Message, StageEvent
from core.events import InquiryUpdated, StageChanged
from desktop.detail import InquiryDetailView
from tests.desktop.seed import seed_inquiries
from tests.support.llm_server import LLMServer, last_user_text
from tests.support.qt import settles


async def _view(ctx, qtbot, **seed):  # type: ignore[no-untyped-def]
    ids = seed_inquiries(ctx.app._services, 3, **seed)
    view = InquiryDetailView(ctx)
    qtbot.addWidget(view)
    view.show_inquiry(ids[1])
    await view.ready()
    return view, ids[1]


@settles
async def test_field_edits_are_audited_and_normalised(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    view, iid = await _view(ctx, qtbot)
    view.fields["customer_phone"].setText("0412 345 678")
    view.fields["customer_phone"].textEdited.emit("0412 345 678")
    view.fields["suburb"].setText("Castle Hill")
    view.product_actions["bifold_door"].setChecked(True)
    assert view.save_button.isEnabled()
    changed = await view.save_fields()
    assert set(changed) == {"customer_phone", "suburb", "product_types"}
    with ctx.app._services.store.session() as s:
        inquiry = s.get(Inquiry, iid)
        assert inquiry.customer_phone == "+61412345678"
        assert "bifold_door" in inquiry.product_types
        assert "castle hill" in inquiry.search_text and "0412345678" in inquiry.search_text
        audit = s.scalars(select(AuditEntry).where(AuditEntry.entity_id == iid)).all()
        assert {a.detail["field"] for a in audit} == set(changed)
        assert {a.actor for a in audit} == {"owner"}
        phone = next(a for a in audit if a.detail["field"] == "customer_phone")
        assert phone.detail["new"] == "+61412345678" and phone.detail["old"] != phone.detail["new"]
    assert any(
        isinstance(e, InquiryUpdated) and e.inquiry_id == iid for e in ctx.app._services.bus.events
    )
    assert view.fields["customer_phone"].text() == "0412 345 678"  # as he dials it
    assert not view.save_button.isEnabled()


@settles
async def test_invalid_email_is_refused_with_a_chinese_message(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    view, iid = await _view(ctx, qtbot)
    view.fields["customer_email"].setText("not-an-email")
    assert await view.save_fields() == ()
    from PySide6.QtWidgets import QMessageBox

    boxes = view.findChildren(QMessageBox)
    assert boxes and "邮箱格式不对" in boxes[-1].text()
    with ctx.app._services.store.session() as s:
        assert "@" in s.get(Inquiry, iid).customer_email
        assert s.scalars(select(AuditEntry)).all() == []


@settles
async def test_advance_and_lose_go_through_stage_service(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    view, iid = await _view(ctx, qtbot)
    before = view.detail.stage
    target = "done" if before != "done" else "install"
    assert await view.advance_stage(target, "测量完成")
    assert view.detail.stage == target
    assert view.history.topLevelItemCount() == 2
    assert view.history.topLevelItem(1).text(3) == "测量完成"
    assert view.history.topLevelItem(1).text(4) == "老板"
    if target != "done":
        assert await view.mark_lost("选了别家")
    with ctx.app._services.store.session() as s:
        events = s.scalars(
            select(StageEvent).where(StageEvent.inquiry_id == iid).order_by(StageEvent.id)
        ).all()
        assert (events[-1].triggered_by, events[1].reason) == ("owner", "测量完成")
    assert any(
        isinstance(e, StageChanged) and e.to_stage == target for e in ctx.app._services.bus.events
    )


@settles
async def test_add_note_creates_a_customer_note_memory(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    view, iid = await _view(ctx, qtbot)
    view.note_edit.setPlainText("客户喜欢黑色边框")
    note_id = await view.add_note(view.note_edit.toPlainText())
    assert view.notes.count() == 1 and "黑色边框" in view.notes.item(0).text()
    assert view.note_edit.toPlainText() == ""
    with ctx.app._services.store.session() as s:
        memory = s.get(Memory, note_id)
        assert (memory.kind, memory.inquiry_id, memory.status) == ("customer_note", iid, "active")
        audit = s.scalars(select(AuditEntry).where(AuditEntry.entity == "note")).one()
        assert audit.actor == "owner"


@settles
async def test_translate_button_uses_tier2_once_and_caches(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    seen: list[str] = []

    def responder(request):  # type: ignore[no-untyped-def]
        seen.append(request["model"])
        assert "sliding door" in last_user_text(request)
        return "您好，能否报价一扇 2400 x 2100 的推拉门？谢谢"

    with LLMServer(responder) as server:
        ctx.app._services.settings.set("llm.base_url", server.base_url)
        view, _iid = await _view(ctx, qtbot, messages=True)
        card = next(iter(view._cards.values()))
        assert card.translate_button.text() == "翻译"
        card.translate_button.click()
        await qtbot_wait(lambda: "推拉门" in card.translation.text())
        assert not card.translation.isHidden()
        assert seen == [ctx.app._services.settings.get("llm.tier2")]
        pk = card.message.id
        # a second click hides, a third shows the cached text without a model call
        card.translate_button.click()
        assert card.translation.isHidden()
        card.translate_button.click()
        assert not card.translation.isHidden() and len(seen) == 1
        assert await ctx.app.inquiries.translate(pk) == card.translation.text()
        assert len(seen) == 1
        await ctx.aclose_clients()
    with ctx.app._services.store.session() as s:
        assert "推拉门" in s.get(Message, pk).translation_zh


async def qtbot_wait(condition) -> None:  # type: ignore[no-untyped-def]
    from tests.support.qt import wait_until

    await wait_until(condition, timeout=15)


@settles
async def test_files_the_owner_added_show_in_the_thread_and_can_be_saved(  # type: ignore[no-untyped-def]
    ctx, qtbot, tmp_path
) -> None:
    """A quote PDF added to a reply from his computer (添加本机文件) came by no email: the
    detail shows it on a card of its own at the end of the thread, openable and savable."""
    from core.drafts.attachments import store_owner_file
    from desktop.detail import OwnerFilesCard

    ids = seed_inquiries(ctx.app._services, 2)
    quote = tmp_path / "Quote 1042 - Ryde.pdf"
    quote.write_bytes(b"%PDF-1.4 quote for the sliding door\n")
    now = ctx.app._services.clock.now()
    ctx.app._services.store.write(
        lambda s: store_owner_file(s, ctx.app._services.paths, ids[1], quote, now)
    )
    view = InquiryDetailView(ctx)
    qtbot.addWidget(view)
    view.show_inquiry(ids[1])
    await view.ready()
    cards = view.findChildren(OwnerFilesCard)
    assert len(cards) == 1
    assert cards[0].header.text() == "您从本机添加的文件"
    [button] = cards[0].attachments.attachment_buttons
    assert button.text().startswith("Quote 1042 - Ryde.pdf") and button.isEnabled()
    [info] = view.detail.owner_files
    saved = cards[0].attachments.copy_attachment(info, tmp_path / "copy.pdf")
    assert saved.read_bytes() == quote.read_bytes()

    view.show_inquiry(ids[0])  # another customer: no card
    await view.ready()
    assert [c for c in view.findChildren(OwnerFilesCard) if c.parent() is not None] == []
