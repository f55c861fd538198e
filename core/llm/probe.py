"""测试连接: what an endpoint + model really does, learnt by asking, and said in words.

Why: a preset says what a provider documents; a local server (llama.cpp, Ollama, LM Studio) or
a new model can differ. The probe starts from the full OpenAI feature set, lets the client step
down on each refusal (``core.llm.capabilities``), and keeps what it ends with, so the next call
starts there. Four small calls per model: a structured answer (in Chinese, which also shows
whether the model writes Chinese), a tool call, a streamed answer. The summary says what works
and what the app will do instead, in the owner's language.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pydantic import BaseModel

from core.errors import LLMError, LLMSchemaError, LLMUnavailable
from core.llm import context_window
from core.llm.capabilities import Capabilities
from core.llm.prompts import render_messages

if TYPE_CHECKING:
    from core.llm.client import LLMClient

_CJK = re.compile(r"[\u4e00-\u9fff]")
PROBE_TOOL = {
    "type": "function",
    "function": {
        "name": "get_time",
        "description": "The current time in a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string"}},
            "required": ["city"],
        },
    },
}


class ProbeAnswer(BaseModel):
    answer: str


@dataclass
class ProbeReport:
    """What the probe found; ``error`` set when the endpoint could not be used at all."""

    model: str
    provider: str = ""
    millis: int = 0
    error: LLMError | None = None
    structured: str = "none"  # schema | json_object | text | none (no valid JSON at all)
    tools: str = "none"  # native | text | prompt | none (the model never called the tool)
    streaming: bool = False
    chinese: bool = False
    chars_per_second: float = 0.0  # how fast it writes (the streamed answer), 0: not measured
    context: int = 0  # its context window in tokens, 0: the server did not say
    mails: tuple[int, int, int] | None = None  # sample mails: model right, rules right, total

    @property
    def ok(self) -> bool:
        return self.error is None


async def _structured(client: LLMClient, tier: int, report: ProbeReport) -> None:
    """A JSON answer, stepping down when the model ignores the mode it was asked in."""
    for _round in range(3):
        try:
            answer = await client.structured(
                tier=tier, purpose="probe", prompt="probe_json", variables={}, schema=ProbeAnswer
            )
        except LLMSchemaError:
            caps = await client.capabilities(tier)
            lower = caps.step_down("json_schema" if caps.structured == "schema" else "json_object")
            if lower is None:
                report.structured = "none"
                return
            await client.learn(tier, replace(lower, source="probe"))
            continue
        report.structured = (await client.capabilities(tier)).structured
        report.chinese = bool(_CJK.search(answer.answer))
        return


async def _tools(client: LLMClient, tier: int, report: ProbeReport) -> None:
    completion = await client.complete(
        tier=tier,
        purpose="probe",
        messages=render_messages("probe_tool", {}),
        tools=[PROBE_TOOL],
    )
    caps = await client.capabilities(tier)
    called = any(call.get("name") == "get_time" for call in completion.tool_calls)
    report.tools = caps.tools if called else "none"


async def _stream(client: LLMClient, tier: int, report: ProbeReport) -> None:
    """A short streamed answer, timed from its first piece to its last: how fast the model
    writes (the time before the first piece is reading the prompt, not writing)."""
    times: list[float] = []
    text: list[str] = []

    def on_text(piece: str) -> None:
        times.append(time.monotonic())
        text.append(piece)

    started = time.monotonic()
    await client.stream(
        tier=tier, purpose="probe", messages=render_messages("probe_stream", {}), on_text=on_text
    )
    report.streaming = (await client.capabilities(tier)).streaming
    written = len("".join(text).strip())
    span = times[-1] - times[0] if len(times) > 2 else (times[-1] - started if times else 0.0)
    report.chars_per_second = round(written / span, 1) if written and span > 0 else 0.0


async def probe(client: LLMClient) -> ProbeReport:
    """Probe the configured endpoint: structured output with tiers 1 and 2, tools and streaming
    with tier 3 (the assistant); everything learnt is kept for the next calls."""
    provider = client.provider
    report = ProbeReport(model=client.model_for(1), provider=provider.key if provider else "")
    started = time.monotonic()
    tiers = {client.model_for(t): t for t in (3, 2, 1)}  # each model once, lowest tier wins
    for tier in tiers.values():
        await client.learn(tier, Capabilities(source="probe"))  # ask for everything again
    try:
        await _structured(client, 1, report)
        report.millis = int((time.monotonic() - started) * 1000)
        if client.model_for(2) != client.model_for(1):
            await _structured(client, 2, ProbeReport(model=client.model_for(2)))
        await _tools(client, 3, report)
        await _stream(client, 3, report)
        report.context = await context_window.window(client, 1, ask_server=True)
    except LLMError as exc:
        report.error = exc
    return report


# -- the owner's words --------------------------------------------------------------------------
_LINES: dict[str, tuple[str, str]] = {
    "ok": (
        "✅ 已连接：模型 {model} 在 {ms} 毫秒内回答",
        "✅ Connected: {model} answered in {ms} ms",
    ),
    "schema": ("✅ 结构化输出：支持 JSON Schema", "✅ Structured output: JSON Schema supported"),
    "json_object": (
        "⚠️ 结构化输出：只支持 JSON 模式，本软件会把格式要求写进提示并校验回答",
        "⚠️ Structured output: JSON mode only; the app puts the format in the prompt and "
        "checks the answers",
    ),
    "text": (
        "⚠️ 结构化输出：不支持，本软件会从文字回答中提取 JSON 并校验",
        "⚠️ Structured output: not supported; the app extracts the JSON from the text and checks it",
    ),
    "no_json": (
        "❌ 结构化输出：这个模型给不出有效的 JSON，邮件会按规则分类（请您确认）",
        "❌ Structured output: this model gives no valid JSON; mail is sorted by the rules "
        "(for you to check)",
    ),
    "native": ("✅ 工具调用：支持", "✅ Tool calls: supported"),
    "tools_text": (
        "⚠️ 工具调用：模型把调用写在文字里，本软件会识别并执行",
        "⚠️ Tool calls: the model writes them in its text; the app recognises and runs them",
    ),
    "prompt": (
        "⚠️ 工具调用：服务器不接受工具，本软件会在提示里说明工具，并识别文字中的调用",
        "⚠️ Tool calls: the server refuses tools; the app describes them in the prompt and "
        "recognises calls in the text",
    ),
    "no_tools": (
        "❌ 工具调用：模型没有调用工具，助手只能直接回答，查不了询盘",
        "❌ Tool calls: the model did not call the tool; the assistant can only answer "
        "directly, without looking anything up",
    ),
    "stream": ("✅ 流式输出：支持", "✅ Streaming: supported"),
    "no_stream": (
        "⚠️ 流式输出：不支持，助手的回答会整段显示",
        "⚠️ Streaming: not supported; the assistant's answers appear in one piece",
    ),
    "chinese": ("✅ 中文：能用中文回答", "✅ Chinese: answers in Chinese"),
    "no_chinese": (
        "⚠️ 中文：没有用中文回答，中文翻译和摘要可能不好",
        "⚠️ Chinese: did not answer in Chinese; translations and summaries may be poor",
    ),
    "failed": ("❌ 无法使用：{cause}", "❌ Cannot be used: {cause}"),
    "speed": (
        "{mark} 速度：约 {cps} 字/秒，起草一封回复约 {wait}",
        "{mark} Speed: about {cps} characters a second; a reply draft takes about {wait_en}",
    ),
    "context": (
        "✅ 上下文：{tokens} 个 token",
        "✅ Context: {tokens} tokens",
    ),
    "small_context": (
        "⚠️ 上下文：只有 {tokens} 个 token，助手只带基本工具、长邮件会截短；建议在模型服务器上调大"
        "（例如 llama.cpp 的 -c 8192）",
        "⚠️ Context: only {tokens} tokens; the assistant gets its basic tools only and long mail "
        "is cut; give the model server more (e.g. llama.cpp -c 8192)",
    ),
    "mails": (
        "✅ 试分 {total} 封示例邮件：模型分对 {model} 封（规则 {rules} 封）",
        "✅ {total} sample mails: the model sorted {model} right (the rules {rules})",
    ),
    "mails_worse": (
        "❌ 试分 {total} 封示例邮件：模型只分对 {model} 封，比规则（{rules} 封）还差；建议换一个更大的"
        "模型，否则邮件分类不如不用 AI",
        "❌ {total} sample mails: the model sorted only {model} right, fewer than the rules "
        "({rules}); pick a larger model, or mail is sorted worse than without AI",
    ),
}

DRAFT_CHARS = 1500  # a reply's JSON and its Chinese rendering: what a draft makes it write
SMALL_CONTEXT = 8192  # tokens: below, the assistant and intake cut what they send


def _wait(seconds: float, lang: str) -> str:
    minutes = seconds / 60
    if lang.startswith("zh"):
        return (
            f"{max(1, round(seconds / 10) * 10)} 秒" if seconds < 90 else f"{round(minutes)} 分钟"
        )
    return f"{max(1, round(seconds / 10) * 10)} s" if seconds < 90 else f"{round(minutes)} min"


def expectations(report: ProbeReport, lang: str) -> list[str]:
    """What to expect of this model, measured: speed, context, and sample mails sorted."""
    lines = []
    if report.chars_per_second:
        seconds = DRAFT_CHARS / report.chars_per_second
        mark = "⚠️" if seconds >= 180 else "✅"
        wait = _wait(seconds, lang)
        lines.append(_line("speed", lang, mark=mark, cps=round(report.chars_per_second),
                           wait=wait, wait_en=wait))  # fmt: skip
    if report.context:
        key = "small_context" if report.context < SMALL_CONTEXT else "context"
        lines.append(_line(key, lang, tokens=f"{report.context:,}"))
    if report.mails is not None:
        model, rules, total = report.mails
        key = "mails_worse" if model < rules else "mails"
        lines.append(_line(key, lang, model=model, rules=rules, total=total))
    return lines


def _line(key: str, lang: str, **values: object) -> str:
    zh, en = _LINES[key]
    return (zh if lang.startswith("zh") else en).format(**values)


def summary(report: ProbeReport, lang: str = "zh_CN") -> list[str]:
    """The probe's findings, one line each, in the owner's language."""
    if report.error is not None and report.structured == "none":
        return [_line("failed", lang, cause=report.error.user_message(lang))]
    lines = [_line("ok", lang, model=report.model, ms=report.millis)]
    lines.append(_line("no_json" if report.structured == "none" else report.structured, lang))
    if report.error is not None:  # structured worked, the assistant's part failed
        lines.append(_line("failed", lang, cause=report.error.user_message(lang)))
        return lines
    tools = {"native": "native", "text": "tools_text", "prompt": "prompt"}
    lines.append(_line(tools.get(report.tools, "no_tools"), lang))
    lines.append(_line("stream" if report.streaming else "no_stream", lang))
    lines.append(_line("chinese" if report.chinese else "no_chinese", lang))
    return lines + expectations(report, lang)


def is_unreachable(report: ProbeReport) -> bool:
    return isinstance(report.error, LLMUnavailable)
