"""The request body for one call, shaped by what the endpoint can do (``Capabilities``).

Why a module of its own: the client sends one logical request in several possible forms, and a
refusal makes it try the next. Structured answers go as ``json_schema``, as ``json_object`` with
the schema in the prompt, or as plain text with the schema in the prompt. Tools go natively, or
with the conversation's earlier tool calls and results rewritten as text (servers that put calls
in the text do not understand ``tool_calls`` / ``role: tool`` in the history either), or — when
the ``tools`` field itself is refused — described in the prompt (``prompts/tools_in_text.md``).
"""

from __future__ import annotations

import json
from typing import Any

from core.llm.capabilities import Capabilities
from core.llm.prompts import render


def structured_format(
    mode: str, messages: list[dict[str, Any]], name: str, schema: dict[str, Any]
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """``(response_format, messages)`` for a structured answer in ``mode``."""
    if mode == "schema":
        return {
            "type": "json_schema",
            "json_schema": {"name": name, "schema": schema, "strict": True},
        }, messages
    shaped = [dict(m) for m in messages]
    note = render("schema_in_text", schema=json.dumps(schema, ensure_ascii=False))
    shaped[0]["content"] = f"{shaped[0].get('content') or ''}\n\n{note}"
    return ({"type": "json_object"} if mode == "json_object" else None), shaped


def tool_names(tools: list[dict[str, Any]] | None) -> list[str]:
    names = []
    for tool in tools or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            names.append(function["name"])
    return names


def _history_as_text(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Earlier tool calls as ``<tool_call>`` text, their results as ``<tool_response>`` user
    messages: the form local chat templates (Hermes, Qwen) know."""
    out: list[dict[str, Any]] = []
    for message in messages:
        role = message.get("role")
        if role == "assistant" and message.get("tool_calls"):
            lines = [str(message.get("content") or "").strip()]
            for call in message["tool_calls"]:
                function = call.get("function") or {}
                try:
                    args = json.loads(function.get("arguments") or "{}")
                except ValueError:
                    args = {}
                payload = {"name": function.get("name"), "arguments": args}
                lines.append(f"<tool_call>{json.dumps(payload, ensure_ascii=False)}</tool_call>")
            out.append({"role": "assistant", "content": "\n".join(x for x in lines if x)})
        elif role == "tool":
            out.append(
                {
                    "role": "user",
                    "content": f"<tool_response>\n{message.get('content') or ''}\n</tool_response>",
                }
            )
        else:
            out.append(message)
    return out


def shape_tools(
    caps: Capabilities, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None
) -> tuple[list[dict[str, Any]] | None, list[dict[str, Any]]]:
    """``(tools field, messages)`` for a call offering ``tools`` in the endpoint's tool mode."""
    if not tools or caps.tools == "native":
        return (tools or None), messages
    shaped = _history_as_text(messages)
    if caps.tools == "text":
        return tools, shaped
    described = "\n".join(
        json.dumps(t.get("function") or t, ensure_ascii=False) for t in tools if isinstance(t, dict)
    )
    note = {"role": "system", "content": render("tools_in_text", tools=described)}
    first_user = next((i for i, m in enumerate(shaped) if m.get("role") != "system"), len(shaped))
    return None, [*shaped[:first_user], note, *shaped[first_user:]]


# The most a call may write (tokens). Without a cap a small local model ran one draft to 2,802
# tokens over 213 s (#45); a classification is a few dozen tokens of JSON, a reply a few hundred.
OUTPUT_TOKENS: dict[str, int] = {
    "classify": 400,
    "extract": 800,
    "escalate": 400,
    "quote_acceptance": 300,
    "memory_duplicate": 200,
    "probe": 300,
    "judge": 600,
}
DEFAULT_OUTPUT_TOKENS = 2000


def output_tokens(purpose: str) -> int:
    """The ``max_tokens`` a call for ``purpose`` is sent with."""
    return OUTPUT_TOKENS.get(purpose, DEFAULT_OUTPUT_TOKENS)


def build_body(
    model: str,
    messages: list[dict[str, Any]],
    caps: Capabilities,
    *,
    response_format: dict[str, Any] | None = None,
    schema: tuple[str, dict[str, Any]] | None = None,
    tools: list[dict[str, Any]] | None = None,
    temperature: float | None = None,
    stream: bool = False,
    max_tokens: int | None = None,
) -> dict[str, Any]:
    """The JSON body of one chat-completions request in the endpoint's modes."""
    if schema is not None:
        response_format, messages = structured_format(caps.structured, messages, *schema)
    elif response_format is not None and caps.structured == "text":
        response_format = None  # the endpoint refused response_format altogether
    sent_tools, messages = shape_tools(caps, messages, tools)
    body: dict[str, Any] = {"model": model, "messages": messages}
    if response_format is not None:
        body["response_format"] = response_format
    if sent_tools:
        body["tools"] = sent_tools
    if temperature is not None:
        body["temperature"] = temperature
    if max_tokens and caps.max_tokens:
        body["max_tokens"] = max_tokens
    if stream:
        body["stream"] = True
        if caps.stream_usage:
            body["stream_options"] = {"include_usage": True}
    return body
