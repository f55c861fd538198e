"""``ModelClient``: what the features use of ``core.llm.client.LLMClient``, as a shape.

Why a shape and not the class: the callers are handed the client itself, the front ends' lazy
wrapper that builds it on first use (``core.app.lazy.LazyLLM``), or nothing when no endpoint is
configured; and importing the client costs the OpenAI SDK. Messages, tools and schemas stay
``dict[str, Any]``: they are the chat API's JSON. Refs and prompt variables are ours: what a
call is booked against in the ledger (``LedgerRefs``), and a prompt's ``{{name}}`` values
(``Mapping[str, object]``, each shown as its ``str()``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Generic,
    Protocol,
    Required,
    TypeAlias,
    TypedDict,
    TypeVar,
    Unpack,
)

from pydantic import BaseModel

if TYPE_CHECKING:
    from core.llm.completion import Completion

M = TypeVar("M", bound=BaseModel)

# What a model call is booked against in the ledger (``core.llm.ledger.REF_KEYS``: message_pk,
# inquiry_id, draft_id): row ids, or None when the call has none yet.
LedgerRefs: TypeAlias = Mapping[str, int | None]


class CompleteCall(TypedDict, total=False):
    """``complete``'s parameters, written once: the shape and every stand-in forward them."""

    tier: Required[int]
    purpose: Required[str]
    messages: Required[list[dict[str, Any]]]
    refs: LedgerRefs | None
    response_format: dict[str, Any] | None
    tools: list[dict[str, Any]] | None
    temperature: float | None
    schema: tuple[str, dict[str, Any]] | None


class StreamCall(TypedDict, total=False):
    """``stream``'s parameters (``on_text`` gets each piece of visible text as it comes)."""

    tier: Required[int]
    purpose: Required[str]
    messages: Required[list[dict[str, Any]]]
    on_text: Callable[[str], None] | None
    refs: LedgerRefs | None
    tools: list[dict[str, Any]] | None
    temperature: float | None
    schema: tuple[str, dict[str, Any]] | None


class StructuredCall(TypedDict, Generic[M], total=False):
    """``structured``'s parameters: a prompt file, its variables and the answer's schema."""

    tier: Required[int]
    purpose: Required[str]
    prompt: Required[str]
    variables: Required[Mapping[str, object]]
    schema: Required[type[M]]
    refs: LedgerRefs | None
    on_text: Callable[[str], None] | None


class TextCall(TypedDict, total=False):
    """``text``'s parameters: a prompt file and its variables."""

    tier: Required[int]
    purpose: Required[str]
    prompt: Required[str]
    variables: Required[Mapping[str, object]]
    refs: LedgerRefs | None


class ModelClient(Protocol):
    """The model calls a feature may make (``LLMClient`` has this shape; mypy checks its
    explicit signatures against the call records above)."""

    @property
    def available(self) -> bool: ...

    async def context_window(self, tier: int) -> int: ...

    async def complete(self, **call: Unpack[CompleteCall]) -> Completion: ...

    async def stream(self, **call: Unpack[StreamCall]) -> Completion: ...

    async def structured(self, **call: Unpack[StructuredCall[M]]) -> M: ...

    async def text(self, **call: Unpack[TextCall]) -> str: ...
