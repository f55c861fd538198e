"""What went wrong with a model call, in words the owner can read, and what part of our request
the endpoint refused.

Why a module of its own: a provider's error is a status code plus free text (often a stack
trace: llama.cpp's server answers a ``json_schema`` request with HTTP 500 and pydantic's
validation dump). The owner gets one sentence naming the cause (``core.errors`` keeps the
sentences: address wrong, key wrong, model unknown, not supported, busy, down); the technical
detail stays in the error's ``detail`` for the log and the ledger. ``refused_feature`` tells the
capability negotiation (``core.llm.capabilities``) which request field to drop or replace.
"""

from __future__ import annotations

import json
import logging
import re

import openai

from core.errors import (
    LLMAddressWrong,
    LLMBusy,
    LLMContextTooLong,
    LLMDown,
    LLMError,
    LLMKeyRejected,
    LLMModelUnknown,
    LLMUnsupported,
)

log = logging.getLogger(__name__)

# request features a server may refuse, most specific first (the order the text is searched in)
FEATURES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("max_tokens", re.compile(r"max_(?:completion_)?tokens", re.I)),
    ("stream_options", re.compile(r"stream_options|include_usage", re.I)),
    ("parallel_tool_calls", re.compile(r"parallel_tool_calls", re.I)),
    ("json_schema", re.compile(r"json_schema|'text' or 'json_object'|structured output", re.I)),
    ("json_object", re.compile(r"json_object|response_format", re.I)),
    ("tools", re.compile(r"\btools?\b|tool_choice|function[_ ]call", re.I)),
    ("stream", re.compile(r"\bstream(ing)?\b", re.I)),
)
# "This model's maximum context length is 4096 tokens", llama.cpp's "the request exceeds the
# available context size" (with n_ctx / n_prompt_tokens), llama-cpp-python's "Requested tokens
# (5000) exceed context window of 4096", Anthropic-style "prompt is too long"
_CONTEXT = re.compile(
    r"context[_ ]length|maximum context|context (?:size|window)|exceed\w* (?:the )?(?:available )?"
    r"context|n_ctx|prompt is too long|too many tokens",
    re.I,
)
_LIMIT = re.compile(
    r"(?:maximum context length is|context window of|n_ctx\W{0,4}|context size (?:of|is))\s*(\d{3,7})",
    re.I,
)
_ASKED = re.compile(
    r"(?:resulted in|requested tokens \(|n_prompt_tokens\W{0,4}|you requested)\s*(\d{3,7})", re.I
)
_NAMED_IN_500 = frozenset({"json_schema", "json_object", "stream_options", "parallel_tool_calls"})
_MODEL_UNKNOWN = re.compile(
    r"model[^.\n]{0,80}(not (be )?found|does not exist|not exist|unknown|invalid|not supported)"
    r"|(unknown|invalid|no such) model|model_not_found",
    re.I,
)


def refused_feature(detail: str) -> str | None:
    """The request feature an error text names (``json_schema``, ``tools``…), or None."""
    for name, pattern in FEATURES:
        if pattern.search(detail):
            return name
    return None


def translate(exc: Exception) -> LLMError:
    """The openai client's exception as one of ``core.errors``' LLM errors (detail kept)."""
    if isinstance(exc, LLMError):
        return exc
    if isinstance(exc, openai.APITimeoutError):
        return LLMDown("timeout")
    if isinstance(exc, openai.APIConnectionError):
        return LLMAddressWrong(f"connection failed: {exc}"[:500])
    if isinstance(exc, openai.APIStatusError):
        return from_status(exc.status_code, str(exc.message) + _numbers(exc.body))
    return LLMError(f"{type(exc).__name__}: {exc}"[:500])


_NUMBER_FIELDS = ("n_prompt_tokens", "n_ctx")


def _numbers(body: object) -> str:
    """The sizes an error body carries beside its message: llama.cpp's context refusal says
    "the request exceeds the available context size" and puts the window (``n_ctx``) and the
    prompt (``n_prompt_tokens``) in fields of their own, which the client's message drops."""
    if not isinstance(body, dict):
        return ""
    found = {k: body[k] for k in _NUMBER_FIELDS if isinstance(body.get(k), int)}
    return f" {json.dumps(found)}" if found else ""


def from_status(status: int, message: str) -> LLMError:
    """An HTTP error status and the endpoint's text, as the error the owner will read."""
    detail = f"HTTP {status}: {message}"[:2000]
    feature = refused_feature(message)
    if status in (401, 403):
        return LLMKeyRejected(detail)
    if status == 429:
        return LLMBusy(detail)
    if _MODEL_UNKNOWN.search(message):
        return LLMModelUnknown(detail)
    if status == 404:  # no model named: the path is wrong (a base URL without /v1, say)
        return LLMAddressWrong(detail)
    if status in (400, 413, 422) and _CONTEXT.search(message):
        return LLMContextTooLong(
            detail, limit=_number(_LIMIT, message), asked=_number(_ASKED, message)
        )
    if status >= 500 and feature not in _NAMED_IN_500:  # "stream closed" names no field of ours
        feature = None
    if status in (400, 405, 415, 422) or (status >= 500 and feature is not None):
        return LLMUnsupported(detail, feature=feature or "")
    if status in (408, 409) or status >= 500:
        return LLMDown(detail)
    return LLMError(detail)


def _number(pattern: re.Pattern[str], message: str) -> int:
    found = pattern.search(message)
    return int(found.group(1)) if found else 0


def feature_of(error: LLMError) -> str | None:
    """The refused feature an error carries (set by ``from_status``), or None."""
    value = error.params.get("feature") if isinstance(error, LLMUnsupported) else None
    return str(value) if value else None


def is_transient(error: LLMError) -> bool:
    """Worth asking again later (unreachable, busy, down); a refusal or a wrong key is not."""
    return bool(getattr(error, "transient", False))
