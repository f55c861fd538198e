"""What the assistant remembers, as the owner sees and corrects it (the memory page from the chat
panel's 记忆 button, over ``App.memories`` and a real store).

What he would notice: memories grouped by kind with source and date; a proposal the assistant made
after reading mail waits for his 确认 and is then used; a retired one leaves the list and is
never used; his edit changes the words the assistant reads, and the old words stay on record.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from core.agent.memory import save_memory
from core.agent.tools import active_memories
from core.app.memories import MemoryStateError
from core.db.models import AuditEntry, Inquiry, Memory
from core.inquiry.notes import add_customer_note
from desktop.chat.memory_page import CUSTOMER, DATE, SOURCE, STATUS, USED
from desktop.chat.panel import ChatPanel
from tests.drafts.support import add_inquiry
from tests.support.qt import settles, wait_until


@pytest.fixture
def memories(services):  # type: ignore[no-untyped-def]
    inquiry_id, _ = add_inquiry(services)
    pref, _ = save_memory(services, "boss_pref", "报价都含GST", source="desktop")
    proposed, _ = save_memory(
        services, "business_rule", "周日不上门", source="agent", proposal=True
    )
    note = add_customer_note(services, inquiry_id, "客户想要黑色边框", source="voice")
    return {"pref": pref, "proposed": proposed, "note": note, "inquiry": inquiry_id}


def _audit(services, memory_id: int) -> list[tuple[str, str, dict]]:  # type: ignore[no-untyped-def]
    with services.store.session() as s:
        rows = s.scalars(
            select(AuditEntry).where(
                AuditEntry.entity == "memory", AuditEntry.entity_id == memory_id
            )
        )
        return [(a.action, a.actor, a.detail or {}) for a in rows]


def _texts(dialog) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    shown: dict[str, list[str]] = {}
    for i in range(dialog.tree.topLevelItemCount()):
        group = dialog.tree.topLevelItem(i)
        shown[group.text(0)] = [group.child(j).text(0) for j in range(group.childCount())]
    return shown


@settles
async def test_the_page_lists_by_kind_and_retires_confirms_edits(  # type: ignore[no-untyped-def]
    ctx, qtbot, services, memories
) -> None:
    panel = ChatPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    assert panel.memory_button.text() == "记忆"
    dialog = panel.open_memories()
    await dialog.loading
    shown = _texts(dialog)
    assert shown["老板偏好 (1)"] == ["报价都含GST"]
    assert shown["业务规则 (1)"] == ["周日不上门"]
    assert shown["客户备注 (1)"] == ["客户想要黑色边框"]
    assert shown["经验 (0)"] == []
    dialog.select(memories["note"])
    assert dialog.tree.currentItem().text(CUSTOMER) == f"Jane Citizen (#{memories['inquiry']})"
    dialog.select(memories["proposed"])
    row = dialog.tree.currentItem()
    assert (row.text(SOURCE), row.text(STATUS)) == ("助手", "待确认")
    assert row.text(DATE) == dialog._columns(dialog.item(memories["proposed"]))[DATE] != ""
    assert row.text(USED) == "尚未用过"
    assert dialog.confirm_button.isEnabled()

    # a proposal is not used until he confirms it
    assert "周日不上门" not in _used(services)
    dialog.confirm_button.click()
    await wait_until(lambda: "使用中" in _status_of(dialog, memories["proposed"]))
    assert "周日不上门" in _used(services)
    assert ("memory_confirmed", "owner", {}) in _audit(services, memories["proposed"])

    # retiring removes it from the list and from what the assistant reads
    dialog.select(memories["pref"])
    assert "报价都含GST" in _used(services)
    dialog.retire_button.click()
    await wait_until(lambda: "老板偏好 (0)" in _texts(dialog))
    assert "报价都含GST" not in _used(services)
    with services.store.session() as s:
        assert s.get(Memory, memories["pref"]).status == "retired"  # kept, never deleted

    # an edit changes the words; the old ones stay in the audit; the note's copy follows
    dialog.select(memories["note"])
    dialog.editor.setPlainText("客户想要哑光黑色边框")
    dialog.save_button.click()
    await wait_until(lambda: any("哑光" in t for t in _texts(dialog)["客户备注 (1)"]))
    assert ("memory_edited", "owner", {"previous": "客户想要黑色边框"}) in _audit(
        services, memories["note"]
    )
    with services.store.session() as s:
        notes = s.get(Inquiry, memories["inquiry"]).context_data["notes"]
    assert [n["text"] for n in notes] == ["客户想要哑光黑色边框"]


async def test_memories_facade_refuses_what_cannot_be_done(services, memories) -> None:  # type: ignore[no-untyped-def]
    from core.app import App

    app = App(services)
    with pytest.raises(MemoryStateError):
        await app.memories.edit(memories["pref"], "   ")
    retired = await app.memories.retire(memories["pref"])
    assert retired.status == "retired"
    with pytest.raises(MemoryStateError):
        await app.memories.edit(memories["pref"], "报价不含GST")
    with pytest.raises(MemoryStateError):
        await app.memories.confirm(memories["pref"])
    everything = await app.memories.list(statuses=None)
    ids = {memories[k] for k in ("pref", "proposed", "note")}
    assert {m.id for m in everything} == ids  # the retired one too
    assert {m.id for m in await app.memories.list()} == ids - {memories["pref"]}
    assert [m.text for m in await app.memories.list(kinds=["customer_note"])] == [
        "客户想要黑色边框"
    ]


def _used(services) -> str:  # type: ignore[no-untyped-def]
    """What the assistant's prompt reads as memories."""
    with services.store.session() as s:
        return "\n".join(active_memories(s))


