"""The ways real OpenAI-compatible servers differ, for ``LLMServer(quirks=...)``.

Each quirk follows a documented or measured behaviour of a real server:

* ``json_schema_status=500`` — llama-cpp-python's server: ``response_format`` of type
  ``json_schema`` fails its request model with HTTP 500 and a pydantic dump ("Input should be
  'text' or 'json_object'"). ``400`` — DeepSeek: "This response_format type is unavailable now".
* ``response_format_status`` — servers without any JSON mode refuse ``response_format`` at all.
* ``text_tools`` — llama.cpp's server (and many local models behind Ollama / LM Studio) in tool
  "auto" mode: the call is JSON in ``content``, not ``tool_calls``. Styles: ``flat`` (the measured
  llama.cpp shape ``{"name": …, "query": …}``), ``bare`` (``{"name", "arguments"}``), ``tagged``
  (Hermes/Qwen ``<tool_call>`` tags), ``fenced`` (a ```json block).
* ``think`` — reasoning models (DeepSeek-R1 distills, QwQ, Qwen3 behind Ollama) prefix the
  answer with ``<think>…</think>``; ``reasoning_content`` — DeepSeek's reasoner sends its
  reasoning in a separate field (also in stream deltas).
* ``unknown_params`` — strict servers (vLLM's "Extra inputs are not permitted", older
  gateways) answer 400 on parameters they do not know, e.g. ``stream_options`` or
  ``parallel_tool_calls``.
* ``tools_status`` — servers that refuse the ``tools`` field.
* ``streaming`` — ``"refuse"``: 400 on ``stream: true``; ``"ignore"``: the whole answer as one
  JSON body although a stream was asked for.
* ``context_tokens`` — llama.cpp's server started with ``-c N``: a prompt of N tokens or more is
  refused with HTTP 400 and its real error body (``exceed_context_size_error`` with
  ``n_prompt_tokens`` and ``n_ctx``; the message itself names no number), and ``GET /props``
  reports ``default_generation_settings.n_ctx``. Tokens are counted as ``prompt_tokens`` says:
  one per CJK character, one per 3.5 other characters, 4 per message, the tools' JSON included
  (a chat template renders them into the prompt) — stricter than the app's own estimate
  (``core.llm.pricing``: 4 characters per token), as a real tokenizer often is.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

LLAMA_CPP_500 = (
    "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n  Input should be "
    "'text' or 'json_object' [type=literal_error, input_value='json_schema', input_type=str]\n"
    'Traceback (most recent call last):\n  File "/llama_cpp/server/app.py", line 376, in '
    "create_chat_completion"
)
DEEPSEEK_400 = "This response_format type is unavailable now"
LLAMA_CPP_CONTEXT_400 = "the request exceeds the available context size, try increasing it"
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


def prompt_tokens(body: dict[str, Any]) -> int:
    """The prompt's size in tokens as this server counts it (see ``context_tokens``)."""
    parts = []
    messages = body.get("messages") or []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            content = "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
        parts.append(str(content or ""))
        for call in message.get("tool_calls") or []:
            parts.append(json.dumps(call.get("function") or {}, ensure_ascii=False))
    if body.get("tools"):
        parts.append(json.dumps(body["tools"], ensure_ascii=False))
    text = "\n".join(parts)
    cjk = len(_CJK.findall(text))
    return cjk + int((len(text) - cjk) / 3.5) + 4 * len(messages)


@dataclass
class Quirks:
    json_schema_status: int | None = None
    response_format_status: int | None = None
    text_tools: str | None = None  # flat | bare | tagged | fenced
    think: bool = False
    reasoning_content: bool = False
    unknown_params: frozenset[str] = field(default_factory=frozenset)
    tools_status: int | None = None
    streaming: str | None = None  # refuse | ignore
    context_tokens: int | None = None  # llama.cpp's -c: the context window in tokens
    seen_refusals: list[str] = field(default_factory=list)
    largest_prompt: int = 0  # the most tokens a prompt this server accepted had

    def too_long(self, body: dict[str, Any]) -> bytes | None:
        """llama.cpp's 400 body when the prompt does not fit the window, else None."""
        if not self.context_tokens:
            return None
        asked = prompt_tokens(body)
        if asked < self.context_tokens:
            self.largest_prompt = max(self.largest_prompt, asked)
            return None
        self.seen_refusals.append("context")
        error = {
            "code": 400,
            "message": LLAMA_CPP_CONTEXT_400,
            "type": "exceed_context_size_error",
            "n_prompt_tokens": asked,
            "n_ctx": self.context_tokens,
        }
        return json.dumps({"error": error}).encode()

    def refusal(self, body: dict[str, Any]) -> tuple[int, str] | None:
        """The error this server answers ``body`` with, or None."""
        fmt = body.get("response_format") or {}
        for name in sorted(self.unknown_params):
            if name in body:
                return self._refuse(400, f"Unrecognized request argument supplied: {name}", name)
        if self.response_format_status and fmt:
            status = self.response_format_status
            return self._refuse(status, "response_format is not supported", "response_format")
        if self.json_schema_status and fmt.get("type") == "json_schema":
            status = self.json_schema_status
            message = LLAMA_CPP_500 if status >= 500 else DEEPSEEK_400
            return self._refuse(status, message, "json_schema")
        if self.tools_status and body.get("tools"):
            return self._refuse(self.tools_status, "tools are not supported", "tools")
        if self.streaming == "refuse" and body.get("stream"):
            return self._refuse(400, "stream is not supported by this server", "stream")
        return None

    def _refuse(self, status: int, message: str, what: str) -> tuple[int, str]:
        self.seen_refusals.append(what)
        return status, message

    def content_for_calls(self, calls: list[dict[str, Any]]) -> str:
        """Tool calls as this server writes them into the message text."""
        objects = []
        for call in calls:
            args = call.get("arguments", {})
            args = json.loads(args) if isinstance(args, str) else args
            if self.text_tools == "flat":
                objects.append({"name": call["name"], **args})
            else:
                objects.append({"name": call["name"], "arguments": args})
        if self.text_tools == "tagged":
            return "\n".join(
                f"<tool_call>\n{json.dumps(o, ensure_ascii=False)}\n</tool_call>" for o in objects
            )
        text = json.dumps(objects[0] if len(objects) == 1 else objects, ensure_ascii=False)
        if self.text_tools == "fenced":
            return f"I will look that up.\n```json\n{text}\n```"
        return text

    def dress(self, content: str) -> str:
        """The content as a reasoning model writes it."""
        if self.think:
            return (
                "<think>\nThe owner asks something; let me think it through first.\n</think>\n\n"
                + content
            )
        return content

    def reasoning(self) -> str | None:
        return "Reasoning the owner must never read." if self.reasoning_content else None
