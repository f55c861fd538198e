"""What one endpoint + model can do, and the plainer way to ask when it refuses.

Why: servers that speak "the OpenAI API" differ in what they accept. llama.cpp's server answers
``response_format: json_schema`` with HTTP 500, DeepSeek offers ``json_object`` only, many local
models put tool calls in the message text, some servers reject ``stream_options`` or streaming
itself. Instead of failing every call, the client asks in the best mode the endpoint has and
steps down one rung when it refuses:

    structured   schema  →  json_object (schema in the prompt)  →  text (JSON extracted, pydantic)
    tools        native  →  text (``tools`` sent, calls parsed from the text)
                         →  prompt (no ``tools`` field: the tools described in the prompt)
    streaming    with usage  →  without ``stream_options``  →  whole answers

A probe (``core.llm.probe``: 测试连接, ``eval``) sets every rung at once; a refusal in normal work
moves one rung (that is the re-probe when a server starts refusing). What was learnt is kept per
base URL and model in the store (``app_state`` key ``llm.capabilities:<url>|<model>``), so the
next run starts where the last one ended.
"""

from __future__ import annotations

import logging
from dataclasses import asdict, dataclass, replace
from typing import Any

from core.clock import Clock
from core.db.app_state import get_state, put_state
from core.db.store import Store

log = logging.getLogger(__name__)

STRUCTURED_MODES = ("schema", "json_object", "text")
TOOL_MODES = ("native", "text", "prompt")
STATE_PREFIX = "llm.capabilities:"


@dataclass(frozen=True)
class Capabilities:
    """How the client talks to one model; ``source`` says how it was learnt."""

    structured: str = "schema"
    tools: str = "native"
    streaming: bool = True
    stream_usage: bool = True  # ``stream_options.include_usage`` accepted
    max_tokens: bool = True  # ``max_tokens`` accepted (a strict gateway may refuse it)
    source: str = "default"  # default | preset | probe | refusal
    # the context window in tokens (0: not known): read from the server, or from its refusal
    context: int = 0

    def step_down(self, feature: str | None) -> Capabilities | None:
        """The next plainer way to ask after the endpoint refused ``feature``; None when there
        is none left (the refusal is then the caller's error)."""
        if feature == "json_schema" and self.structured == "schema":
            return replace(self, structured="json_object", source="refusal")
        if feature in ("json_object", "json_schema") and self.structured != "text":
            return replace(self, structured="text", source="refusal")
        if feature in ("tools", "parallel_tool_calls") and self.tools != "prompt":
            return replace(self, tools="prompt", source="refusal")
        if feature == "stream_options" and self.stream_usage:
            return replace(self, stream_usage=False, source="refusal")
        if feature == "stream" and self.streaming:
            return replace(self, streaming=False, source="refusal")
        if feature == "max_tokens" and self.max_tokens:
            return replace(self, max_tokens=False, source="refusal")
        return None

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, value: object) -> Capabilities | None:
        """A stored value back, or None when it is not one (an older or damaged row)."""
        if not isinstance(value, dict):
            return None
        caps = cls(
            structured=str(value.get("structured") or "schema"),
            tools=str(value.get("tools") or "native"),
            streaming=bool(value.get("streaming", True)),
            stream_usage=bool(value.get("stream_usage", True)),
            max_tokens=bool(value.get("max_tokens", True)),
            source=str(value.get("source") or "default"),
            context=_count(value.get("context")),
        )
        if caps.structured not in STRUCTURED_MODES or caps.tools not in TOOL_MODES:
            return None
        return caps


def _count(value: object) -> int:
    return value if isinstance(value, int) and value > 0 else 0


def endpoint_key(base_url: str, model: str) -> str:
    return f"{base_url.strip().rstrip('/')}|{model.strip()}"


# learnt capabilities per store (the app's client and the settings dialog's test share one)
_LEARNT: dict[tuple[int, str], Capabilities] = {}


class CapabilityBook:
    """The capabilities of every endpoint + model this data folder has talked to."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def get(self, base_url: str, model: str, default: Capabilities) -> Capabilities:
        key = endpoint_key(base_url, model)
        found = _LEARNT.get((id(self.store), key))
        if found is not None:
            return found
        try:
            stored = await self.store.read(lambda s: get_state(s, STATE_PREFIX + key))
        except Exception:  # a damaged store must not stop a model call
            log.exception("could not read the capabilities of %s", key)
            stored = None
        caps = Capabilities.from_json(stored) or default
        _LEARNT[(id(self.store), key)] = caps
        return caps

    async def put(self, base_url: str, model: str, caps: Capabilities) -> None:
        key = endpoint_key(base_url, model)
        _LEARNT[(id(self.store), key)] = caps
        now = self.clock.now()
        try:
            await self.store.run(lambda s: put_state(s, STATE_PREFIX + key, caps.as_json(), now))
        except Exception:
            log.exception("could not store the capabilities of %s", key)

    async def forget(self, base_url: str, model: str) -> None:
        """Start again from the defaults (the owner changed the server behind the address)."""
        _LEARNT.pop((id(self.store), endpoint_key(base_url, model)), None)
