"""``App``: the system of one data folder, as the front ends use it.

Attributes:
    services: the core ``Services`` (paths, settings, store, bus, secrets, clock). Front ends
        read settings, paths and the clock from it; they never query the store themselves.
    inquiries: ``InquiryService`` — board, detail, owner edits, notes, stages, translation.
    notifications: ``NotificationService`` — what the tray shows; marking shown/read.
    state: ``AppStateService`` — small key/value facts (data mode, last folder, …).
    llm: the LLM client, built on first use (``available`` answers without building it); the
        one client the pipeline, drafting and the assistant share (one concurrency limit).
    drafts: what ``core.drafts`` offers, built on first use (one attribute to re-point when
        drafting splits into composer / owner edits / owner decisions / reads); it sends
        through ``mailer()`` (SMTP, or the Graph runtime's one client).
    assistant: ``AssistantService`` — named conversations with the assistant (desktop chat,
        Telegram chat, ``ask --session``); none of them can approve or send.
    memories: ``MemoryService`` — the assistant's memories by kind; edit, retire, confirm.
    knowledge: ``KnowledgeService`` — the owner's 知识库 file (products, lead times, warranty,
        price rules, standards, FAQs): load, save, add; drafts and the assistant read it.
    proposals: ``ProposalService`` — changes the assistant proposed after reading customer mail
        (stage, note, folder); the owner confirms or drops each with one click.
    quotes: ``QuoteService`` — quote versions on an inquiry (from his items or his words), the
        customer's PDF, his record of the customer's acceptance; the reply carrying a quote is
        an ordinary draft.
    mail_accounts: ``MailAccountService`` — an IMAP/SMTP mailbox by provider (Gmail, QQ邮箱,
        163/126, iCloud, other): test the connection, save (password in the keyring).
    attention: ``AttentionService`` — 需要您确认: the pipeline's guesses (low confidence, a merge
        on the phone alone, a message the model did not understand) and his one-click answers.
    rhythm: ``RhythmService`` — stage reminders, snoozes, the evening briefing, measuring
        appointments, and ``daily()``: the background task that announces them and backs up.
    stats: ``StatsService`` — what the AI cost (the ledger by day, week, tier, purpose) and how
        well it did by his corrections, per week.
    intake: ``IntakeService`` — ``ingest`` of a folder of .eml through the pipeline, and the
        ``inquiries`` / ``mail`` JSON contracts.
    telegram: ``TelegramService`` — the one place for Telegram state: the Bot API client
        (``telegram_client``), the token, the paired chat and pairing codes (the settings page
        and ``telegram`` in the CLI), the bot and mirror, the owner's decisions.
    voice: ``VoiceService`` — the Whisper model (warm transcriber, live dictation), its download
        and import, and WAV files, for dictation and the voice settings page.
    connection_tests: ``ConnectionTests`` — 测试连接 of the AI endpoint and the Telegram bot with
        values typed but not saved (throwaway clients, closed after).
    desktop: ``DesktopSupport`` — reopening the demo folder, the Microsoft sign-in, whether an
        account is set up.
    draft_reading: ``DraftReading`` — the drafts as read (the 待审批 list), without building
        drafting; the screenshot's sample draft.
    attachment_copies: ``AttachmentCopies`` — a stored attachment saved where the owner chose,
        marked as from the internet.
    lease: ``RunnerLease`` — which process runs this store's background work (``serve`` or a
        desktop app); taken, renewed and released by ``core.runtime.Supervisor``.
    changes: ``ChangeFeed`` — changes other processes made to the store, published on this
        process's bus as ``StoreChanged`` (live desks).
    is_demo: this is the demo data folder beside the real one.

The composition root: this class and ``core.app.build`` are the only places that make the
model, Graph and Telegram clients and the services over them (``pipeline``, ``graph``,
``mailbox``, ``mailer``, ``scheduler``, ``telegram_client``, ``load_demo``);
``tests/foundation/test_composition_root.py`` fails when anything else does.
"""

from __future__ import annotations

