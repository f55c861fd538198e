"""The chat panel beside the board, over a real store and a loopback model that calls tools.

What the owner would notice: "给他回复" with Billy selected on the board drafts a reply to Billy
(not to another customer), the answer says it waits for approval, and the approval window opens
on it; 停止 ends a slow turn and he can ask again at once; the window keeps answering while the
model works through a long tool loop; with no AI set up the panel says so in Chinese.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from PySide6.QtCore import Qt
from sqlalchemy import select

from core.app.assistant import today_name
from core.db.models import Draft, DraftEvent
from desktop.main_window import MainWindow
from tests.drafts.support import add_inquiry
from tests.support.llm_server import LLMServer, Reply, last_user_text, schema_name
from tests.support.qt import settles, wait_until

INSTRUCTION = "给他回复，说下周二上门量尺"


def _tool_results(request: dict[str, Any]) -> list[str]:
    return [m["content"] for m in request["messages"] if m.get("role") == "tool"]


def _current_inquiry(request: dict[str, Any]) -> int:
    found = re.search(r"\[current inquiry: #(\d+)\]", last_user_text(request))
    assert found, "the panel did not hand the current customer to the conversation"
    return int(found.group(1))


def drafting_model(request: dict[str, Any]) -> Any:
    """Drafts for the current inquiry, then answers from the tool's result (as a model would)."""
    if schema_name(request):  # the composer's structured call
        return {
            "subject": "Re: Sliding door quote",
            "body_en": "Dear Billy,\n\nWe can measure on site next Tuesday.\n\nKind regards",
            "body_zh": "Billy 您好：\n\n我们下周二可以上门测量。\n\n此致",
        }
    results = _tool_results(request)
    if "慢" in last_user_text(request):
        return Reply(content="这是一个很慢的回答。", delay=5.0)
    if not results:
        arguments = {"inquiry_id": _current_inquiry(request), "instruction": "下周二上门量尺"}
        return [{"name": "draft_reply", "arguments": arguments}]
    status = json.loads(results[0])["status"]
    return f"已起草回复（状态：{status}），**待审批**，尚未发送。"


async def _window(ctx, qtbot, base_url: str) -> MainWindow:  # type: ignore[no-untyped-def]
    ctx.app._services.settings.update({"llm.base_url": base_url, "llm.max_retries": 0})
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    await window.board.ready()
    return window


@pytest.fixture
def two_customers(services):  # type: ignore[no-untyped-def]
    jane, _ = add_inquiry(services)
    billy, _ = add_inquiry(services, email="billy.chen@example.com", name="Billy Chen")
    return jane, billy


@settles
async def test_reply_to_the_selected_customer_opens_the_approval_window(  # type: ignore[no-untyped-def]
    ctx, qtbot, two_customers
) -> None:
    _jane, billy = two_customers
    with LLMServer(drafting_model) as server:
        window = await _window(ctx, qtbot, server.base_url)
        window.board.select_inquiry(billy)
        window.show_assistant()
        panel = window.chat.panel
        assert window.chat.isVisible() and panel.pages.currentIndex() == 0
        assert panel.customer_bar.label.text() == f"当前客户：Billy Chen #{billy}"

        panel.input.setPlainText(INSTRUCTION)
        qtbot.keyClick(panel.input, Qt.Key.Key_Return)
        await wait_until(lambda: bool(window.pending.windows), timeout=30)
        await wait_until(lambda: not panel.busy)

        with ctx.app._services.store.session() as s:
            drafts = [(d.id, d.inquiry_id, d.status) for d in s.scalars(select(Draft))]
            sent = {e.to_status for e in s.scalars(select(DraftEvent))} & {"sending", "sent"}
        assert [(i, status) for _, i, status in drafts] == [(billy, "pending_approval")]
        assert not sent
        draft_id = drafts[0][0]
        approval = window.pending.windows[draft_id]
        await approval.ready()
        assert approval.isVisible() and approval.view is not None
        assert approval.view.inquiry_id == billy

        shown = panel.transcript.toPlainText()
        assert INSTRUCTION in shown
        assert "待审批" in shown and "尚未发送" in shown
        assert "**" not in shown  # rendered from Markdown, not shown raw
        assert f"#{draft_id}" in shown  # a link to reopen the draft
        assert panel.input.toPlainText() == "" and panel.send_button.isEnabled()
        # he may speak instead of typing: the panel's dictation writes into its input
        assert panel.dictation is not None and panel.dictation.target is panel.input
        assert panel.dictation.isVisible()
        assert panel.conversation is not None
        assert panel.conversation.current_inquiry_id == billy
        assert len(panel.conversation.transcript()) == 2
        await ctx.app.aclose()


