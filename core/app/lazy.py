"""The parts of the system that are costly to import, built on first use.

Importing the OpenAI SDK costs about a second and drafting (its pydantic schemas, fact guard,
mailer) about 0.3 s; the board is usable before the owner ever translates or drafts, so neither is
built with the ``App``. ``warm`` imports both, one after the other, on a worker thread once the
window is up, so the first 翻译 or 起草回复 does not pay for it either.
Every one of these imports holds ``core.import_lock.IMPORTING`` (why: that module).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Unpack

from core.config import SettingsReader, SettingValue, coerce
from core.import_lock import IMPORTING
from core.secrets import LLM_API_KEY
from core.services import Services

if TYPE_CHECKING:
    from core.drafts.decisions import OwnerDecisions
    from core.drafts.draft_composer import DraftComposer
    from core.drafts.drafting import Drafting
    from core.drafts.edits import OwnerEdits
    from core.drafts.reader import DraftReader
    from core.llm.client import LLMClient
    from core.llm.completion import Completion
    from core.llm.model import CompleteCall, M, StreamCall, StructuredCall, TextCall
    from core.llm.probe import ProbeReport
    from core.mail.ports import Mailer
    from core.secrets import Secrets


def warm() -> None:
    """Import the SDK and drafting, in turn, on the calling (worker) thread."""
    with IMPORTING:
        import core.drafts.drafting
        import core.llm.client  # noqa: F401


class _TypedSettings(SettingsReader):
    """Settings as typed in a form, falling back to the saved ones (a trial client's). Each
    typed value is coerced to its key's type up front, as saving it would (ConfigError if not)."""

    def __init__(self, saved: SettingsReader, overrides: Mapping[str, object]) -> None:
        self._saved = saved
        self._overrides = {key: coerce(key, value, "form") for key, value in overrides.items()}

    def get(self, key: str) -> SettingValue:
        return self._overrides[key] if key in self._overrides else self._saved.get(key)


class _TypedSecrets:
    """The saved secrets, with the API key typed in a form in front (when one was typed)."""

    def __init__(self, saved: Secrets, api_key: str) -> None:
        self._saved = saved
        self._api_key = api_key

    def get(self, name: str) -> str | None:
        if name == LLM_API_KEY and self._api_key:
            return self._api_key
        result: str | None = self._saved.get(name)
        return result


class LazyLLM:
    """The data folder's ``core.llm.client.LLMClient``, built on first use: the one model
    client (and so the one ``llm.concurrency`` limit) the pipeline, drafting, the assistant
    and translation share."""

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
        return bool(self._services.settings.text("llm.base_url").strip())

    # ``ModelClient``'s calls (``core.llm.model``), handed to the client once it is built
    async def complete(self, **call: Unpack[CompleteCall]) -> Completion:
        return await self.client().complete(**call)

    async def context_window(self, tier: int) -> int:
        return await self.client().context_window(tier)

    async def stream(self, **call: Unpack[StreamCall]) -> Completion:
        return await self.client().stream(**call)

    async def structured(self, **call: Unpack[StructuredCall[M]]) -> M:
        return await self.client().structured(**call)

    async def text(self, **call: Unpack[TextCall]) -> str:
        return await self.client().text(**call)

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    async def probe(self, overrides: Mapping[str, object], api_key: str = "") -> ProbeReport:
        """Try an endpoint as typed in the settings form (``llm.*`` values over the saved ones,
        ``api_key`` over the saved key) with a few small requests, on a client of its own that
        is closed after: 测试连接 must not change the folder's client or its limit."""
        with IMPORTING:
            from core.llm import probe
            from core.llm.client import LLMClient

        s = self._services
        trial = LLMClient(
            _TypedSettings(s.settings, overrides),
            _TypedSecrets(s.secrets, api_key),  # type: ignore[arg-type]
            s.store,
            s.clock,
        )
        try:
            report = await probe.probe(trial)
            usable = isinstance(report, probe.ProbeReport) and report.ok
            if usable and report.structured != "none":  # it answers: how well does it sort?
                from core.intake.probe_mails import sort_samples

                report.mails = await sort_samples(trial)
            return report
        finally:
            await trial.aclose()


class LazyDrafts:
    """The folder's ``core.drafts.drafting.Drafting`` (composer, owner edits, owner decisions,
    reader), built on first use. Front ends hand each part only to whoever may use it.

    ``mailer`` gives the folder's mailer (``App.mailer``: SMTP, or the Graph runtime's, or None:
    cannot send), asked once when drafting is built. Without it (bare services) drafting gets a
    mailer of its own from ``core.app.standalone``."""

    def __init__(
        self,
        services: Services,
        llm: LazyLLM,
        mailer: Callable[[], Mailer | None] | None = None,
    ) -> None:
        self._services = services
        self._llm = llm
        self._mailer = mailer
        self._service: Drafting | None = None

    def service(self) -> Drafting:
        if self._service is None:
            with IMPORTING:
                from core.drafts.drafting import build_drafting

            if self._mailer is None:  # bare services (a test's): a mailer of its own, closed
                from core.app.standalone import own_mailer  # by ``Drafting.aclose``

                mailer = own_mailer(self._services)
            else:
                mailer = self._mailer()
            self._service = build_drafting(self._services, self._llm, mailer)
        return self._service

    # ``Drafting``'s four parts (``desktop.approval.parts.DraftingParts``), each from the
    # drafting built on the first ask
    @property
    def composer(self) -> DraftComposer:
        return self.service().composer

    @property
    def edits(self) -> OwnerEdits:
        return self.service().edits

    @property
    def decisions(self) -> OwnerDecisions:
        return self.service().decisions

    @property
    def reader(self) -> DraftReader:
        return self.service().reader