import logging
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import tasks
from core.app.attention import AttentionService
from core.app.changes import ChangeFeed
from core.app.intake import IntakeService
from core.app.lazy import LazyDrafts, LazyLLM
from core.app.lease import RunnerLease
from core.app.quote_acceptance import QuoteAcceptances
from core.app.state import AppStateService
from core.clock import Clock
from core.config import Settings
from core.events import EventBus, StageChanged
from core.import_lock import IMPORTING
from core.paths import DataPaths
from core.secrets import Secrets
from core.services import Services

if TYPE_CHECKING:
    import httpx

    from core.agent.tools.drive_access import CustomerDrive
    from core.app.assistant import AssistantService
    from core.app.attachment_copies import AttachmentCopies
    from core.app.connection_tests import ConnectionTests
    from core.app.desktop_support import DesktopSupport
    from core.app.draft_reading import DraftReading
    from core.app.graph_runtime import GraphRuntime
    from core.app.inquiries import InquiryService
    from core.app.knowledge import KnowledgeService
    from core.app.mail_accounts import MailAccountService
    from core.app.memories import MemoryService
    from core.app.notifications import NotificationService
    from core.app.proposals import ProposalService
    from core.app.quotes import QuoteService
    from core.app.rhythm import RhythmService
    from core.app.stats import StatsService
    from core.app.telegram import TelegramService
    from core.app.voice import VoiceService
    from core.demo import DemoResult
    from core.drafts.draft_composer import DraftComposer
    from core.drafts.first_reply import FirstReplies
    from core.graph.auth import MsalAuth
    from core.graph.client import GraphClient
    from core.intake.pipeline import IntakePipeline
    from core.mail.ports import Mailer
    from core.mailbox.runtime import MailboxRuntime
    from core.notify.telegram_client import TelegramClient
    from core.schedule import SyncScheduler

log = logging.getLogger(__name__)