def _status_of(dialog, memory_id: int) -> str:  # type: ignore[no-untyped-def]
    dialog.select(memory_id)
    current = dialog.tree.currentItem()
    return current.text(STATUS) if current is not None else ""


@settles
async def test_settings_ai_page_opens_the_memory_page(ctx, qtbot, memories) -> None:  # type: ignore[no-untyped-def]
    from desktop.chat.memory_page import MemoryButton
    from desktop.settings_dialog import SettingsDialog

    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.nav.setCurrentRow(1)  # AI model
    (button,) = dialog.pages.currentWidget().findChildren(MemoryButton)
    assert button.text() == "助手的记忆…"
    button.click()
    assert button.dialog is not None
    await button.dialog.loading
    assert "报价都含GST" in _texts(button.dialog)["老板偏好 (1)"]


@settles
async def test_the_page_says_where_a_memory_came_from_and_where_it_was_used(  # type: ignore[no-untyped-def]
    ctx, qtbot, services, clock
) -> None:
    from datetime import timedelta

    from core.agent.memory_dedupe import Candidate, propose_memories
    from core.memory.recall import mark_used
    from desktop.chat.memory_page import MEMORY, MemoryDialog

    billy, _ = add_inquiry(services, email="billy@example.com", name="Billy Nguyen")
    (budget,) = await propose_memories(
        services, None, [Candidate("customer_note", "Billy 预算有限")], channel="telegram"
    )
    visit, _ = save_memory(services, "customer_note", "Billy 明天上门", source="voice")
    services.store.write(lambda s: mark_used(s, [budget], "draft:12", clock.now()))
    clock.advance(timedelta(days=3).total_seconds())  # 明天 is over
    dialog = MemoryDialog(ctx)
    qtbot.addWidget(dialog)
    await dialog.loading
    dialog.select(budget)
    row = dialog.tree.currentItem()
    assert row.text(CUSTOMER) == f"Billy Nguyen (#{billy})"
    assert row.text(SOURCE) == "对话（Telegram）"
    assert (row.text(DATE), row.text(USED)) == ("2026-04-01", "草稿 #12 · 2026-04-01")
    dialog.select(visit)
    row = dialog.tree.currentItem()
    assert row.text(MEMORY) == "Billy 明天上门  · 至 2026-04-02"
    assert (row.text(SOURCE), row.text(STATUS)) == ("语音", "已过期")  # kept, shown, unused
    assert not dialog.save_button.isEnabled()
    assert dialog.tree.headerItem().text(USED) == "最近用于"
