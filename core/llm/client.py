"""The OpenAI-compatible client: tiers, structured answers, one repair, concurrency, ledger.

Why this module exists: principle 1 — "the LLM decides; Python moves data". Every model call is a
bounded step: a prompt file rendered with delimited data, an answer checked against a pydantic
schema, at most one repair round, then a clear error the pipeline turns into ``pending``.

    tier 1  small model  classification
    tier 2  mid model    extraction, drafting, translation
    tier 3  large model  the interactive assistant

Errors (core/errors.py):
    LLMNotConfigured no endpoint set up (a subclass of LLMUnavailable)
    LLMUnavailable   endpoint unreachable, timing out, refusing the key, or still
                     throttling/failing after the client's own retries (transient: retry later)
    LLMSchemaError   the answer broke its schema, and so did the repaired answer
    LLMError         anything else the endpoint rejected (bad request, malformed response)

The openai client does its own retries for 429/5xx (``llm.max_retries``, honouring Retry-After);
one logical call is one ledger row, whatever the retries underneath.
"""

from __future__ import annotations

import asyncio
import copy
import functools
import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import openai
from pydantic import BaseModel, ValidationError

from core.clock import Clock
from core.config import Settings
from core.db.store import Store
from core.errors import LLMError, LLMNotConfigured, LLMSchemaError, LLMUnavailable
from core.llm import ledger
from core.llm.pricing import estimate_cost, estimate_tokens
from core.llm.prompts import render_messages
from core.llm.stream_chunks import StreamAssembly
from core.secrets import LLM_API_KEY, Secrets

log = logging.getLogger(__name__)
M = TypeVar("M", bound=BaseModel)

API_KEY_TTL = 1.0  # seconds a key read from Secrets is reused
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

    def walk(node: Any) -> None:
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


def parse_json_answer(text: str) -> Any:
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