@settles
async def test_the_customer_the_assistant_reads_about_becomes_the_current_one(  # type: ignore[no-untyped-def]
    ctx, qtbot, two_customers
) -> None:
    jane, billy = two_customers

    def model(request: dict[str, Any]) -> Any:
        if schema_name(request):
            return drafting_model(request)
        if not _tool_results(request):  # he asks about Jane while Billy is selected
            return [{"name": "get_inquiry", "arguments": {"inquiry_id": jane}}]
        return "Jane Citizen 在等报价。"

    with LLMServer(model) as server:
        window = await _window(ctx, qtbot, server.base_url)
        window.board.select_inquiry(billy)
        window.show_assistant()
        panel = window.chat.panel
        panel.input.setPlainText("Jane 那边怎么样了")
        panel.send_button.click()
        await wait_until(lambda: not panel.busy and len(panel.conversation.transcript()) == 2, 30)
        # "他" is now Jane: the bar says so, and the conversation keeps her for the next turn
        assert panel.customer_bar.label.text() == f"当前客户：Jane Citizen #{jane}"
        assert panel.conversation.current_inquiry_id == jane
        panel.customer_bar.clear_button.click()  # ✕: nobody, until he picks or names one
        assert panel.conversation.current_inquiry_id is None
        await ctx.app.aclose()


@settles
async def test_stop_cancels_a_slow_turn_and_the_panel_stays_usable(ctx, qtbot, services) -> None:  # type: ignore[no-untyped-def]
    with LLMServer(drafting_model) as server:
        window = await _window(ctx, qtbot, server.base_url)
        window.show_assistant()
        panel = window.chat.panel
        panel.input.setPlainText("慢慢想一下")
        panel.send_button.click()
        await wait_until(lambda: len(server.chat_requests) == 1, timeout=20)
        assert panel.busy and panel.stop_button.isVisible()
        assert not panel.send_button.isEnabled()
        panel.stop_button.click()
        assert (
            not panel.busy
        )  # at once, without waiting for the model and panel.send_button.isEnabled()
        assert not panel.stop_button.isVisible()
        await asyncio.sleep(0.1)
        assert panel.conversation is not None and panel.conversation.transcript() == []
        assert "已停止" in panel.transcript.toPlainText()
        assert "很慢的回答" not in panel.transcript.toPlainText()

        # he asks again at once, and gets an answer (the slow request is still in flight)
        billy, _ = add_inquiry(services, email="billy.chen@example.com", name="Billy Chen")
        panel.set_customer(billy, "Billy Chen")
        panel.input.setPlainText(INSTRUCTION)
        panel.send_button.click()
        await wait_until(lambda: not panel.busy and len(panel.conversation.transcript()) == 2, 30)
        assert "待审批" in panel.transcript.toPlainText()
        await ctx.app.aclose()


def six_rounds(request: dict[str, Any]) -> Any:
    """Five rounds of tool calls (one drafts a reply), the answer in the sixth."""
    if schema_name(request):
        return drafting_model(request)
    script: list[tuple[str, dict[str, Any]]] = [
        ("search_inquiries", {"query": "Chen"}),
        ("get_inquiry", {"inquiry_id": _current_inquiry(request)}),
        ("pipeline_summary", {}),
        ("draft_reply", {"inquiry_id": _current_inquiry(request), "instruction": "下周二上门量尺"}),
        ("search_inquiries", {"query": "Ryde"}),
    ]
    done = len(_tool_results(request))
    if done < len(script):
        return [{"name": script[done][0], "arguments": script[done][1]}]
    return "已起草回复，**待审批**，尚未发送。"


