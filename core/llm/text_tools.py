"""Tool calls written in the answer's text, and reasoning text the owner must never read.

Why: many local models (llama.cpp's server, Ollama and LM Studio with small Qwen/Hermes models)
answer a request with ``tools`` by writing the call into ``content`` instead of ``tool_calls``;
reasoning models prefix their answer with ``<think>…</think>`` (or send ``reasoning_content``).
Shown as is, the owner would read ``{"name": "search_inquiries", …}`` or the model's musings.
The shapes understood here, each only for a tool the request offered (so a JSON *answer* is
never mistaken for a call):

    <tool_call>{"name": "t", "arguments": {…}}</tool_call>     Hermes / Qwen (several allowed)
    ```json {"name": "t", "arguments": {…}} ```                 fenced
    {"name": "t", "arguments": {…}}  /  "parameters"            a bare object (or a list of them)
    {"name": "t", "query": "…"}                                 arguments flattened beside the name
    {"type": "function", "function": {"name": "t", …}}          OpenAI's own shape, as text
    [TOOL_CALLS] [{…}]                                          Mistral
    <reply>{"name": "t", "arguments": []}</reply>               one made-up tag; list arguments
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Callable, Collection
from typing import Any

_THINK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
_OPEN_THINK = re.compile(r"^\s*<(think|thinking|reasoning)>", re.IGNORECASE)
_CLOSE_ONLY = re.compile(r"^.*?</(think|thinking|reasoning)>", re.DOTALL | re.IGNORECASE)
_TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL | re.IGNORECASE)
_FENCED = re.compile(r"```(?:json|JSON|tool_call)?\s*(.*?)```", re.DOTALL)
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "input", "tool_input")
_NAME_KEYS = ("name", "tool", "tool_name", "function")


def strip_reasoning(text: str) -> str:
    """The answer without ``<think>…</think>`` blocks (an unclosed one at the start hides all;
    a lone ``</think>`` — servers that strip the opening tag — hides what precedes it)."""
    if not text:
        return ""
    cleaned = _THINK.sub("", text)
    if _OPEN_THINK.match(cleaned):
        return ""  # still thinking when the answer stopped
    if re.search(r"</(think|thinking|reasoning)>", cleaned, re.IGNORECASE):
        cleaned = _CLOSE_ONLY.sub("", cleaned, count=1)
    return cleaned.strip()


def _call_from(decoded: object, known: Collection[str]) -> dict[str, Any] | None:
    """One ``{id, name, arguments}`` call from a decoded object, or None if it is not one."""
    if not isinstance(decoded, dict):
        return None
    function = decoded.get("function")  # {"type": "function", "function": {...}}
    obj = function if isinstance(function, dict) else decoded
    name = next((obj[k] for k in _NAME_KEYS if isinstance(obj.get(k), str)), None)
    if name is None:
        return None
    if name not in known and not any(k in obj for k in ("arguments", "parameters")):
        return None  # an unknown name with flattened arguments may be a JSON answer
    # an unknown tool written as a call stays a call: the loop answers "no such tool", and the
    # owner never reads the raw call
    args: object = next((obj[k] for k in _ARGUMENT_KEYS if k in obj), None)
    if args is None:  # flattened: every other key is an argument
        args = {k: v for k, v in obj.items() if k not in (*_NAME_KEYS, "id", "type")}
    if isinstance(args, str):
        try:
            args = json.loads(args or "{}")
        except ValueError:
            return None
    if args == []:
        args = {}  # ``"arguments": []`` -- small models write "no arguments" as an empty list
    if not isinstance(args, dict | list):
        return None
    # arguments of the wrong shape (a list) stay a call: the loop answers "invalid arguments"
    # with the real tool list, and the owner never reads the raw call (#45)
    return {
        "id": f"call_{uuid.uuid4().hex[:12]}",
        "name": name,
        "arguments": json.dumps(args, ensure_ascii=False),
    }


def _calls_in(candidate: str, known: Collection[str]) -> list[dict[str, Any]]:
    try:
        decoded = json.loads(candidate)
    except ValueError:
        start, end = candidate.find("{"), candidate.rfind("}")
        if not 0 <= start < end:
            return []
        try:
            decoded = json.loads(candidate[start : end + 1])
        except ValueError:
            return []
    items = decoded if isinstance(decoded, list) else [decoded]
    calls = [_call_from(item, known) for item in items]
    return [c for c in calls if c is not None] if all(calls) else []


_WRAPPER = re.compile(r"^<([A-Za-z_][\w-]*)>\s*(.*?)\s*(?:</\1>)?$", re.DOTALL)


def _unwrapped(text: str) -> str:
    """``<reply>{"name": …}</reply>``: a call inside one made-up tag is still a call."""
    match = _WRAPPER.match(text)
    return match.group(2) if match else text


def parse_tool_calls(text: str, known: Collection[str]) -> tuple[list[dict[str, Any]], str]:
    """Tool calls written in ``text`` for tools in ``known``, and the text that remains for the
    owner (chatter around the calls). No calls found: ``([], text)`` unchanged."""
    body = strip_reasoning(text)
    if not body or not known:
        return [], body
    tagged = list(_TAGGED.finditer(body))
    if tagged:
        calls = [c for m in tagged for c in _calls_in(m.group(1), known)]
        if calls:
            return calls, _TAGGED.sub("", body).strip()
    marker = body.find("[TOOL_CALLS]")
    if marker >= 0:
        calls = _calls_in(body[marker + len("[TOOL_CALLS]") :], known)
        if calls:
            return calls, body[:marker].strip()
    for fenced in _FENCED.finditer(body):
        calls = _calls_in(fenced.group(1), known)
        if calls:
            return calls, (body[: fenced.start()] + body[fenced.end() :]).strip()
    stripped = _unwrapped(body.strip())
    if stripped[:1] in "{[":
        calls = _calls_in(stripped, known)
        if calls:
            return calls, ""
    return [], body


def looks_like_call_start(text: str) -> bool:
    """True while streamed text could still turn out to be a written tool call (or reasoning):
    the stream filter holds such text back instead of showing it."""
    head = text.lstrip()
    if not head:
        return False
    for marker in ("<tool_call>", "```", "[TOOL_CALLS]", "<think>", "<thinking>", "<reasoning>"):
        if head.startswith(marker) or marker.startswith(head):
            return True
    return head[0] in "{["


class VisibleStream:
    """Streamed text pieces → what the owner may watch arrive: reasoning and anything that may be
    a written tool call is held back; ``finish`` hands over the held text that proved plain."""

    def __init__(self, sink: Callable[[str], None], *, tools: bool) -> None:
        self.sink = sink
        self.tools = tools
        self.raw = ""
        self.shown = 0  # characters of the visible text already handed to the sink
        self.holding = False

    def add(self, piece: str) -> None:
        self.raw += piece
        visible = self._visible(final=False)
        if self.holding or visible is None:
            return
        tail = visible[self.shown :]
        cut = self._hold_from(tail)
        if cut is not None:
            self.holding = True
            tail = tail[:cut]
        if tail:
            self.shown += len(tail)
            self.sink(tail)

    def finish(self, calls_found: bool) -> None:
        """The stream ended: show what was held unless it was a tool call."""
        if calls_found:
            return
        visible = self._visible(final=True) or ""
        rest = visible[self.shown :]
        if rest.strip():
            self.shown += len(rest)
            self.sink(rest)

    def _visible(self, *, final: bool) -> str | None:
        """The text outside reasoning; None while a reasoning block is still open."""
        text = _THINK.sub("", self.raw)
        if _OPEN_THINK.match(text):
            return "" if final else None
        if re.search(r"</(think|thinking|reasoning)>", text, re.IGNORECASE):
            text = _CLOSE_ONLY.sub("", text, count=1)
        return text.lstrip()  # leading blank lines are never shown, so offsets stay put

    def _hold_from(self, tail: str) -> int | None:
        """Where in ``tail`` a possible tool call or reasoning block starts (None: nowhere)."""
        if self.shown == 0 and looks_like_call_start(tail):
            return 0 if self.tools or tail.lstrip().startswith("<") else None
        for marker in ("<tool_call>", "```", "[TOOL_CALLS]", "<think>"):
            at = tail.find(marker)
            if at >= 0 and (self.tools or marker == "<think>"):
                return at
        # a marker may be arriving in pieces: hold a trailing "<", "`" or "[" fragment
        for fragment in ("<", "`", "["):
            at = tail.rfind(fragment)
            if at >= 0 and "\n" not in tail[at:] and len(tail) - at < 13 and self.tools:
                return at
        return None
