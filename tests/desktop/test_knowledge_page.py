"""The 知识库 page, as the owner uses it: empty with a hint, what he types is saved to the file
and comes back when he opens the page again; a save never overwrites an addition he confirmed
meanwhile; the assistant's proposed addition is one click in the chat."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from desktop.chat.knowledge_page import KnowledgeButton, KnowledgeDialog
from desktop.chat.panel import ChatPanel
from desktop.main_window import MainWindow
from desktop.reopen import alive
from tests.desktop.test_chat_files import click_text
from tests.support.llm_server import LLMServer, sequence
from tests.support.qt import settles, wait_until

TEXT = "## 交货期\n\n- 推拉门标准交货期 4 周\n"


@settles
async def test_the_page_saves_and_reloads(ctx: Any, qtbot: Any, services: Any) -> None:
    panel = ChatPanel(ctx)
    qtbot.addWidget(panel)
    panel.show()
    assert panel.knowledge_button.text() == "知识库"
    dialog = panel.open_knowledge()
    assert isinstance(dialog, KnowledgeDialog)
    await dialog.loading
    assert dialog.windowTitle() == "知识库"
    assert dialog.editor.toPlainText() == ""  # nothing invented
    assert "## 交货期" in dialog.editor.placeholderText()  # the hint says what to write
    assert "还是空的" in dialog.status.text()
    assert not services.paths.knowledge_file.exists()

    dialog.editor.setPlainText(TEXT)
    assert "尚未保存" in dialog.status.text()
    dialog.save_button.click()
    await wait_until(lambda: "已保存" in dialog.status.text())
    assert services.paths.knowledge_file.read_text(encoding="utf-8") == TEXT
    dialog.close()

    again = panel.open_knowledge()
    await again.loading
    assert again.editor.toPlainText() == TEXT
    assert "起草和助手会读取全部内容" in again.status.text()
    again.close()


@settles
async def test_a_save_never_drops_an_addition_made_meanwhile(
    ctx: Any, qtbot: Any, services: Any
) -> None:
    await ctx.app.knowledge.save(TEXT)
    dialog = KnowledgeDialog(ctx)
    qtbot.addWidget(dialog)
    await dialog.loading
    await ctx.app.knowledge.add("warranty", "铝框保修 10 年")  # a confirmed proposal
    dialog.editor.setPlainText(TEXT + "\n- 加急 2 周\n")
    dialog.save_button.click()
    await wait_until(lambda: "未保存" in dialog.status.text() and "别处" in dialog.status.text())
    saved = services.paths.knowledge_file.read_text(encoding="utf-8")
    assert "铝框保修 10 年" in saved and "加急" not in saved
    assert "加急 2 周" in dialog.editor.toPlainText()  # his words stay in the editor

    dialog.reload_button.click()
    await wait_until(lambda: "铝框保修 10 年" in dialog.editor.toPlainText())
    dialog.headings_button.click()  # the suggested sections, headings only
    text = dialog.editor.toPlainText()
    assert "## 玻璃" in text and "## 标准与规范" in text and text.count("## 交货期") == 1
    dialog.save_button.click()
    await wait_until(lambda: "已保存" in dialog.status.text())
    assert "## 常见问题" in services.paths.knowledge_file.read_text(encoding="utf-8")


@settles
async def test_settings_ai_page_opens_the_knowledge_page(ctx: Any, qtbot: Any) -> None:
    from desktop.settings_dialog import SettingsDialog

    await ctx.app.knowledge.save(TEXT)
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.nav.setCurrentRow(1)  # AI model
    (button,) = dialog.pages.currentWidget().findChildren(KnowledgeButton)
    assert button.text() == "知识库…"
    button.click()
    assert button.dialog is not None
    await button.dialog.loading
    assert button.dialog.editor.toPlainText() == TEXT
    button.dialog.close()


@settles
async def test_a_proposed_addition_is_one_click_in_the_chat(
    ctx: Any, qtbot: Any, services: Any
) -> None:
    steps = sequence(
        [
            [{"name": "propose_knowledge",
              "arguments": {"section": "lead_times", "text": "铝窗标准交货期 3 周"}}],
            "要把「铝窗标准交货期 3 周」记进知识库吗？",
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
        panel.input.setPlainText("我们铝窗标准交货期 3 周")
        qtbot.keyClick(panel.input, Qt.Key.Key_Return)
        await wait_until(lambda: "把这条记进知识库" in panel.transcript.toPlainText(), timeout=30)
        assert "铝窗标准交货期 3 周" in panel.transcript.toPlainText()
        assert not services.paths.knowledge_file.exists()  # not before he confirms

        click_text(panel.transcript, qtbot, "确认执行")
        await wait_until(lambda: "已确认并执行" in panel.transcript.toPlainText())
        saved = services.paths.knowledge_file.read_text(encoding="utf-8")
        assert saved == "## 交货期\n\n- 铝窗标准交货期 3 周\n"
        await ctx.app.aclose()


@settles
async def test_closing_with_unsaved_words_asks_first(ctx: Any, qtbot: Any, services: Any) -> None:
    from PySide6.QtWidgets import QMessageBox

    panel = ChatPanel(ctx)  # the window it was opened from stays open
    qtbot.addWidget(panel)
    panel.show()
    dialog = panel.open_knowledge()
    await dialog.loading
    dialog.editor.setPlainText(TEXT)
    dialog.close()
    assert dialog.isVisible()  # a stray click loses nothing
    box = dialog.unsaved_box
    assert box is not None and "不保存" in box.text()
    box.button(QMessageBox.StandardButton.Save).click()
    await wait_until(lambda: not alive(dialog) or not dialog.isVisible())  # saved, then closed
    assert services.paths.knowledge_file.read_text(encoding="utf-8") == TEXT
