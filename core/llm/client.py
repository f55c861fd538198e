"""The OpenAI-compatible client: tiers, structured answers, one repair, concurrency, ledger.

Why this module exists: principle 1 — "the LLM decides; Python moves data". Every model call is a
bounded step: a prompt file rendered with delimited data, an answer checked against a pydantic
schema, at most one repair round, then a clear error the pipeline turns into ``pending``.

    tier 1  small model  classification
    tier 2  mid model    extraction, drafting, translation
    tier 3  large model  the interactive assistant

Errors (core/errors.py, chosen by ``core.llm.diagnosis``; each says its cause in one sentence):
    LLMNotConfigured no endpoint set up (a subclass of LLMUnavailable)
    LLMUnavailable   endpoint unreachable (LLMAddressWrong), timing out or 5xx
                     (LLMDown), throttling after the retries (LLMBusy) — transient: retry later;
                     refusing the key (LLMKeyRejected) is not transient
    LLMModelUnknown  the model name is wrong
    LLMUnsupported   a request field refused and no plainer way left (core.llm.capabilities)
    LLMSchemaError   the answer broke its schema, and so did the repaired answer
    LLMError         anything else the endpoint rejected (malformed response)

What the endpoint can do (json_schema / json_object / text, native or written tool calls,
streaming) is negotiated per base URL and model (``core.llm.capabilities``): a refusal steps down
one mode and the call is made again; reasoning text (``<think>``) never reaches callers.

The openai client does its own retries for 429/5xx (``llm.max_retries``, honouring Retry-After);
one logical call is one ledger row, whatever the retries underneath.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, TypeVar, overload
from urllib.parse import quote

import openai
from pydantic import BaseModel, ValidationError

from core.clock import Clock
from core.config import SettingsReader
from core.db.store import Store
from core.errors import (
    LLMContextTooLong,
    LLMError,
    LLMNotConfigured,
    LLMSchemaError,
    LLMUnsupported,
)
from core.llm import context_window, diagnosis, ledger, providers
from core.llm.booking import LedgerBooking, Request
from core.llm.capabilities import Capabilities, CapabilityBook
from core.llm.completion import (
    Completion,
    _strict_json_schema,
    parse_json_answer,
    reduce_response,
    strict_json_schema,
    validation_problem,
)
from core.llm.pricing import estimate_tokens
from core.llm.prompts import render_messages
from core.llm.request_shape import build_body, output_tokens, tool_names
from core.llm.stream_chunks import StreamAssembly
from core.llm.text_tools import VisibleStream, parse_tool_calls, strip_reasoning
from core.secrets import LLM_API_KEY, Secrets

if TYPE_CHECKING:
    from collections.abc import Mapping

    from core.llm.model import LedgerRefs

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)

API_KEY_TTL = 1.0  # seconds a key read from Secrets is reused
MAX_STEPS = 7  # plainer ways to ask one request after refusals (schema → json_object → text…)
__all__ = ["Completion", "LLMClient", "parse_json_answer", "strict_json_schema"]


class LLMClient(LedgerBooking):
    """Async client over ``openai.AsyncOpenAI``; one per Services, shared by every feature."""

    def __init__(
        self,
        settings: SettingsReader,
        secrets: Secrets,
        store: Store,
        clock: Clock,
    ) -> None:
        self.settings = settings
        self.secrets = secrets
        self.store = store
        self.clock = clock
        self._client: openai.AsyncOpenAI | None = None
        self._client_key: tuple[str, str, int, float, int, str] | None = None
        self._semaphore: asyncio.Semaphore | None = None
        self._semaphore_loop: asyncio.AbstractEventLoop | None = None
        self._size = 0
        self._ledger_writer = ledger.LedgerWriter(store)
        self._api_key: tuple[float, str] | None = None  # (monotonic read time, key)
        self._book = CapabilityBook(store, clock)
        self._settled: set[str] = set()  # models whose first call came back
        self._gates: dict[tuple[int, str], asyncio.Lock] = {}
        self.limits_read: set[tuple[str, str]] = set()  # (address, model) asked for its window
        self.server_slots: dict[str, int] = {}  # requests a server said it answers at once

    # -- configuration ----------------------------------------------------------------
    @property
    def available(self) -> bool:
        """True when an endpoint is configured (rules-only mode otherwise)."""
        return bool(self.settings.text("llm.base_url").strip())

    def model_for(self, tier: int) -> str:
        if tier not in (1, 2, 3):
            raise ValueError(f"tier must be 1, 2 or 3, not {tier}")
        return self.settings.text(f"llm.tier{tier}")

    @property
    def base_url(self) -> str:
        return self.settings.text("llm.base_url").strip()

    @property
    def provider(self) -> providers.Provider | None:
        """The preset the settings name (``llm.provider``) or the address belongs to."""
        return providers.for_address(self.base_url, self.settings.text("llm.provider"))

    def default_capabilities(self) -> Capabilities:
        """What to try first with an endpoint never talked to: its preset's documented modes."""
        provider = self.provider
        caps = provider.capabilities if provider is not None else Capabilities()
        if not self.settings.flag("llm.use_json_schema") and caps.structured == "schema":
            caps = replace(caps, structured="text")
        return caps

    async def capabilities(self, tier: int) -> Capabilities:
        """How this tier's model is asked now (learnt, else the defaults)."""
        return await self._book.get(
            self.base_url, self.model_for(tier), self.default_capabilities()
        )

    async def learn(self, tier: int, caps: Capabilities) -> None:
        """Remember how this tier's model must be asked (a probe's or a refusal's result)."""
        await self._book.put(self.base_url, self.model_for(tier), caps)

    def _openai(self) -> openai.AsyncOpenAI:
        base_url = self.base_url
        if not base_url:
            raise LLMNotConfigured()
        loop = asyncio.get_running_loop()
        provider = self.provider
        key = (
            base_url,
            self._current_api_key(),
            self.settings.number("llm.max_retries"),
            self.timeout_seconds(),
            id(loop),
            provider.key if provider is not None else "",
        )
        if self._client is None or key != self._client_key:
            azure = provider is not None and provider.auth == "api-key"  # no bearer token
            self._client = openai.AsyncOpenAI(
                base_url=base_url,
                api_key=key[1],
                max_retries=key[2],
                timeout=key[3],
                default_headers={"api-key": key[1]} if azure else None,
                default_query=dict(provider.query) if provider and provider.query else None,
            )
            self._client_key = key
        return self._client

    @overload
    async def _post(self, body: dict[str, Any]) -> object: ...

    @overload
    async def _post(
        self, body: dict[str, Any], *, stream: Literal[True]
    ) -> openai.AsyncStream[object]: ...

    async def _post(self, body: dict[str, Any], *, stream: bool = False) -> object:
        """The generic ``post`` of the AsyncOpenAI client (its retries, Retry-After, timeouts
        and error types) with the body as plain JSON and the answer as a plain dict:
        ``chat.completions.create`` walks the request through its TypedDict transformer and
        builds pydantic models of the answer, ~5 ms of event-loop CPU per call for nothing we
        use. The path and the auth come from the provider (Azure: deployment path, api-key)."""
        client = self._openai()
        provider = self.provider
        path = provider.path if provider is not None else "/chat/completions"
        path = path.replace("{model}", quote(str(body["model"]), safe=""))
        bearer = provider is None or provider.auth == "bearer"
        options: openai.RequestOptions = (
            {"security": {"bearer_auth": True}}
            if bearer
            else {"security": {}, "headers": {"Authorization": openai.Omit()}}
        )
        if stream:
            return await client.post(
                path, body=body, cast_to=object, options=options,
                stream=True, stream_cls=openai.AsyncStream[object],
            )  # fmt: skip
        return await client.post(path, body=body, cast_to=object, options=options)

    def _current_api_key(self) -> str:
        """The key from Secrets, re-read at most once per ``API_KEY_TTL`` seconds: a keyring
        read cost ~3 ms per call on the event loop; a changed key takes effect within a second."""
        now = time.monotonic()
        if self._api_key is None or now - self._api_key[0] > API_KEY_TTL:
            self._api_key = (now, self.secrets.get(LLM_API_KEY) or "not-needed")
        return self._api_key[1]

    @property
    def is_local(self) -> bool:
        """A model on the owner's own PC (Ollama, LM Studio, llama.cpp presets): slow, and it
        answers one request at a time."""
        provider = self.provider
        return provider is not None and provider.local

    def concurrency(self) -> int:
        """Calls in flight at once. A local server answers one at a time: ten queued calls
        only wait into their timeouts (34 of 45 mails stayed pending that way, #45)."""
        wanted = max(1, self.settings.number("llm.concurrency"))
        if self.is_local:
            wanted = min(wanted, max(1, self.settings.number("llm.local_concurrency")))
        return min(wanted, self.server_slots.get(self.base_url, wanted))  # its /props said

    def timeout_seconds(self) -> float:
        """Patience for one call: minutes for a model on this PC, which writes a reply at a few
        tokens a second on a CPU."""
        if self.is_local:
            return float(self.settings.decimal("llm.local_timeout_seconds"))
        return float(self.settings.decimal("llm.timeout_seconds"))

    def _limit(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        size = self.concurrency()
        if self._semaphore is None or self._semaphore_loop is not loop or self._size != size:
            self._semaphore, self._semaphore_loop, self._size = asyncio.Semaphore(size), loop, size
        return self._semaphore

    async def context_window(self, tier: int) -> int:
        """The tier's context window in tokens, 0 when not known (``core.llm.context_window``):
        a model on this PC is asked once; any endpoint's refusal teaches it."""
        return await context_window.window(self, tier, ask_server=self.is_local)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

    # -- the one place a request is made ----------------------------------------------
    async def complete(
        self,
        *,
        tier: int,
        purpose: str,
        messages: list[dict[str, Any]],
        refs: LedgerRefs | None = None,
        response_format: dict[str, Any] | None = None,
        tools: list[dict[str, Any]] | None = None,
        temperature: float | None = None,
        schema: tuple[str, dict[str, Any]] | None = None,
    ) -> Completion:
        """One chat completion under the concurrency bound, written to the ledger, in the
        endpoint's modes (``schema``: ``(name, json_schema)`` of a structured answer). A refusal
        of a request field steps down one mode, is remembered, and the call is made again.

        Public for callers that need raw chat (the assistant's tool loop); features normally use
        ``structured`` or ``text``. No temperature is sent unless given: several current models
        reject anything but their default. Tool calls the model wrote in its text come back in
        ``tool_calls``; reasoning (``<think>``) never reaches ``content``.
        """
        model = self._configured_model(tier)
        if model not in self._settled:
            # the first call to a model goes alone: a refusal is learnt once, not by every call
            # the pipeline has in flight (ten concurrent json_schema requests all refused)
            async with self._gate(model):
                if model not in self._settled:
                    result = await self._negotiated(tier, model, purpose, messages, refs,
                                                    response_format, tools, temperature, schema)  # fmt: skip
                    self._settled.add(model)
                    return result
        return await self._negotiated(tier, model, purpose, messages, refs, response_format,
                                      tools, temperature, schema)  # fmt: skip

    def _configured_model(self, tier: int) -> str:
        """The tier's model; ``LLMNotConfigured`` before any request when no endpoint is set."""
        if not self.base_url:
            raise LLMNotConfigured()
        return self.model_for(tier)

    def _gate(self, model: str) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        key = (id(loop), model)
        if key not in self._gates:
            self._gates[key] = asyncio.Lock()
        return self._gates[key]

    async def _negotiated(
        self,
        tier: int,
        model: str,
        purpose: str,
        messages: list[dict[str, Any]],
        refs: LedgerRefs | None,
        response_format: dict[str, Any] | None,
        tools: list[dict[str, Any]] | None,
        temperature: float | None,
        schema: tuple[str, dict[str, Any]] | None,
    ) -> Completion:
        """``complete``'s request in the endpoint's modes, stepping down on each refusal."""
        caps = await self.capabilities(tier)
        refused: LLMError | None = None
        for _step in range(MAX_STEPS):
            body = build_body(
                model, messages, caps, response_format=response_format, schema=schema,
                tools=tools, temperature=temperature, max_tokens=output_tokens(purpose),
            )  # fmt: skip
            try:
                completion = await self._call(
                    Request(tier, model, purpose, body["messages"], refs), body
                )
            except LLMError as error:
                feature = diagnosis.feature_of(error)
                if feature == "json_object" and "json_schema" in json.dumps(
                    body.get("response_format")
                ):
                    feature = "json_schema"  # "this response_format type is unavailable"
                lower = caps.step_down(feature)
                if lower is None:
                    raise
                refused, caps = error, lower
                log.warning("%s: %s refused %s; asking again as %s", purpose, model,
                            feature, lower)  # fmt: skip
                await self.learn(tier, caps)
                continue
            return await self._finish(tier, caps, completion, tools)
        assert refused is not None
        raise refused

    async def _call(self, request: Request, body: dict[str, Any]) -> Completion:
        """One HTTP request and its ledger row (failed or not)."""
        async with self._limit():
            request.start()
            try:
                response = await self._post(body)
                completion = reduce_response(response, request.model)
            except Exception as exc:
                error = await self._refused(request, exc)
                await context_window.learn_refusal(self, request.tier, error)
                raise error from exc
        return await self._booked(request, completion)

    async def _finish(
        self,
        tier: int,
        caps: Capabilities,
        completion: Completion,
        tools: list[dict[str, Any]] | None,
    ) -> Completion:
        """Reasoning removed; tool calls written in the text moved to ``tool_calls`` (and the
        endpoint remembered as one that writes them so)."""
        completion.content = strip_reasoning(completion.content)
        if tools and not completion.tool_calls:
            calls, rest = parse_tool_calls(completion.content, tool_names(tools))
            if calls:
                completion.tool_calls, completion.content = calls, rest
                if caps.tools == "native":
                    await self.learn(tier, replace(caps, tools="text", source="refusal"))
        return completion

    async def stream(
        self,
        *,
        tier: int,
        purpose: str,
        messages: list[dict[str, Any]],
        on_text: Callable[[str], None] | None = None,
        refs: LedgerRefs | None = None,
        tools: list[dict[str, Any]] | None = None,
        temperature: float | None = None,
        schema: tuple[str, dict[str, Any]] | None = None,
    ) -> Completion:
        """``complete`` with the answer streamed (``stream: true``, server-sent events).

        ``on_text`` gets each piece of the answer's text as it arrives (the assistant's chat
        panel shows it while the model writes) — never reasoning, never a tool call written as
        text (such text is held back until it proves plain). Tool calls are assembled from
        their deltas. Usage comes from the endpoint's last chunk (``stream_options``) or is
        estimated. An endpoint that refuses streaming (or answers a streamed request in one
        piece) gets whole-answer calls from then on; one logical call is one ledger row.
        ``schema``: a structured answer streamed (a draft from a slow model), as ``complete``.

        Patience is per piece, not per answer: the timeout (``timeout_seconds``) bounds each
        wait for the next chunk, so a model that writes for five minutes, a word at a time,
        ends in an answer where a whole-answer call would have timed out (#45).
        """
        model = self._configured_model(tier)
        caps = await self.capabilities(tier)
        for _step in range(MAX_STEPS):
            if not caps.streaming:
                break
            body = build_body(
                model, messages, caps, tools=tools, temperature=temperature, stream=True,
                max_tokens=output_tokens(purpose), schema=schema,
            )  # fmt: skip
            visible = VisibleStream(on_text or (lambda _text: None), tools=bool(tools))
            try:
                request = Request(tier, model, purpose, body["messages"], refs)
                streamed = await self._call_streamed(request, body, visible)
            except LLMError as error:
                feature = diagnosis.feature_of(error)
                lower = caps.step_down(feature)
                if (
                    lower is None
                    and isinstance(error, LLMUnsupported)
                    and not isinstance(error, LLMContextTooLong)  # too long, streamed or not
                ):
                    lower = caps.step_down("stream")  # refused still: the streamed form itself
                if lower is None:
                    raise
                caps = lower
                await self.learn(tier, caps)
                continue
            if streamed is None:  # not one event: the server does not stream
                caps = replace(caps, streaming=False, source="refusal")
                await self.learn(tier, caps)
                break
            completion = await self._finish(tier, caps, streamed, tools)
            visible.finish(bool(completion.tool_calls))
            return completion
        completion = await self.complete(
            tier=tier, purpose=purpose, messages=messages, refs=refs, tools=tools,
            temperature=temperature, schema=schema,
        )  # fmt: skip
        if on_text is not None and completion.content and not completion.tool_calls:
            on_text(completion.content)
        return completion

    async def _call_streamed(
        self, request: Request, body: dict[str, Any], visible: VisibleStream
    ) -> Completion | None:
        """One streamed request; None when not a single event came (no streaming there)."""
        assembly = StreamAssembly(request.model)
        events_seen = 0
        async with self._limit():
            request.start()
            try:
                events = await self._post(body, stream=True)
                try:
                    async for chunk in events:
                        events_seen += 1
                        piece = assembly.add(chunk)
                        if piece:
                            visible.add(piece)
                finally:
                    await events.close()
            except asyncio.CancelledError:  # the owner pressed stop: what was spent is a row
                spent = estimate_tokens(assembly.fields()["content"])
                await asyncio.shield(self._book_failed(request, "cancelled", spent))
                raise
            except Exception as exc:
                error = await self._refused(request, exc)
                await context_window.learn_refusal(self, request.tier, error)
                raise error from exc
        if not events_seen:
            await self._book_failed(request, "no stream events")
            return None
        return await self._booked(request, Completion(**assembly.fields()))

    # -- public feature API -----------------------------------------------------------
    async def structured(
        self,
        *,
        tier: int,
        purpose: str,
        prompt: str,
        variables: Mapping[str, object],
        schema: type[M],
        refs: LedgerRefs | None = None,
        on_text: Callable[[str], None] | None = None,
    ) -> M:
        """Ask for JSON matching ``schema``; validate; one repair round; else LLMSchemaError.

        ``on_text`` (a draft the owner watches being written) gets the answer's raw text as it
        arrives; given, or with a model on this PC, the answer is streamed, so the timeout
        bounds each wait for the next piece rather than the whole answer (``stream``)."""
        refs = dict(refs or {})
        messages: list[dict[str, Any]] = render_messages(prompt, variables)
        name = re.sub(r"[^A-Za-z0-9_-]", "_", schema.__name__.lower())[:64]
        json_schema = _strict_json_schema(schema)  # shared, read-only
        if on_text is not None or self.is_local:
            completion = await self.stream(
                tier=tier, purpose=purpose, messages=messages, refs=refs, on_text=on_text,
                schema=(name, json_schema),
            )  # fmt: skip
        else:
            completion = await self.complete(
                tier=tier, purpose=purpose, messages=messages, refs=refs,
                schema=(name, json_schema),
            )  # fmt: skip
        answer = self._answer_text(completion)
        try:
            return schema.model_validate(parse_json_answer(answer))
        except (ValueError, ValidationError) as exc:
            problem = validation_problem(exc)
        await self._mark_failed(completion, f"schema: {problem}")
        log.info("%s: answer broke schema %s, asking for a repair", purpose, name)

        repair = render_messages("repair", {"schema_name": name, "error": problem})
        repaired = await self.complete(
            tier=tier,
            purpose=f"{purpose}:repair",
            messages=[*messages, {"role": "assistant", "content": answer[:8000]}, *repair],
            refs=refs,
            schema=(name, json_schema),
        )
        answer = self._answer_text(repaired)
        try:
            return schema.model_validate(parse_json_answer(answer))
        except (ValueError, ValidationError) as exc:
            problem = validation_problem(exc)
        await self._mark_failed(repaired, f"schema: {problem}")
        raise LLMSchemaError(f"{purpose}: {problem}"[:500])

    @staticmethod
    def _answer_text(completion: Completion) -> str:
        if completion.content.strip():
            return completion.content
        if completion.tool_calls:  # some servers put structured answers in a tool call
            args = completion.tool_calls[0]["arguments"]
            return args if isinstance(args, str) else json.dumps(args)
        return ""

    async def text(
        self,
        *,
        tier: int,
        purpose: str,
        prompt: str,
        variables: Mapping[str, object],
        refs: LedgerRefs | None = None,
    ) -> str:
        """A plain-text answer (translation, drafts). An empty answer is an LLMError."""
        completion = await self.complete(
            tier=tier,
            purpose=purpose,
            messages=render_messages(prompt, variables),
            refs=refs,
        )
        if not completion.content.strip():
            await self._mark_failed(completion, "empty answer")
            raise LLMError(f"{purpose}: the model returned an empty answer")
        return completion.content.strip()

    async def translate_to_chinese(self, text: str, *, refs: LedgerRefs | None = None) -> str:
        """The desktop's 翻译 button: faithful English -> Simplified Chinese (tier 2)."""
        return await self.text(
            tier=2, purpose="translate", prompt="translate", variables={"text": text}, refs=refs
        )
