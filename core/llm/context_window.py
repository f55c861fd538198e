"""How much a model reads at once (its context window, in tokens) and how many requests its
server answers at once: read from the server, or learnt from its refusal.

Why: a server on the owner's PC is often started with a small window (llama.cpp's default is
2,048 or 4,096 tokens) and one slot. The assistant's first prompt alone was 3,927 tokens; at
4,096 the third question overflowed and every later one got the wrong reason (#45). Knowing the
window lets the assistant send what fits (``core.agent.fitting``) instead of learning it by
failing. Where it comes from:

- llama.cpp's ``GET /props``: ``default_generation_settings.n_ctx`` and ``total_slots``;
- ``GET /v1/models`` entries that state it (LM Studio ``loaded_context_length`` /
  ``max_context_length``, vLLM ``max_model_len``, llama.cpp ``meta.n_ctx``…);
- a refusal: the 400 that says the prompt was too long names the window
  (``LLMContextTooLong.params["limit"]``), remembered like any other capability.

Only a model on this PC is asked (a hosted API has windows of 100k tokens and no ``/props``);
the refusal is learnt from any endpoint.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, replace
from typing import Any, Protocol

import openai

from core.errors import LLMContextTooLong
from core.llm.capabilities import Capabilities

log = logging.getLogger(__name__)

READ_TIMEOUT = 5.0  # seconds for one of the small GETs
_MODEL_FIELDS = ("loaded_context_length", "max_context_length", "max_model_len", "n_ctx",
                 "context_length")  # fmt: skip


class LLMClient(Protocol):
    """What of ``core.llm.client.LLMClient`` this module uses (the client imports this
    module, so it is named by its shape, not imported)."""

    limits_read: set[tuple[str, str]]
    server_slots: dict[str, int]

    @property
    def base_url(self) -> str: ...

    def model_for(self, tier: int) -> str: ...

    async def capabilities(self, tier: int) -> Capabilities: ...

    async def learn(self, tier: int, caps: Capabilities) -> None: ...

    def _gate(self, model: str) -> asyncio.Lock: ...

    def _openai(self) -> openai.AsyncOpenAI: ...


@dataclass(frozen=True)
class ServerLimits:
    """What the server said about itself (0: it did not say)."""

    context: int = 0
    slots: int = 0


def _positive(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _root(base_url: str) -> str:
    """The server's root: llama.cpp serves ``/props`` beside ``/v1``, not under it."""
    url = base_url.rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


def limits_in_props(props: object) -> ServerLimits:
    if not isinstance(props, dict):
        return ServerLimits()
    settings = props.get("default_generation_settings")
    settings = settings if isinstance(settings, dict) else {}
    context = _positive(settings.get("n_ctx")) or _positive(props.get("n_ctx"))
    return ServerLimits(context, _positive(props.get("total_slots")))


def context_in_models(listing: object, model: str) -> int:
    """The window a ``/v1/models`` listing states for ``model`` (or its only model)."""
    data = listing.get("data") if isinstance(listing, dict) else None
    entries = [e for e in data or [] if isinstance(e, dict)]
    chosen = [e for e in entries if e.get("id") == model] or entries[:1]
    for entry in chosen:
        meta = entry.get("meta")
        for where in (entry, meta if isinstance(meta, dict) else {}):
            for name in _MODEL_FIELDS:
                if _positive(where.get(name)):
                    return _positive(where.get(name))
    return 0


async def _get(client: LLMClient, url: str) -> Any:
    options: Any = {"max_retries": 0, "timeout": READ_TIMEOUT}
    return await client._openai().get(url, cast_to=object, options=options)


async def read_limits(client: LLMClient, model: str) -> ServerLimits:
    """Ask the server (``/props``, then ``/v1/models``); nothing found is ``ServerLimits()``,
    never an error: the window is then learnt from the first refusal."""
    found = ServerLimits()
    try:
        found = limits_in_props(await _get(client, _root(client.base_url) + "/props"))
    except Exception as exc:  # not llama.cpp, or not reachable: other ways below
        log.debug("no /props at %s: %s", client.base_url, exc)
    if not found.context:
        try:
            listing = await _get(client, client.base_url.rstrip("/") + "/models")
            found = replace(found, context=context_in_models(listing, model))
        except Exception as exc:
            log.debug("no model listing at %s: %s", client.base_url, exc)
    return found


async def window(client: LLMClient, tier: int, *, ask_server: bool) -> int:
    """The tier's context window in tokens (0: not known). Read from the server once per
    address and model when ``ask_server`` (a model on this PC, or the probe)."""
    caps = await client.capabilities(tier)
    key = (client.base_url, client.model_for(tier))
    if caps.context or not ask_server or key in client.limits_read:
        return caps.context
    async with client._gate(f"window|{key[1]}"):  # mail in flight waits for the one read
        caps = await client.capabilities(tier)
        if caps.context or key in client.limits_read:
            return caps.context
        limits = await read_limits(client, key[1])
        client.limits_read.add(key)
        if limits.slots:
            client.server_slots[client.base_url] = limits.slots
        if limits.context:
            await client.learn(tier, replace(caps, context=limits.context))
        return limits.context


async def learn_refusal(client: LLMClient, tier: int, error: Exception) -> None:
    """A refusal that names the window: remembered, so the next prompt is fitted to it."""
    if not isinstance(error, LLMContextTooLong):
        return
    limit = _positive(error.params.get("limit"))
    caps = await client.capabilities(tier)
    if limit and limit != caps.context:
        log.info("%s has a context window of %d tokens", client.model_for(tier), limit)
        await client.learn(tier, replace(caps, context=limit))
