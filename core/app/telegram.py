"""The Telegram side of one data folder, as the Telegram front end (``core.telegram``) uses it.

Why a facade: the runner wires the Bot API client, the bot and the mirror (``core.notify``) with
the owner's assistant, composer and decisions. All of those are the ``App``'s, so they are built
here, in the composition root, and the front end only asks for them: the ``TelegramClient``
(``client``, one per data folder, closed by ``close_client`` or the ``App``), the pairing facts
(token, switch, paired chat, pairing codes), the outbox figures and the approval alert of a
draft. No front end touches the store or ``Services`` for these.

This is the one place for a data folder's Telegram state: the desktop's settings page (token,
pairing code, paired chat, unpair), ``telegram`` in the CLI and the runner all read and change it
here (``App.telegram``). The calls that read the store or the keyring are small single-row reads
and writes (``core.notify.pairing``), made as the settings page always made them.

A runner handed bare ``Services`` (older callers and tests, until they pass the ``App``) gets a
``TelegramService`` of its own from ``telegram_side``: it then builds its own model client and
drafting on first use, and closes them in ``aclose``.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol, TypeAlias

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from core import tasks
from core.clock import Clock
from core.config import Settings
from core.db.models import Notification
from core.errors import TelegramError
from core.events import DraftChanged, EventBus
from core.import_lock import IMPORTING
from core.notify import pairing
from core.notify.pairing import Owner, PairingCode
from core.secrets import ENV_OVERRIDES, TELEGRAM_TOKEN
from core.services import Services

if TYPE_CHECKING:
    import httpx

    from core.agent.tools.drive_access import CustomerDrive
    from core.app.assistant import AssistantService
    from core.app.lazy import LazyDrafts, LazyLLM
    from core.app.visits import VisitService
    from core.app.voice import AnyTranscriber
    from core.drafts.decisions import OwnerDecisions
    from core.drafts.draft_composer import DraftComposer
    from core.mail.ports import Mailer
    from core.notify.bot import AssistantFactory, ComposerFactory, DecisionsSource, TelegramBot
    from core.notify.mirror import TelegramMirror
    from core.notify.pacing import Pacer
    from core.notify.telegram_client import TelegramClient

__all__ = ["OUTBOX_STATUSES", "HasTelegram", "TelegramHost", "TelegramService", "telegram_side"]


class HasTelegram(Protocol):
    """What a Telegram runner is handed: the ``App`` (not imported here: no import circle)."""

    @property
    def telegram(self) -> TelegramService: ...


# the App, or (older callers, until they pass it) the bare services
TelegramHost: TypeAlias = "HasTelegram | Services"

OUTBOX_STATUSES = ("pending", "sent", "failed", "skipped")


class TelegramService:
    def __init__(
        self,
        services: Services,
        *,
        llm: LazyLLM | None = None,
        drafts: LazyDrafts | None = None,
        assistant: AssistantService | None = None,
        mailer: Callable[[], Mailer | None] | None = None,
        drive: Callable[[], CustomerDrive] | None = None,
        transcriber: Callable[[], AnyTranscriber] | None = None,
        visits: Callable[[], VisitService] | None = None,
    ) -> None:
        self._services = services
        # the App's visit confirmer (a Telegram button books through it); bare services: own
        self._visits = visits
        # the App's Whisper (its child process, #28); None for bare services (in-process)
        self._transcriber = transcriber
        # the App's mailer and OneDrive access (its one Graph client); None for bare services
        self._mailer = mailer
        self._drive = drive
        self._llm = llm
        self._drafts = drafts
        self._assistant = assistant
        self._owns_parts = llm is None  # bare services: the model and drafting are built here
        self._decisions: OwnerDecisions | None = None
        self._client: TelegramClient | None = None

    # -- what the front end reads ------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        return self._services.settings

    @property
    def bus(self) -> EventBus:
        return self._services.bus

    @property
    def clock(self) -> Clock:
        return self._services.clock

    def token(self) -> str | None:
        """The saved (or environment-preset) bot token."""
        return pairing.token(self._services)

    def token_from_env(self) -> bool:
        """The token comes from ``INQUIRY_BRIDGE_TELEGRAM_TOKEN`` (the settings field is
        read-only then)."""
        return bool(os.environ.get(ENV_OVERRIDES[TELEGRAM_TOKEN]))

    def enabled(self) -> bool:
        """Mirror on: the settings switch, or both headless variables preset."""
        return pairing.enabled(self._services)

    def base_url(self) -> str:
        return self._services.settings.text("telegram.base_url")

    def owner(self) -> Owner | None:
        """The paired (or preset) chat, or None."""
        return pairing.owner(self._services)

    def current_pairing_code(self) -> PairingCode | None:
        """The one-time code waiting for ``/start CODE``, if any."""
        return pairing.current_pairing_code(self._services)

    def new_pairing_code(self) -> PairingCode:
        """A fresh one-time code (replacing any earlier one) for ``/start CODE``."""
        return pairing.new_pairing_code(self._services)

    def unpair(self) -> None:
        pairing.unpair(self._services)

    async def outbox_counts(self) -> dict[str, int]:
        """Notifications by Telegram delivery status (``telegram status``)."""

        def count(session: Session) -> dict[str, int]:
            rows = session.execute(
                select(Notification.telegram_status, func.count(Notification.id)).group_by(
                    Notification.telegram_status
                )
            ).all()
            return {str(status): int(n) for status, n in rows}

        return await self._services.store.read(count)

    # -- the parts a runner wires ------------------------------------------------------------
    def client(self, http_client: httpx.AsyncClient | None = None) -> TelegramClient:
        """The Bot API client for the current token and URL, built on first use (and again
        after ``close_client``). ``TelegramError`` when no token is set."""
        if self._client is None:
            token = self.token()
            if not token:
                raise TelegramError("没有设置 Telegram Bot 令牌（设置 → Telegram）")
            from core.notify.telegram_client import TelegramClient

            self._client = TelegramClient(self.base_url(), token, http_client=http_client)
        return self._client

    async def close_client(self) -> None:
        """Close the Bot API client; the next ``client()`` reads the token and URL afresh."""
        client, self._client = self._client, None
        if client is not None:
            await client.aclose()

    def pacer(self) -> Pacer:
        """The ≥ 1 s gap per chat, shared by the bot and the mirror of one runner."""
        from core.notify.pacing import Pacer

        return Pacer(self._services.clock, store=self._services.store)

    def bot(
        self,
        client: TelegramClient,
        *,
        drafts: DecisionsSource,
        transcriber_factory: Callable[[], AnyTranscriber] | None,
        pacer: Pacer,
        assistant: AssistantFactory,
        composer: ComposerFactory,
        show_draft: Callable[[int], Awaitable[None]],
    ) -> TelegramBot:
        from core.notify.bot import TelegramBot

        return TelegramBot(
            self._services,
            client,
            drafts=drafts,
            transcriber_factory=transcriber_factory or self._transcriber,
            pacer=pacer,
            assistant=assistant,
            composer=composer,
            show_draft=show_draft,
            drive=self._drive,
            visits=self.visits,
        )

    def mirror(self, client: TelegramClient, owner: Owner, pacer: Pacer) -> TelegramMirror:
        from core.notify.mirror import TelegramMirror

        return TelegramMirror(self._services, client, owner, pacer=pacer)

    def decisions(self) -> OwnerDecisions:
        """The owner's decisions (same approve/send path as the desktop), built on first use;
        approve and send need Graph, not the model."""
        if self._decisions is None:
            with IMPORTING:
                from core.drafts.drafting import build_owner_decisions

            if self._mailer is not None:  # the App's: sends go through its Graph runtime
                mailer = self._mailer()
            else:  # bare services: a mailer of its own, closed by ``aclose``
                from core.app.standalone import own_mailer

                mailer = own_mailer(self._services)
            self._decisions = build_owner_decisions(self._services, mailer)
        return self._decisions

    def visits(self) -> VisitService:
        """What a visit time's button confirms with: the App's, else one over this side's
        drafting (bare services)."""
        if self._visits is not None:
            return self._visits()
        from core.app.visits import VisitService

        return VisitService(self._services, self._parts()[1])

    def _parts(self) -> tuple[LazyLLM, LazyDrafts]:
        if self._llm is None or self._drafts is None:
            from core.app.lazy import LazyDrafts, LazyLLM

            self._llm = LazyLLM(self._services)
            self._drafts = LazyDrafts(self._services, self._llm)
        return self._llm, self._drafts

    def assistant(self) -> AssistantService:
        if self._assistant is None:
            from core.app.assistant import AssistantService

            llm, drafts = self._parts()
            self._assistant = AssistantService(self._services, llm, drafts)
        return self._assistant

    def composer(self) -> DraftComposer | None:
        """What 起草回复 writes with (drafts that wait), or None without a model."""
        llm, drafts = self._parts()
        return drafts.service().composer if llm.available else None

    async def raise_draft_alert(self, draft_id: int) -> None:
        """The approval alert of a waiting draft in the outbox (raised if missing)."""
        from core.notify.outbox import NotificationCenter

        center = NotificationCenter(self._services)
        await tasks.io(
            lambda: center.on_draft_changed(DraftChanged(draft_id, None, "pending_approval"))
        )

    async def pending_draft_alert(self, draft_id: int) -> int | None:
        """The newest undelivered approval alert of a draft."""
        return await self._services.store.read(lambda s: _pending_draft_alert(s, draft_id))

    async def aclose(self) -> None:
        """Close the Bot API client and the Graph client of the decisions built here; the model
        client and drafting too when they were built here (not the App's)."""
        await self.close_client()
        decisions, self._decisions = self._decisions, None
        if decisions is not None:  # the Graph client made for sending is ours to close
            graph = getattr(decisions.sender.mailer, "client", None)
            if graph is not None and hasattr(graph, "aclose"):
                await graph.aclose()
        if self._owns_parts:
            if self._llm is not None:
                await self._llm.aclose()
            drafting = getattr(self._drafts, "_service", None)
            if drafting is not None:  # the Graph client of the drafting built here
                await drafting.aclose()


def _pending_draft_alert(session: Session, draft_id: int) -> int | None:
    return session.scalar(
        select(Notification.id)
        .where(
            Notification.kind == "draft_pending",
            Notification.ref_type == "draft",
            Notification.ref_id == draft_id,
            Notification.telegram_status == "pending",
        )
        .order_by(Notification.id.desc())
        .limit(1)
    )


def telegram_side(host: TelegramHost) -> tuple[TelegramService, bool]:
    """The Telegram service of ``host`` and whether it was made for this caller (bare services:
    then the caller closes it with ``aclose``; the App's is the App's to close)."""

    if isinstance(host, Services):
        return TelegramService(host), True
    return host.telegram, False
