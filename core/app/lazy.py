"""The parts of the system that are costly to import, built on first use.

Importing the OpenAI SDK costs about a second and drafting (its pydantic schemas, fact guard,
mailer) about 0.3 s; the board is usable before the owner ever translates or drafts, so neither is
built with the ``App``. ``warm`` imports both, one after the other, on a worker thread once the
window is up, so the first 翻译 or 起草回复 does not pay for it either.
Every one of these imports holds ``core.import_lock.IMPORTING`` (why: that module).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.import_lock import IMPORTING
from core.services import Services

if TYPE_CHECKING:
    from core.drafts.drafting import Drafting
    from core.llm.client import LLMClient


def warm() -> None:
    """Import the SDK and drafting, in turn, on the calling (worker) thread."""
    with IMPORTING:
        import core.drafts.drafting
        import core.llm.client  # noqa: F401


class LazyLLM:
    """The data folder's ``core.llm.client.LLMClient``, built on first use."""

    def __init__(self, services: Services) -> None:
        self._services = services
        self._client: LLMClient | None = None

    def client(self) -> LLMClient:
        if self._client is None:
            with IMPORTING:
                from core.llm.client import LLMClient

            s = self._services
            self._client = LLMClient(s.settings, s.secrets, s.store, s.clock)
        return self._client

    @property
    def available(self) -> bool:
        """An endpoint is configured (answered without importing the SDK)."""
        return bool(str(self._services.settings.get("llm.base_url") or "").strip())

    async def text(self, **kwargs: Any) -> str:
        return await self.client().text(**kwargs)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client(), name)


class LazyDrafts:
    """The folder's ``core.drafts.drafting.Drafting`` (composer, owner edits, owner decisions,
    reader), built on first use. Front ends hand each part only to whoever may use it."""

    def __init__(self, services: Services, llm: LazyLLM) -> None:
        self._services = services
        self._llm = llm
        self._service: Drafting | None = None

    def service(self) -> Drafting:
        if self._service is None:
            with IMPORTING:
                from core.drafts.drafting import build_drafting

            self._service = build_drafting(self._services, self._llm)
        return self._service

    def __getattr__(self, name: str) -> Any:
        return getattr(self.service(), name)