@settles
async def test_the_window_keeps_answering_during_a_six_round_tool_loop(  # type: ignore[no-untyped-def]
    ctx, qtbot, two_customers
) -> None:
    """The loop keeps turning while six tool rounds run: a 10 ms ticker on the same loop keeps
    ticking through the turn (the lag figures are benchmarks/chat_panel.py's: no time limit is
    asserted here, so a loaded machine cannot fail it)."""
    _jane, billy = two_customers
    with LLMServer(six_rounds, latency=0.05) as server:
        window = await _window(ctx, qtbot, server.base_url)
        window.board.select_inquiry(billy)
        window.show_assistant()
        panel = window.chat.panel
        loop = asyncio.get_running_loop()
        lags: list[float] = []

        async def ticker() -> None:
            while True:
                t = loop.time()
                await asyncio.sleep(0.01)
                lags.append((loop.time() - t - 0.01) * 1000)

        probe = asyncio.ensure_future(ticker())
        panel.input.setPlainText(INSTRUCTION)
        panel.send()
        await wait_until(lambda: not panel.busy, timeout=60)
        probe.cancel()
        reply_rounds = [r for r in server.chat_requests if r.body.get("tools")]
        assert len(reply_rounds) == 6
        assert "待审批" in panel.transcript.toPlainText()
        # six rounds of a 50 ms model: a loop blocked for the turn would tick once or twice
        assert len(lags) > 20
        for approval in window.pending.windows.values():
            await approval.ready()
        await ctx.app.aclose()


