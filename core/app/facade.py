"""``App``: the system of one data folder, as the front ends use it.

Attributes:
    services: the core ``Services`` (paths, settings, store, bus, secrets, clock). Front ends
        read settings, paths and the clock from it; they never query the store themselves.
    inquiries: ``InquiryService`` — board, detail, owner edits, notes, stages, translation.
    notifications: ``NotificationService`` — what the tray shows; marking shown/read.
    state: ``AppStateService`` — small key/value facts (data mode, last folder, …).
    llm: the LLM client, built on first use (``available`` answers without building it).
    drafts: what ``core.drafts`` offers, built on first use (one attribute to re-point when
        drafting splits into composer / owner edits / owner decisions / reads).
    assistant: ``AssistantService`` — named conversations with the assistant (desktop chat,
        Telegram chat, ``ask --session``); none of them can approve or send.
    memories: ``MemoryService`` — the assistant's memories by kind; edit, retire, confirm.
    knowledge: ``KnowledgeService`` — the owner's 知识库 file (products, lead times, warranty,
        price rules, standards, FAQs): load, save, add; drafts and the assistant read it.
    proposals: ``ProposalService`` — changes the assistant proposed after reading customer mail
        (stage, note, folder); the owner confirms or drops each with one click.
    mail_accounts: ``MailAccountService`` — an IMAP/SMTP mailbox by provider (Gmail, QQ邮箱,
        163/126, iCloud, other): test the connection, save (password in the keyring).
    attention: ``AttentionService`` — 需要您确认: the pipeline's guesses (low confidence, a merge
        on the phone alone, a message the model did not understand) and his one-click answers.
    rhythm: ``RhythmService`` — stage reminders, snoozes, the evening briefing, measuring
        appointments, and ``daily()``: the background task that announces them and backs up.
    stats: ``StatsService`` — what the AI cost (the ledger by day, week, tier, purpose) and how
        well it did by his corrections, per week.
    draft_reading: ``DraftReading`` — the drafts as read (the 待审批 list), without building
        drafting; the screenshot's sample draft.
    attachment_copies: ``AttachmentCopies`` — a stored attachment saved where the owner chose,
        marked as from the internet.
    is_demo: this is the demo data folder beside the real one.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.app.assistant import AssistantService
from core.app.attachment_copies import AttachmentCopies
from core.app.attention import AttentionService
from core.app.draft_reading import DraftReading
from core.app.inquiries import InquiryService
from core.app.knowledge import KnowledgeService
from core.app.lazy import LazyDrafts, LazyLLM
from core.app.mail_accounts import MailAccountService
from core.app.memories import MemoryService
from core.app.notifications import NotificationService
from core.app.proposals import ProposalService
from core.app.rhythm import RhythmService
from core.app.state import AppStateService
from core.app.stats import StatsService
from core.clock import Clock
from core.config import Settings
from core.events import EventBus, StageChanged
from core.paths import DataPaths
from core.secrets import Secrets
from core.services import Services

if TYPE_CHECKING:
    from core.app.graph_runtime import GraphRuntime
    from core.mailbox.runtime import MailboxRuntime

log = logging.getLogger(__name__)


class App:
    def __init__(self, services: Services, *, is_demo: bool = False) -> None:
        self.services = services
        self.is_demo = is_demo
        self.llm = LazyLLM(services)
        self.inquiries = InquiryService(services, self.llm)
        self.attention = AttentionService(services, self.inquiries)
        self.attention.attach()
        self.notifications = NotificationService(services)
        self.state = AppStateService(services)
        self.drafts = LazyDrafts(services, self.llm)
        self.draft_reading = DraftReading(services)
        self.attachment_copies = AttachmentCopies()
        self.assistant = AssistantService(services, self.llm, self.drafts)
        self.memories = MemoryService(services)
        self.knowledge = KnowledgeService(services)
        self.proposals = ProposalService(services)
        self.mail_accounts = MailAccountService(services)
        self.stats = StatsService(services)
        self.rhythm = RhythmService(
            services,
            self.notifications,
            lambda: self.graph(),
            is_demo=is_demo,
            drafts=self.drafts,
            attention_settled=self.attention.settled,
        )
        self._graph: GraphRuntime | None = None
        self._mailbox: MailboxRuntime | None = None
        self._unsubscribe = services.bus.subscribe(StageChanged, self._folder_not_followed)

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
        return self.services.clock

    @property
    def settings(self) -> Settings:
        """The data folder's settings file (front ends read and change settings here)."""
        return self.services.settings

    @property
    def secrets(self) -> Secrets:
        """The keyring (or its owner-only fallback file) for tokens and API keys."""
        return self.services.secrets

    @property
    def paths(self) -> DataPaths:
        """Where this data folder keeps its database, logs, backups, cache and models."""
        return self.services.paths

    @property
    def home(self) -> Path:
        return self.services.paths.home

    @property
    def bus(self) -> EventBus:
        """The core's events (stage changed, draft changed, …) the front ends subscribe to."""
        return self.services.bus

    def graph(self, *, offline: bool = False, **overrides: Any) -> GraphRuntime:
        """The Graph runtime (client, mail sync, OneDrive, mailer), built on first use.

        ``overrides`` go to ``GraphRuntime`` (a pipeline, token provider or transport in tests).
        """
        if self._graph is None:
            from core.app.graph_runtime import GraphRuntime

            if "pipeline" not in overrides:  # the one place the system is wired together
                from core.intake.pipeline import build_pipeline

                overrides["pipeline"] = build_pipeline(self.services, offline=offline)
            self._graph = GraphRuntime(self.services, **overrides)
        return self._graph

    def uses_imap(self) -> bool:
        """This data folder reads an IMAP mailbox (``imap.url`` / ``INQUIRY_BRIDGE_IMAP_URL``)."""
        from core.mailbox.runtime import configured

        return configured(self.services.settings)

    def mailbox(self, *, offline: bool = False) -> MailboxRuntime:
        """The IMAP/SMTP runtime (sync of INBOX and Sent, the SMTP mailer), built on first use."""
        if self._mailbox is None:
            from core.intake.pipeline import build_pipeline
            from core.mailbox.runtime import MailboxRuntime

            pipeline = build_pipeline(self.services, offline=offline)
            self._mailbox = MailboxRuntime(self.services, pipeline=pipeline)
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

    async def aclose(self) -> None:
        """Close the HTTP clients (LLM, Graph) on the loop that opened them."""
        await self.llm.aclose()
        await self.close_graph()
        mailbox = self.take_mailbox()
        if mailbox is not None:
            await mailbox.aclose()

    def close(self) -> None:
        """Stop raising notifications and close the store (after ``aclose``)."""
        self._unsubscribe()
        self.attention.detach()
        self.notifications.detach()
        self.services.close()
