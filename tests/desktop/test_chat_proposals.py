"""A change the assistant only proposed, in the chat panel: shown under the answer, one click.

The owner asks "帮我看看这个询盘"; the loopback model reads the inquiry and then, unasked, marks
the job lost. Nothing moves: the transcript shows "助手建议（未执行）：把询盘 #N 改到「流失」阶段"
with ✅ 确认 / 🗑 放弃, and a real click on 确认 makes the change (as the owner's act).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from sqlalchemy import select

from core.db.models import Inquiry, StageEvent
from desktop.main_window import MainWindow
from tests.desktop.test_chat_files import click_text
from tests.drafts.support import add_inquiry
from tests.support.llm_server import LLMServer, sequence
from tests.support.qt import settles, wait_until


def _stage(services: Any, inquiry_id: int) -> str:
    with services.store.session() as session:
        row: Inquiry | None = session.get(Inquiry, inquiry_id)
        assert row is not None
        return row.stage


@settles
async def test_a_proposed_stage_change_is_one_click_in_the_panel(
    ctx: Any, qtbot: Any, services: Any
) -> None:
    inquiry_id, _pk = add_inquiry(services, name="Steward Lee", email="steward@example.com")
    steps = sequence(
        [
            [{"name": "get_inquiry", "arguments": {"inquiry_id": inquiry_id}}],
            [{"name": "change_stage",
              "arguments": {"inquiry_id": inquiry_id, "to_stage": "lost", "reason": "x"}}],
            "我看过了。",
        ]
    )  # fmt: skip
    with LLMServer(steps) as server:
        services.settings.update({"llm.base_url": server.base_url, "llm.max_retries": 0})
        window = MainWindow(ctx)
        qtbot.addWidget(window)
        window.show()
        await window.board.ready()
        window.show_assistant()
        panel = window.chat.panel
        panel.input.setPlainText("帮我看看这个询盘")
        qtbot.keyClick(panel.input, Qt.Key.Key_Return)
        await wait_until(lambda: "助手建议" in panel.transcript.toPlainText(), timeout=30)
        shown = panel.transcript.toPlainText()
        assert f"把询盘 #{inquiry_id} 改到「流失」阶段" in shown and "确认执行 · 放弃" in shown
        assert _stage(services, inquiry_id) == "inquiry"

        click_text(panel.transcript, qtbot, "确认执行")
        await wait_until(lambda: "已确认并执行" in panel.transcript.toPlainText())
        assert _stage(services, inquiry_id) == "lost"
        with services.store.session() as session:
            (move,) = session.scalars(select(StageEvent).where(StageEvent.to_stage == "lost"))
        assert move.triggered_by == "owner"
        await ctx.app.aclose()
