"""One chat completion as callers see it, and the JSON helpers of structured answers.

Why a module of its own: the client (``core.llm.client``) negotiates and sends; what comes back
— a ``Completion`` reduced from the endpoint's JSON, the strict schema sent for structured
output, the JSON pulled out of an answer and its validation problems in words a repair prompt
can quote — is plain data handling that the probe and the tests use too.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from core.errors import LLMError

_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


@dataclass
class Completion:
    """One chat completion, reduced to what callers use."""

    content: str
    tool_calls: list[dict[str, Any]] = field(default_factory=list)  # {id, name, arguments}
    prompt_tokens: int = 0
    completion_tokens: int = 0
    model: str = ""
    finish_reason: str | None = None
    ledger_id: int | None = None  # the llm_calls row of this call


def strict_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema in the form OpenAI "strict" structured output accepts: every
    object closed (``additionalProperties: false``) with all properties required, no defaults."""
    return copy.deepcopy(_strict_json_schema(model))


@functools.cache
def _strict_json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """Cached: pydantic's schema generation costs ~3 ms, and a schema class never changes.
    Callers get a deep copy from ``strict_json_schema`` or must not mutate (``structured``)."""
    schema = copy.deepcopy(model.model_json_schema())

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                node["additionalProperties"] = False
                node["required"] = list(node["properties"])
            node.pop("default", None)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return schema


def parse_json_answer(text: str) -> object:
    """JSON from a model answer, tolerating ```json fences and chatter around one object."""
    candidate = text.strip()
    fenced = _FENCE.search(candidate)
    if fenced:
        candidate = fenced.group(1).strip()
    try:
        return json.loads(candidate)
    except ValueError:
        start, end = candidate.find("{"), candidate.rfind("}")
        if 0 <= start < end:
            return json.loads(candidate[start : end + 1])
        raise


def json_count(value: object) -> int:
    """A count from the JSON; 0 for none, or for anything not a number or a numeric string."""
    if not isinstance(value, str | int | float):
        return 0  # what int() of the rest of decoded JSON (None, a list, an object) came to
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def validation_problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        lines = []
        for err in exc.errors()[:12]:
            where = ".".join(str(p) for p in err.get("loc", ())) or "(root)"
            lines.append(f"- {where}: {err.get('msg')}")
        return "\n".join(lines)
    return f"- not valid JSON: {exc}"


def reduce_response(response: object, model: str) -> Completion:
    """The chat-completion JSON (a dict) reduced to a ``Completion``; anything not shaped
    like one is an ``LLMError``, never an exception from deep inside."""
    if not isinstance(response, dict):
        raise LLMError("the endpoint answered with something that is not a chat completion")
    choices = response.get("choices")
    if not choices or not isinstance(choices, list) or not isinstance(choices[0], dict):
        raise LLMError("the endpoint answered without choices")
    choice = choices[0]
    message = choice.get("message")
    if not isinstance(message, dict):
        raise LLMError("the endpoint answered without a message")
    calls = []
    for call in message.get("tool_calls") or []:
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict):
            continue
        calls.append(
            {
                "id": call.get("id"),
                "name": function.get("name"),
                "arguments": function.get("arguments"),
            }
        )
    usage = response.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    content = message.get("content")
    return Completion(
        content=content if isinstance(content, str) else "",
        tool_calls=calls,
        prompt_tokens=json_count(usage.get("prompt_tokens")),
        completion_tokens=json_count(usage.get("completion_tokens")),
        model=str(response.get("model") or model),
        finish_reason=choice.get("finish_reason"),
    )


_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def partial_string_field(text: str, name: str) -> str | None:
    """The value of the string field ``name`` in JSON that is still arriving (a streamed
    structured answer), decoded as far as it has come; None until the field has begun.

    Why: a draft streamed from a slow model is a JSON object; the owner watches the email's
    text grow (``body_en`` so far), never the JSON around it. An escape cut in half at the end
    of the text waits for the next piece."""
    found = re.search(r'"' + re.escape(name) + r'"\s*:\s*"', text)
    if found is None:
        return None
    out: list[str] = []
    i, end = found.end(), len(text)
    while i < end:
        char = text[i]
        if char == '"':
            break
        if char != "\\":
            out.append(char)
            i += 1
            continue
        if i + 1 >= end:
            break  # half an escape: the rest comes with the next piece
        code = text[i + 1]
        if code == "u":
            digits = text[i + 2 : i + 6]
            if len(digits) < 4:
                break
            if re.fullmatch(r"[0-9a-fA-F]{4}", digits):
                out.append(chr(int(digits, 16)))
            i += 6
            continue
        out.append(_ESCAPES.get(code, code))
        i += 2
    return "".join(out)
