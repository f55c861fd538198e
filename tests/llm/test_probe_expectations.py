"""测试连接 says what to expect of a model, measured, and warns when it sorts worse than the rules.

A 0.5B model passed every capability check and then filed far worse than the rules (#45). The
probe now times how fast the model writes (字/秒, and what that means for a draft), reads the
server's context window, and has the model sort four sample mails beside the rules.
"""

from __future__ import annotations

from typing import Any

from core.app import App
from tests.intake.test_pipeline_support import (
    Verdict,
    classification_answer,
    is_classify,
    prompt_subject,
)
from tests.support.llm_quirks import Quirks
from tests.support.llm_server import LLMServer, Reply, schema_name

STREAM_TEXT = "铝合金推拉窗轻便耐用，不易生锈。它开关顺滑，不占室内空间。它密封好，隔音隔热。"


def model(*, sorts_well: bool) -> Any:
    """Capable in every probe step; its mail sorting is good, or calls everything B."""

    def respond(request: dict[str, Any]) -> Any:
        messages = request["messages"]
        if "get_time" in str(request.get("tools") or messages) and not any(
            m.get("role") == "tool" for m in messages
        ):
            return [{"name": "get_time", "arguments": {"city": "Sydney"}}]
        if is_classify(request):
            subject = prompt_subject(request).lower()
            label = "A" if "measure" in subject else "B" if "quote" in subject else "C"
            return classification_answer(Verdict([label if sorts_well else "B"]))
        if schema_name(request):
            return {"answer": "窗户"}
        return Reply(content=STREAM_TEXT, chunk_delay=0.05)  # the streamed answer, timed

    return respond


async def _test_connection(services: Any, *, sorts_well: bool) -> list[str]:
    with LLMServer(model(sorts_well=sorts_well), quirks=Quirks(context_tokens=4096)) as srv:
        app = App(services)
        try:
            values = {"llm.base_url": srv.base_url, "llm.provider": "llamacpp",
                      "llm.max_retries": 0}  # fmt: skip
            result = await app.connection_tests.llm(values, "", "zh_CN")
        finally:
            await app.aclose()
    return result.lines


async def test_a_model_that_sorts_worse_than_the_rules_is_named(services: Any) -> None:
    lines = await _test_connection(services, sorts_well=False)
    text = "\n".join(lines)
    print(text)
    assert lines[0].startswith("✅ 已连接")
    assert "字/秒，起草一封回复约" in text
    assert "上下文：只有 4,096 个 token" in text and "-c 8192" in text
    assert "❌ 试分 4 封示例邮件：模型只分对 1 封，比规则（4 封）还差" in text


async def test_a_model_that_sorts_well_is_told_so(services: Any) -> None:
    lines = await _test_connection(services, sorts_well=True)
    text = "\n".join(lines)
    assert "✅ 试分 4 封示例邮件：模型分对 4 封（规则 4 封）" in text
    assert "比规则" not in text
