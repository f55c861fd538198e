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
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar

from pydantic import BaseModel

if TYPE_CHECKING:
    from core.llm.completion import Completion

M = TypeVar("M", bound=BaseModel)

# What a model call is booked against in the ledger (``core.llm.ledger.REF_KEYS``: message_pk,
# inquiry_id, draft_id): row ids, or None when the call has none yet.
LedgerRefs: TypeAlias = Mapping[str, int | None]


class ModelClient(Protocol):
    """The model calls a feature may make (``LLMClient`` has this shape)."""

    @property
    def available(self) -> bool: ...

    async def context_window(self, tier: int) -> int: ...

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
    ) -> Completion: ...

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
    ) -> Completion: ...

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
    ) -> M: ...

    async def text(
        self,
        *,
        tier: int,
        purpose: str,
        prompt: str,
        variables: Mapping[str, object],
        refs: LedgerRefs | None = None,
    ) -> str: ...
