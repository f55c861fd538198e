"""设置 → AI 模型: a preset fills the fields, 测试连接 says in words what the server can do.

Real widgets offscreen; the server is a loopback OpenAI-compatible one that answers as
llama.cpp's does (json_schema refused with HTTP 500, tool calls written in the text).
"""

from __future__ import annotations

from typing import Any

from core.llm import providers
from desktop.settings_dialog import SettingsDialog
from tests.support.llm_quirks import Quirks
from tests.support.llm_server import LLMServer, schema_name


def capable(request: dict[str, Any]) -> Any:
    if request.get("tools") and not any(m.get("role") == "tool" for m in request["messages"]):
        return [{"name": "get_time", "arguments": {"city": "Sydney"}}]
    if schema_name(request) or "JSON" in str(request["messages"]):
        return {"answer": "窗户"}
    return "OK"


def test_a_preset_fills_address_and_models(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    page = dialog.ai_page
    page.preset.setCurrentIndex(page.preset.findData("qwen"))
    page.apply_preset()
    assert dialog.llm_url.text() == "https://dashscope.aliyuncs.com/compatible-mode/v1"
    assert [t.text() for t in dialog.tiers] == list(providers.PROVIDERS["qwen"].tiers)
    assert dialog.values()["llm.provider"] == "qwen"
    page.preset.setCurrentIndex(page.preset.findData("ollama"))
    page.apply_preset()
    assert "不需要" in page.preset_note.text() or "No API key" in page.preset_note.text()


async def test_test_connection_reports_what_works_and_what_the_app_does_instead(ctx, qtbot) -> None:  # type: ignore[no-untyped-def]
    quirks = Quirks(json_schema_status=500, text_tools="flat")
    with LLMServer(capable, quirks=quirks) as srv:
        dialog = SettingsDialog(ctx)
        qtbot.addWidget(dialog)
        dialog.llm_url.setText(srv.base_url)
        ctx.app._services.settings.set("llm.max_retries", 0)
        assert await dialog.test_connection()
    shown = dialog.test_result.text()
    assert shown.startswith("已连接")
    # icons from the app's resources, not emoji (boxes in the recommended font)
    assert not any(mark in shown for mark in ("✅", "❌", "⚠"))
    assert all(not icon.pixmap().isNull() for icon, _, _ in dialog.test_result.rows)
    assert dialog.test_result.tones()[:2] == ["ok", "warning"]  # JSON mode only: a warning
    assert "只支持 JSON 模式" in shown and "写在文字里" in shown and "中文：能用中文回答" in shown
    assert "HTTP" not in shown and "llama_cpp" not in shown


def test_a_failure_line_is_red_with_its_icon_while_the_others_stay_green(qtbot) -> None:  # type: ignore[no-untyped-def]
    from desktop.status_lines import StatusLines

    lines = StatusLines()
    qtbot.addWidget(lines)
    lines.set_report(
        [
            "✅ 已连接：模型 m 在 90 毫秒内回答",
            "❌ 工具调用：模型没有调用工具",
            "⚠️ 流式输出：不支持",
        ]
    )
    assert lines.tones() == ["ok", "error", "warning"]
    assert lines.text().splitlines()[1] == "工具调用：模型没有调用工具"
    ok, failed = lines.rows[0][0].pixmap().toImage(), lines.rows[1][0].pixmap().toImage()
    assert ok.pixelColor(8, 8) != failed.pixelColor(8, 8)  # a green disc, a red one
    assert failed.pixelColor(3, 8).red() > failed.pixelColor(3, 8).green()