@settles
async def test_without_an_ai_service_the_panel_says_so_in_chinese(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    window.show_assistant()
    panel = window.chat.panel
    assert panel.pages.currentIndex() == 1
    assert "AI" in panel.unavailable_label.text() and "设置" in panel.unavailable_label.text()
    assert panel.settings_button.text() == "打开 AI 设置"
    asked: list[bool] = []
    panel.ai_settings_requested.connect(lambda: asked.append(True))
    panel.settings_button.click()
    assert asked == [True]
    panel.input.setPlainText("你好")
    panel.send()  # nothing to send to: no crash, no turn
    assert not panel.busy


@settles
async def test_the_days_history_is_shown_and_the_tray_opens_the_panel(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    from desktop.tray import TrayController

    with LLMServer(lambda _r: "早上好！今天有 **2** 个新询盘。") as server:
        window = await _window(ctx, qtbot, server.base_url)
        today = today_name(ctx.app.clock)
        conversation = ctx.app.assistant.conversation(today, channel="desktop")
        conversation.current_inquiry_id = None
        await conversation.ask("早上好")  # earlier today, before the panel was opened
        tray = TrayController(ctx.app)
        tray.open_item.connect(window.open_item)
        assert tray.assistant_action.text() == "助手"
        tray.assistant_action.trigger()
        assert window.chat.isVisible()
        await window.chat.panel.loading
        shown = window.chat.panel.transcript.toPlainText()
        assert "早上好" in shown and "今天有 2 个新询盘" in shown
        assert "current inquiry" not in shown
        assert window.chat.panel.conversation is conversation
        assert window.assistant_action.shortcut().toString() == "Ctrl+Shift+A"
        await ctx.app.aclose()


@settles
async def test_screenshot_of_the_chat_panel_in_both_languages(ctx, languages, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QApplication

    from desktop.screenshots import WINDOWS, render

    add_inquiry(ctx.app._services, email="billy.chen@example.com", name="Billy Chen")
    QApplication.setQuitOnLastWindowClosed(False)  # render() closes the window it shot
    for lang, said in (("zh_CN", "待审批"), ("en", "awaits your approval")):
        languages.apply(lang)
        window = await WINDOWS["chat"](ctx)
        panel = window.chat.panel
        assert said in panel.transcript.toPlainText()
        assert panel.activity.text() == (
            "正在查找客户…" if lang == "zh_CN" else "Looking up customers…"
        )
        assert "Billy Chen" in panel.customer_bar.label.text()
        window.close()
        out = await render(ctx, "chat", tmp_path / f"chat_{lang}.png")
        image = QImage(str(out))
        assert (image.width(), image.height()) == (1366, 768)
    assert not [w for w in QApplication.topLevelWidgets() if w.isVisible()]
    QApplication.setQuitOnLastWindowClosed(True)
    await ctx.app.aclose()


@settles
async def test_shift_enter_breaks_the_line_and_the_cross_clears_the_customer(  # type: ignore[no-untyped-def]
    ctx, qtbot, two_customers
) -> None:
    jane, _billy = two_customers
    with LLMServer(lambda _r: "好的。") as server:
        window = await _window(ctx, qtbot, server.base_url)
        window.board.select_inquiry(jane)
        window.show_assistant()
        panel = window.chat.panel
        assert panel.customer_bar.inquiry_id == jane
        panel.input.setPlainText("第一行")
        panel.input.moveCursor(panel.input.textCursor().MoveOperation.End)
        qtbot.keyClick(panel.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
        qtbot.keyClicks(panel.input, "second")
        assert panel.input.toPlainText() == "第一行\nsecond" and not panel.busy

        panel.customer_bar.clear_button.click()
        assert panel.customer_bar.inquiry_id is None
        assert panel.customer_bar.label.text() == "未选择客户 — 在看板上选中一个询盘"
        qtbot.keyClick(panel.input, Qt.Key.Key_Return)
        await wait_until(lambda: not panel.busy and panel.conversation is not None, 30)
        assert panel.conversation.current_inquiry_id is None
        assert "[current inquiry" not in last_user_text(server.chat_requests[-1].body)
        assert "第一行\nsecond" in panel.transcript.toPlainText()
        await ctx.app.aclose()


@settles
async def test_streamed_text_shows_at_once_and_the_checked_answer_replaces_it(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    from core.agent.conversation import TextDelta, ToolActivity, TurnDone
    from core.agent.loop import AssistantReply
    from desktop.chat.panel import ChatPanel

    ctx.app._services.settings.update({"llm.base_url": "http://127.0.0.1:9/v1"})  # never called
    panel = ChatPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    await panel.loading
    panel.transcript.begin_live()
    panel._set_busy(True)
    panel.on_event(ToolActivity("search_inquiries", "正在查找客户…", "Looking up customers…"))
    assert panel.activity.text() == "正在查找客户…" and panel.activity.isVisible()
    for word in ("已为 Billy ", "起草回复，", "**已发送**。"):
        panel.on_event(TextDelta(word))
    await wait_until(lambda: "已发送" in panel.transcript.toPlainText())
    assert "**" not in panel.transcript.toPlainText()
    panel.on_event(
        TurnDone(AssistantReply(text="已为 Billy 起草回复，**待审批**，尚未发送。"), (5,))
    )
    shown = panel.transcript.toPlainText()
    assert "待审批" in shown and "已发送" not in shown.replace("尚未发送", "")
    assert "打开草稿 #5" in shown
    assert not panel.activity.isVisible() and panel.send_button.isEnabled()
    await ctx.app.aclose()


def lying_model(request: dict[str, Any]) -> Any:
    """Drafts, then claims the mail went out (it did not: the draft waits for approval)."""
    if schema_name(request):
        return drafting_model(request)
    if not _tool_results(request):
        return drafting_model(request)
    return "好的，邮件已发送给客户。"


@settles
async def test_a_false_sent_claim_is_corrected_in_the_panel(ctx, qtbot, two_customers) -> None:  # type: ignore[no-untyped-def]
    """The truth guard on the desktop channel: he reads that nothing was sent."""
    _jane, billy = two_customers
    with LLMServer(lying_model) as server:
        window = await _window(ctx, qtbot, server.base_url)
        window.board.select_inquiry(billy)
        window.show_assistant()
        panel = window.chat.panel
        panel.input.setPlainText(INSTRUCTION)
        qtbot.keyClick(panel.input, Qt.Key.Key_Return)
        await wait_until(lambda: bool(window.pending.windows), timeout=30)
        await wait_until(lambda: not panel.busy)
        shown = panel.transcript.toPlainText()
        assert "邮件已发送给客户" not in shown
        assert "未发送" in shown
        with ctx.app._services.store.session() as s:
            assert [d.status for d in s.scalars(select(Draft))] == ["pending_approval"]
            assert not {e.to_status for e in s.scalars(select(DraftEvent))} & {"sending", "sent"}
        await ctx.app.aclose()


@settles
async def test_the_assistant_says_when_it_moves_the_current_customer(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    """当前客户 never changes silently: the transcript says who he is now."""
    from core.agent.conversation import TurnDone
    from core.agent.loop import AssistantReply
    from desktop.chat.panel import ChatPanel

    ctx.app._services.settings.update({"llm.base_url": "http://127.0.0.1:9/v1"})  # never called
    panel = ChatPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    await panel.loading
    panel.set_customer(1, "Amy Lee")
    panel.transcript.begin_live()
    panel._set_busy(True)
    panel.on_event(TurnDone(AssistantReply(text="找到了 Ben。"), customer=(2, "Ben Carter")))
    assert panel.customer_bar.inquiry_id == 2
    assert "当前客户已改为 Ben Carter" in panel.transcript.toPlainText()
    panel.transcript.begin_live()
    panel._set_busy(True)
    panel.on_event(TurnDone(AssistantReply(text="有两位。"), customer_moved=True))
    assert panel.customer_bar.inquiry_id is None
    assert "没有当前客户" in panel.transcript.toPlainText()
    await ctx.app.aclose()