class App:
    def __init__(self, services: Services, *, is_demo: bool = False) -> None:
        self._services = services
        self.is_demo = is_demo
        self.llm = LazyLLM(services)
        # Everything else is built on first use (#44): ``inquiries --json`` and the board need
        # none of pydantic (quotes), the drafts' fact guard, the mail parser, Telegram, the
        # memories or Whisper's worker, and importing them all cost a third of a CLI run.
        self.attention = AttentionService(services, lambda: self.inquiries)
        self.attention.attach()
        self.state = AppStateService(services)
        self.drafts = LazyDrafts(services, self.llm, self.mailer)
        # a reply that accepts a sent quote becomes a proposal he decides (never in a demo)
        self.quote_acceptances = QuoteAcceptances(
            services, self.llm, lambda: self.llm.available and not is_demo
        )
        self.quote_acceptances.attach()
        self.intake = IntakeService(
            services, self.pipeline, lambda: self.first_replies, self.quote_acceptances
        )
        self.lease = RunnerLease(services)
        self.changes = ChangeFeed(services)
        self._graph: GraphRuntime | None = None
        self._mailbox: MailboxRuntime | None = None
        self._unsubscribe = services.bus.subscribe(StageChanged, self._folder_not_followed)

    # -- services built on first use (their modules load then) --------------------------------
    @cached_property
    def inquiries(self) -> InquiryService:
        from core.app.inquiries import InquiryService

        return InquiryService(self._services, self.llm)

    @cached_property
    def notifications(self) -> NotificationService:
        from core.app.notifications import NotificationService

        return NotificationService(self._services)

    @cached_property
    def draft_reading(self) -> DraftReading:
        from core.app.draft_reading import DraftReading

        return DraftReading(self._services)

    @cached_property
    def attachment_copies(self) -> AttachmentCopies:
        from core.app.attachment_copies import AttachmentCopies

        return AttachmentCopies()

    @cached_property
    def assistant(self) -> AssistantService:
        from core.app.assistant import AssistantService

        return AssistantService(self._services, self.llm, self.drafts, self.customer_drive)

    @cached_property
    def memories(self) -> MemoryService:
        from core.app.memories import MemoryService

        return MemoryService(self._services)

    @cached_property
    def knowledge(self) -> KnowledgeService:
        from core.app.knowledge import KnowledgeService

        return KnowledgeService(self._services)

    @cached_property
    def proposals(self) -> ProposalService:
        from core.app.proposals import ProposalService

        return ProposalService(self._services, self.customer_drive)

    @cached_property
    def quotes(self) -> QuoteService:
        with IMPORTING:  # pydantic (why the lock: core.import_lock)
            from core.app.quotes import QuoteService

        return QuoteService(self._services, self.llm, self.drafts)

    @cached_property
    def mail_accounts(self) -> MailAccountService:
        from core.app.mail_accounts import MailAccountService

        return MailAccountService(self._services)

    @cached_property
    def stats(self) -> StatsService:
        from core.app.stats import StatsService

        return StatsService(self._services)

    @cached_property
    def voice(self) -> VoiceService:
        """Whisper in a child process (started on first use): its native imports would stall
        this process's loops (#28)."""
        from core.app.voice import VoiceService
        from core.voice.worker import WhisperProcess

        s = self._services
        return VoiceService(s.settings, s.paths, process=WhisperProcess())

    @cached_property
    def connection_tests(self) -> ConnectionTests:
        from core.app.connection_tests import ConnectionTests

        return ConnectionTests(self.llm, self.new_telegram_client)

    @cached_property
    def desktop(self) -> DesktopSupport:
        from core.app.desktop_support import DesktopSupport

        return DesktopSupport(self._services)

    @cached_property
    def rhythm(self) -> RhythmService:
        from core.app.rhythm import RhythmService

        return RhythmService(
            self._services,
            self.notifications,
            lambda: self.graph(),
            is_demo=self.is_demo,
            drafts=self.drafts,
            attention_settled=self.attention.settled,
        )

    @cached_property
    def first_replies(self) -> FirstReplies:
        """The first reply of each new A/B inquiry, drafted in the background (never in a
        demo)."""
        from core.drafts.first_reply import FirstReplies

        is_demo = self.is_demo
        return FirstReplies(
            self._services, self._first_reply_composer, lambda: self.llm.available and not is_demo
        )

    @cached_property
    def telegram(self) -> TelegramService:
        from core.app.telegram import TelegramService

        return TelegramService(
            self._services,
            llm=self.llm,
            drafts=self.drafts,
            assistant=self.assistant,
            mailer=self.mailer,
            drive=self.customer_drive,
            transcriber=lambda: self.voice.transcriber(),
            visits=lambda: self.rhythm.visits,
        )

    def _built(self, name: str) -> bool:
        """A service built on first use has been built (closing one never builds it)."""
        return name in self.__dict__

    def _folder_not_followed(self, event: StageChanged) -> None:
        """One clear line when a stage changed in the app but no OneDrive watcher here moves the
        customer's folder now (demo data: never; Graph not connected in this process: the move
        is queued in the store and done by the next process that talks to OneDrive)."""
        if event.triggered_by == "onedrive" or event.from_stage is None:
            return
        graph = self._graph
        if self.is_demo:
            log.info(
                "inquiry %s moved to stage %s; its OneDrive folder is not moved (demo data)",
                event.inquiry_id,
                event.to_stage,
            )
        elif graph is None or not graph.attached:
            log.info(
                "inquiry %s moved to stage %s; OneDrive is not connected in this process: its "
                "folder moves at the next OneDrive round (queued in owed_writes)",
                event.inquiry_id,
                event.to_stage,
            )

    @property
    def clock(self) -> Clock:
        return self._services.clock

    @property
    def settings(self) -> Settings:
        """The data folder's settings file (front ends read and change settings here)."""
        return self._services.settings

    @property
    def secrets(self) -> Secrets:
        """The keyring (or its owner-only fallback file) for tokens and API keys."""
        return self._services.secrets

    @property
    def paths(self) -> DataPaths:
        """Where this data folder keeps its database, logs, backups, cache and models."""
        return self._services.paths

    @property
    def home(self) -> Path:
        return self._services.paths.home

    @property
    def bus(self) -> EventBus:
        """The core's events (stage changed, draft changed, …) the front ends subscribe to."""
        return self._services.bus

    def pipeline(self, *, offline: bool = False, first_replies: bool = True) -> IntakePipeline:
        """An intake pipeline over the App's one model client (rules only when ``offline`` or
        no endpoint is configured). It shares that client, and so its ``llm.concurrency``
        limit, with drafting, the assistant and translation; ``App.aclose`` closes it. Its new
        A/B inquiries get their first reply drafted (``FirstReplies``) unless
        ``first_replies=False`` (``eval`` measures intake alone)."""
        from core.intake.pipeline import build_pipeline

        if offline or not self.llm.available:
            return build_pipeline(self._services, offline=True)
        return build_pipeline(
            self._services,
            offline=False,
            llm=self.llm.client(),
            on_created=self.first_replies.schedule if first_replies else None,
        )

    def _first_reply_composer(self) -> DraftComposer:
        """Only a composer for the automatic first reply: it can add to his queue, nothing
        more (no mailer is built for it)."""
        with IMPORTING:
            from core.drafts.base import DraftCore
            from core.drafts.draft_composer import DraftComposer

        return DraftComposer(DraftCore(self._services), self.llm)

    def graph(self, *, offline: bool = False, **overrides: Any) -> GraphRuntime:
        """The Graph runtime (client, mail sync, OneDrive, mailer), built on first use.

        ``overrides`` go to ``GraphRuntime`` (a pipeline, token provider or transport in tests).
        """
        if self._graph is None:
            from core.app.graph_runtime import GraphRuntime

            if "pipeline" not in overrides:  # the one place the system is wired together
                overrides["pipeline"] = self.pipeline(offline=offline)
            self._graph = GraphRuntime(self._services, **overrides)
        return self._graph

    def mailer(self) -> Mailer | None:
        """The folder's mailer: SMTP when an SMTP URL is set, else Graph through the current
        runtime's one client (``RuntimeMailer``), or None when nothing is signed in."""
        from core.app.graph_runtime import RuntimeMailer
        from core.drafts.mailer_choice import build_mailer

        try:
            return build_mailer(self._services, lambda: RuntimeMailer.port(self.graph))
        except Exception as exc:  # Graph or SMTP not usable yet: drafts compose and wait
            log.info("no mailer: %s", exc)
            return None

    def store_kind(self) -> str:
        """``sqlite`` or ``postgresql``: the engine the store runs on (``status --json``)."""
        name = self._services.store.engine.dialect.name
        return "postgresql" if name.startswith("postgres") else name

    def mail_configured(self) -> bool:
        """A mailbox to read is set up: IMAP, or a signed-in Microsoft 365 account (a token
        cache or a preset token)."""
        return self.uses_imap() or self.desktop.account_configured()

    def sync_runtime(self, *, offline: bool = False) -> GraphRuntime | MailboxRuntime:
        """The one place that decides how this folder's mail is read: the IMAP runtime (rounds
        and IDLE) when an IMAP mailbox is set, else the Graph runtime (rounds and OneDrive).
        The supervisor, ``sync`` and the scheduler all ask here."""
        return self.mailbox(offline=offline) if self.uses_imap() else self.graph(offline=offline)

    def scheduler(self, runtime: GraphRuntime | MailboxRuntime | None = None) -> SyncScheduler:
        """The polling scheduler (mail, OneDrive, approved drafts after each mail round) over
        ``runtime``, by default this folder's (``sync_runtime``)."""
        from core.schedule import SyncScheduler

        return SyncScheduler(self._services, runtime or self.sync_runtime())

    def new_telegram_client(
        self,
        token: str,
        *,
        timeout: float = 20.0,
        http_client: httpx.AsyncClient | None = None,
    ) -> TelegramClient:
        """A fresh Bot API client for ``token`` at ``telegram.base_url`` (the settings page's
        token test, before the token is saved); the caller closes it. The runner uses
        ``telegram_client``, which the App owns."""
        from core.notify.telegram_client import TelegramClient

        base_url = self._services.settings.text("telegram.base_url")
        return TelegramClient(base_url, token, http_client=http_client, timeout=timeout)

    async def load_demo(self) -> DemoResult:
        """Ingest the demo mailbox into this (demo) folder, rules only (idempotent)."""
        from core.demo import load_demo

        return await load_demo(self._services, pipeline=self.pipeline(offline=True))

    def customer_drive(self) -> CustomerDrive:
        """The assistant's OneDrive access over the Graph runtime's one client (its per-mailbox
        request limit holds for the file tools too); ``NotSignedIn`` without an account."""
        from core.agent.tools.drive_access import CustomerDrive

        def client(_services: Services) -> GraphClient:
            return self.graph().client

        return CustomerDrive(self._services, client, shared=True)

    def uses_imap(self) -> bool:
        """This data folder reads an IMAP mailbox (``imap.url`` / ``INQUIRY_BRIDGE_IMAP_URL``)."""
        from core.mailbox.account import configured

        return configured(self._services.settings)

    def mailbox(self, *, offline: bool = False) -> MailboxRuntime:
        """The IMAP/SMTP runtime (sync of INBOX and Sent, the SMTP mailer), built on first use."""
        if self._mailbox is None:
            from core.mailbox.runtime import MailboxRuntime

            self._mailbox = MailboxRuntime(self._services, pipeline=self.pipeline(offline=offline))
        return self._mailbox

    def take_mailbox(self) -> MailboxRuntime | None:
        """Hand over the IMAP/SMTP runtime for closing; ``mailbox()`` builds a fresh one."""
        mailbox, self._mailbox = self._mailbox, None
        return mailbox

    def take_graph(self) -> GraphRuntime | None:
        """Hand over the Graph runtime for closing; the next ``graph()`` builds a fresh one."""
        graph, self._graph = self._graph, None
        return graph

    async def close_graph(self) -> None:
        graph = self.take_graph()
        if graph is not None:
            await graph.aclose()

    def telegram_client(self, http_client: httpx.AsyncClient | None = None) -> TelegramClient:
        """The Bot API client for the current token and URL, built on first use; the App
        closes it (``close_telegram_client``, ``aclose``). ``TelegramError`` without a token."""
        return self.telegram.client(http_client)

    async def close_telegram_client(self) -> None:
        """Close the Bot API client; the next ``telegram_client`` reads the token afresh."""
        if self._built("telegram"):
            await self.telegram.close_client()

    def graph_configured(self) -> bool:
        """Graph can be reached from this folder (a preset token or a sign-in configured)."""
        from core.app.graph_runtime import graph_configured

        return graph_configured(self._services)

    def microsoft_auth(self) -> MsalAuth:
        """The MSAL sign-in of this folder (device code or browser; its token cache)."""
        from core.graph.auth import build_msal

        return build_msal(self._services)

    async def aclose(self) -> None:
        """Close the HTTP clients (LLM, Graph, Telegram, drafting's mailer) on the loop that
        opened them. First replies still being drafted finish first (a CLI run ends after
        them; they are bounded by the model client's timeouts)."""
        if self._built("first_replies"):
            await self.first_replies.drain()
        await self.quote_acceptances.drain()
        self.quote_acceptances.detach()
        if self._built("telegram"):
            await self.telegram.aclose()
        drafting = self.drafts._service  # built on first use; its mailer's Graph client
        if drafting is not None:
            self.drafts._service = None
            await drafting.aclose()
        await self.llm.aclose()
        await self.close_graph()
        mailbox = self.take_mailbox()
        if mailbox is not None:
            await mailbox.aclose()

    def close(self) -> None:
        """Stop raising notifications, close the store (after ``aclose``) and the I/O lane.

        The lane closes without waiting: an IMAP IDLE in flight may take minutes to return (its
        thread ends then; interpreter exit joins it, as it did asyncio's default executor), and
        the next ``core.tasks.io`` -- another data folder's App -- starts a fresh lane."""
        self._unsubscribe()
        if self._built("voice"):
            self.voice.close()
        self.attention.detach()
        if self._built("notifications"):
            self.notifications.detach()
        self._services.close()
        tasks.shutdown(wait=False)
