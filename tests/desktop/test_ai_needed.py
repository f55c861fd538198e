"""Without an AI endpoint, every action that needs the model says so in one sentence (Chinese,
or English in the English UI) and offers 打开 AI 设置, which opens Settings at its AI page:
no raw setting keys, no "无法连接 AI 服务" when nothing was configured, no label that does not
exist."""

from __future__ import annotations

import asyncio
import re

from PySide6.QtWidgets import QApplication, QMessageBox

from core.app import App
from core.cli.main import main
from core.errors import LLMNotConfigured
from desktop.app import DesktopApp
from tests.support.qt import settles, wait_until

CJK = re.compile(r"[\u3400-\u9fff]")


def _stop(desktop: DesktopApp) -> None:
    assert desktop.sync is not None and desktop.tray is not None
    desktop.sync.stop()
    desktop.tray.hide()


def _ai_box() -> QMessageBox | None:
    boxes = [
        w for w in QApplication.topLevelWidgets() if w.objectName() == "aiNeeded" and w.isVisible()
    ]
    return boxes[-1] if boxes else None  # type: ignore[return-value]


def _no_raw_words(text: str) -> None:
    assert "llm.base_url" not in text and "无法连接" not in text and "AI 地址" not in text


async def _demo(app, services) -> DesktopApp:  # type: ignore[no-untyped-def]
    desktop = DesktopApp(app, App(services), tray=True)
    desktop.start()
    await desktop.load_demo(desktop.wizard)
    assert desktop.window is not None
    await desktop.window.board.ready()
    return desktop


@settles
async def test_translate_without_a_model_offers_the_ai_settings(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = await _demo(app, services)
    assert desktop.window is not None
    detail = desktop.window.board.detail
    desktop.window.board.select_row(0)
    await detail.ready()
    assert detail.detail is not None
    pk = detail.detail.messages[0].id
    assert await detail.translate_message(pk) is None
    box = _ai_box()
    assert box is not None
    assert "还没有设置 AI 模型" in box.text() and "「服务地址」" in box.text()
    _no_raw_words(box.text())
    box.property("open_button").click()  # 打开 AI 设置
    dialog = desktop.settings_dialog
    assert dialog is not None and dialog.isVisible()
    assert dialog.nav.currentRow() == 1  # the AI page
    assert dialog.ai_page.labels["url"].text() == "服务地址"  # the field the sentence names
    assert not desktop.ctx.is_demo or dialog.ctx.app is desktop.real_app  # his own folder
    # 测试连接 with nothing typed: which field to fill, by its label on this page
    assert await dialog.test_connection() is False
    assert dialog.test_result.text() == "请先在上面填写「服务地址」，再测试。"
    dialog.reject()
    _stop(desktop)


@settles
async def test_compose_without_a_model_says_so_before_he_types(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = await _demo(app, services)
    assert desktop.window is not None
    board = desktop.window.board
    board.select_row(0)
    await board.detail.ready()
    before = set(QApplication.topLevelWidgets())
    board.detail.draft_button.click()
    await wait_until(
        lambda: (
            any(type(w).__name__ == "ComposeDialog" for w in QApplication.topLevelWidgets())
            or any(type(w).__name__ == "ComposeDialog" for w in board.detail.findChildren(object))
        )
    )
    dialog = next(
        w
        for w in [*QApplication.topLevelWidgets(), *board.detail.findChildren(object)]
        if type(w).__name__ == "ComposeDialog" and w not in before
    )
    assert "还没有设置 AI 模型" in dialog.status.text()  # type: ignore[attr-defined]
    dialog.instruction.setPlainText("下周二上门量尺")  # type: ignore[attr-defined]
    assert not dialog.compose_button.isEnabled()  # type: ignore[attr-defined]
    assert dialog.ai_button.isVisibleTo(dialog)  # type: ignore[attr-defined]
    assert dialog.ai_button.text() == "打开 AI 设置"  # type: ignore[attr-defined]
    dialog.ai_button.click()  # type: ignore[attr-defined]
    settings = desktop.settings_dialog
    assert settings is not None and settings.nav.currentRow() == 1
    settings.reject()
    await asyncio.sleep(0.05)
    _stop(desktop)


@settles
async def test_the_english_ui_says_it_in_english(app, services) -> None:  # type: ignore[no-untyped-def]
    desktop = await _demo(app, services)
    desktop.set_language("en")
    assert desktop.window is not None
    desktop.reporter.report(LLMNotConfigured())
    box = _ai_box()
    assert box is not None
    assert "No AI model is set up yet" in box.text() and "“Endpoint URL”" in box.text()
    assert not CJK.search(box.text())
    assert box.property("open_button").text() == "Open AI settings"
    box.close()
    desktop.set_language("zh_CN")
    _stop(desktop)


def test_the_command_line_says_it_in_one_line(home, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["ask", "明天要去量哪几家"]) != 0
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "还没有设置 AI 模型" in err and "INQUIRY_BRIDGE_LLM_BASE_URL" in err
    assert "无法连接" not in err
    assert LLMNotConfigured().user_message("en").startswith("No AI model is set up yet")