def _int(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


def _validation_problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        lines = []
        for err in exc.errors()[:12]:
            where = ".".join(str(p) for p in err.get("loc", ())) or "(root)"
            lines.append(f"- {where}: {err.get('msg')}")
        return "\n".join(lines)
    return f"- not valid JSON: {exc}"


class LLMClient:
    """Async client over ``openai.AsyncOpenAI``; one per Services, shared by every feature."""

    def __init__(
        self,
        settings: Settings,
        secrets: Secrets,
        store: Store,
        clock: Clock,
        *,
        http_client: Any = None,
    ) -> None:
        self.settings = settings
        self.secrets = secrets
        self.store = store
        self.clock = clock
        self._http_client = http_client
        self._client: openai.AsyncOpenAI | None = None
        self._client_key: tuple[Any, ...] | None = None
        self._semaphore: asyncio.Semaphore | None = None
        self._semaphore_loop: asyncio.AbstractEventLoop | None = None
        self._ledger_writer = ledger.LedgerWriter(store)
        self._api_key: tuple[float, str] | None = None  # (monotonic read time, key)

    # -- configuration ----------------------------------------------------------------
    @property
    def available(self) -> bool:
        """True when an endpoint is configured (rules-only mode otherwise)."""
        return bool(str(self.settings.get("llm.base_url") or "").strip())

    def model_for(self, tier: int) -> str:
        if tier not in (1, 2, 3):
            raise ValueError(f"tier must be 1, 2 or 3, not {tier}")
        return str(self.settings.get(f"llm.tier{tier}"))

    def _openai(self) -> openai.AsyncOpenAI:
        base_url = str(self.settings.get("llm.base_url") or "").strip()
        if not base_url:
            raise LLMNotConfigured()
        loop = asyncio.get_running_loop()
        key = (
            base_url,
            self._current_api_key(),
            int(self.settings.get("llm.max_retries")),
            float(self.settings.get("llm.timeout_seconds")),
            id(loop),
        )
        if self._client is None or key != self._client_key:
            kwargs: dict[str, Any] = {
                "base_url": base_url,
                "api_key": key[1],
                "max_retries": key[2],
                "timeout": key[3],
            }
            if self._http_client is not None:
                kwargs["http_client"] = self._http_client
            self._client = openai.AsyncOpenAI(**kwargs)
            self._client_key = key
        return self._client

    def _current_api_key(self) -> str:
        """The key from Secrets, re-read at most once per ``API_KEY_TTL`` seconds.

        Why: a keyring read (file backend: stat + read + decrypt) cost ~3 ms per call on the
        event loop; a key changed in the settings still takes effect within a second.
        """
        now = time.monotonic()
        if self._api_key is None or now - self._api_key[0] > API_KEY_TTL:
            self._api_key = (now, self.secrets.get(LLM_API_KEY) or "not-needed")
        return self._api_key[1]

    def _limit(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._semaphore is None or self._semaphore_loop is not loop:
            self._semaphore = asyncio.Semaphore(max(1, int(self.settings.get("llm.concurrency"))))
            self._semaphore_loop = loop
        return self._semaphore

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
        refs: dict[str, Any] | None = None,
        response_format: dict[str, Any] | None = None,
        tools: list[dict[str, Any]] | None = None,
        temperature: float | None = None,
    ) -> Completion:
        """One chat completion under the concurrency bound, written to the ledger.

        Public for callers that need raw chat (the assistant's tool loop); features normally use
        ``structured`` or ``text``. No temperature is sent unless given: several current models
        reject anything but their default.
        """
        model = self.model_for(tier)
        client = self._openai()
        body: dict[str, Any] = {"model": model, "messages": messages}
        if response_format is not None:
            body["response_format"] = response_format
        if tools:
            body["tools"] = tools
        if temperature is not None:
            body["temperature"] = temperature

        def prompt_estimate() -> int:  # only when the endpoint reports no usage
            return estimate_tokens("\n".join(str(m.get("content") or "") for m in messages))

        async with self._limit():
            started = time.perf_counter()
            try:
                # The generic ``post`` of the same AsyncOpenAI client (its retries, Retry-After,
                # auth, timeouts and error types) with the body as plain JSON and the answer as
                # a plain dict: ``chat.completions.create`` walks the whole request through its
                # TypedDict transformer and builds pydantic models of the answer, ~5 ms of
                # event-loop CPU per call for nothing we use.
                response = await client.post(
                    "/chat/completions",
                    body=body,
                    cast_to=object,
                    options={"security": {"bearer_auth": True}},
                )
            except Exception as exc:
                error = self._translate(exc)
                await self._ledger(
                    tier, model, purpose, prompt_estimate(), 0, started, False, str(error), refs
                )
                raise error from exc
        try:
            completion = self._reduce(response, model)
        except LLMError as error:
            await self._ledger(
                tier, model, purpose, prompt_estimate(), 0, started, False, str(error), refs
            )
            raise
        if not completion.prompt_tokens:
            completion.prompt_tokens = prompt_estimate()
        if not completion.completion_tokens:
            completion.completion_tokens = estimate_tokens(
                completion.content + json.dumps(completion.tool_calls)
            )
        completion.ledger_id = await self._ledger(
            tier,
            model,
            purpose,
            completion.prompt_tokens,
            completion.completion_tokens,
            started,
            True,
            None,
            refs,
        )
        return completion

    async def stream(
        self,
        *,
        tier: int,
        purpose: str,
        messages: list[dict[str, Any]],
        on_text: Callable[[str], None] | None = None,
        refs: dict[str, Any] | None = None,
        tools: list[dict[str, Any]] | None = None,
        temperature: float | None = None,
    ) -> Completion:
        """``complete`` with the answer streamed (``stream: true``, server-sent events).

        ``on_text`` gets each piece of the answer's text as it arrives (the assistant's chat
        panel shows it while the model writes); tool calls are assembled from their deltas.
        Usage comes from the endpoint's last chunk (``stream_options.include_usage``) or is
        estimated; one logical call is one ledger row, as for ``complete``.
        """
        model = self.model_for(tier)
        client = self._openai()
        body: dict[str, Any] = {
            "model": model,
            "messages": messages,
            "stream": True,
            "stream_options": {"include_usage": True},
        }
        if tools:
            body["tools"] = tools
        if temperature is not None:
            body["temperature"] = temperature
        assembly = StreamAssembly(model)

        def prompt_estimate() -> int:
            return estimate_tokens("\n".join(str(m.get("content") or "") for m in messages))

        async with self._limit():
            started = time.perf_counter()
            try:
                events = await client.post(
                    "/chat/completions",
                    body=body,
                    cast_to=object,
                    options={"security": {"bearer_auth": True}},
                    stream=True,
                    stream_cls=openai.AsyncStream[object],
                )
                try:
                    async for chunk in events:
                        piece = assembly.add(chunk)
                        if piece and on_text is not None:
                            on_text(piece)
                finally:
                    await events.close()
            except asyncio.CancelledError:  # the owner pressed stop: what was spent is a row
                partial = assembly.fields()
                await asyncio.shield(
                    self._ledger(
                        tier, model, purpose, prompt_estimate(),
                        estimate_tokens(partial["content"]), started, False, "cancelled", refs,
                    )
                )  # fmt: skip
                raise
            except Exception as exc:
                error = self._translate(exc)
                await self._ledger(
                    tier, model, purpose, prompt_estimate(), 0, started, False, str(error), refs
                )
                raise error from exc
        completion = Completion(**assembly.fields())
        if not completion.prompt_tokens:
            completion.prompt_tokens = prompt_estimate()
        if not completion.completion_tokens:
            completion.completion_tokens = estimate_tokens(
                completion.content + json.dumps(completion.tool_calls)
            )
        completion.ledger_id = await self._ledger(
            tier, model, purpose, completion.prompt_tokens, completion.completion_tokens,
            started, True, None, refs,
        )  # fmt: skip
        return completion

    @staticmethod
    def _translate(exc: Exception) -> LLMError:
        if isinstance(exc, openai.APITimeoutError):
            return LLMUnavailable("timeout")
        if isinstance(exc, openai.APIConnectionError):
            return LLMUnavailable(f"connection failed: {exc}")
        if isinstance(exc, openai.APIStatusError):
            status = exc.status_code
            detail = f"HTTP {status}: {exc.message}"[:500]
            if status in (401, 403, 404, 408, 409, 429) or status >= 500:
                return LLMUnavailable(detail)
            return LLMError(detail)
        if isinstance(exc, LLMError):
            return exc
        return LLMError(f"{type(exc).__name__}: {exc}"[:500])

    @staticmethod
    def _reduce(response: Any, model: str) -> Completion:
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
            prompt_tokens=_int(usage.get("prompt_tokens")),
            completion_tokens=_int(usage.get("completion_tokens")),
            model=str(response.get("model") or model),
            finish_reason=choice.get("finish_reason"),
        )

    async def _ledger(
        self,
        tier: int,
        model: str,
        purpose: str,
        prompt_tokens: int,
        completion_tokens: int,
        started: float,
        ok: bool,
        error: str | None,
        refs: dict[str, Any] | None,
    ) -> int | None:
        entry = ledger.LedgerEntry(
            at=self.clock.now(),
            tier=tier,
            model=model,
            purpose=purpose,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            latency_ms=int((time.perf_counter() - started) * 1000),
            cost_usd=estimate_cost(model, prompt_tokens, completion_tokens),
            ok=ok,
            error=error,
            refs=dict(refs or {}),
        )
        try:
            return await self._ledger_writer.record(entry)
        except Exception:  # the ledger must never turn a good answer into a lost message
            log.exception("could not write the LLM ledger row for %s", purpose)
            return None

    async def _mark_failed(self, completion: Completion, error: str) -> None:
        """The HTTP call worked but its answer was unusable: flip that call's ledger row to
        ``ok = False`` with the reason, so one call stays one row and the report says so."""
        if completion.ledger_id is None:
            return
        try:
            await ledger.mark_failed(self.store, completion.ledger_id, error)
        except Exception:
            log.exception("could not update ledger row %s", completion.ledger_id)

    # -- public feature API -----------------------------------------------------------
    async def structured(
        self,
        *,
        tier: int,
        purpose: str,
        prompt: str,
        variables: dict[str, Any],
        schema: type[M],
        refs: dict[str, Any] | None = None,
    ) -> M:
        """Ask for JSON matching ``schema``; validate; one repair round; else LLMSchemaError."""
        refs = dict(refs or {})
        messages: list[dict[str, Any]] = render_messages(prompt, variables)
        name = re.sub(r"[^A-Za-z0-9_-]", "_", schema.__name__.lower())[:64]
        json_schema = _strict_json_schema(schema)  # shared, read-only
        response_format: dict[str, Any] | None
        if self.settings.get("llm.use_json_schema"):
            response_format = {
                "type": "json_schema",
                "json_schema": {"name": name, "schema": json_schema, "strict": True},
            }
        else:  # endpoints without structured output: describe the schema in the prompt
            response_format = None
            messages[0] = dict(messages[0])
            messages[0]["content"] += "\n\nJSON schema of the answer:\n" + json.dumps(
                json_schema, ensure_ascii=False
            )

        completion = await self.complete(
            tier=tier,
            purpose=purpose,
            messages=messages,
            refs=refs,
            response_format=response_format,
        )
        answer = self._answer_text(completion)
        try:
            return schema.model_validate(parse_json_answer(answer))
        except (ValueError, ValidationError) as exc:
            problem = _validation_problem(exc)
        await self._mark_failed(completion, f"schema: {problem}")
        log.info("%s: answer broke schema %s, asking for a repair", purpose, name)

        repair = render_messages("repair", {"schema_name": name, "error": problem})
        repaired = await self.complete(
            tier=tier,
            purpose=f"{purpose}:repair",
            messages=[*messages, {"role": "assistant", "content": answer[:8000]}, *repair],
            refs=refs,
            response_format=response_format,
        )
        answer = self._answer_text(repaired)
        try:
            return schema.model_validate(parse_json_answer(answer))
        except (ValueError, ValidationError) as exc:
            problem = _validation_problem(exc)
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
        variables: dict[str, Any],
        refs: dict[str, Any] | None = None,
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

    async def translate_to_chinese(self, text: str, *, refs: dict[str, Any] | None = None) -> str:
        """The desktop's 翻译 button: faithful English -> Simplified Chinese (tier 2)."""
        return await self.text(
            tier=2, purpose="translate", prompt="translate", variables={"text": text}, refs=refs
        )
