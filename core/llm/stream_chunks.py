"""A streamed chat completion (server-sent ``chat.completion.chunk`` events) put back together.

Why a module of its own: ``LLMClient.stream`` hands each text piece on as it arrives, and what
remains is the same ``Completion`` a non-streamed call gives, tool calls included (OpenAI sends
each call's id and name first, then its arguments in pieces, keyed by ``index``).
"""

from __future__ import annotations

from typing import Any

from core.errors import LLMError
from core.llm.completion import json_count


class StreamAssembly:
    """The chunks of one streamed chat completion put back together: text, tool calls (their
    ``index``-keyed deltas: id and name first, arguments in pieces), usage, finish reason."""

    def __init__(self, model: str) -> None:
        self.model = model
        self.parts: list[str] = []
        self.calls: dict[int, dict[str, Any]] = {}
        self.usage: dict[str, Any] = {}
        self.finish_reason: str | None = None

    def add(self, chunk: object) -> str:
        """Take one chunk; returns the text it added ("" for none)."""
        if not isinstance(chunk, dict):
            raise LLMError("the endpoint streamed something that is not a completion chunk")
        if isinstance(chunk.get("usage"), dict):
            self.usage = chunk["usage"]
        self.model = str(chunk.get("model") or self.model)
        choices = chunk.get("choices") or []
        choice = choices[0] if choices and isinstance(choices[0], dict) else {}
        self.finish_reason = choice.get("finish_reason") or self.finish_reason
        found = choice.get("delta")
        delta: dict[str, Any] = found if isinstance(found, dict) else {}
        for call in delta.get("tool_calls") or []:
            if not isinstance(call, dict):
                continue
            slot = self.calls.setdefault(
                json_count(call.get("index")), {"id": None, "name": "", "arguments": ""}
            )
            slot["id"] = call.get("id") or slot["id"]
            function = call.get("function") or {}
            slot["name"] += function.get("name") or ""
            slot["arguments"] += function.get("arguments") or ""
        text = delta.get("content")
        if isinstance(text, str) and text:
            self.parts.append(text)
            return text
        return ""

    def fields(self) -> dict[str, Any]:
        """The ``core.llm.client.Completion`` fields of what arrived."""
        calls = [
            {**slot, "id": slot["id"] or f"call_{index}"}
            for index, slot in sorted(self.calls.items())
        ]
        return {
            "content": "".join(self.parts),
            "tool_calls": calls,
            "prompt_tokens": json_count(self.usage.get("prompt_tokens")),
            "completion_tokens": json_count(self.usage.get("completion_tokens")),
            "model": self.model,
            "finish_reason": self.finish_reason,
        }
