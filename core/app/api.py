"""``FrontEnd``: the typed API the front ends (the desktop's windows, the CLI) use of an ``App``.

Why a separate type: ``App`` is also the composition root, and beside its services it carries
the runtime handles only the background work needs — the mail runtimes, the pollers, the
pipeline, the Bot API client, the runner lease, the change feed. Those are ``core.runtime``'s
(the supervisor) and the root's business; a window that reached for them would be assembling
background work itself. ``FrontEnd`` names what a front end may use: the capability-shaped
services, the folder's settings, paths, clock and events, and a few questions. ``App``
satisfies it (mypy checks ``front_end`` below); ``RUNTIME_HANDLES`` names what stays inside,
and ``tests/foundation/test_front_end_api.py`` keeps every public member of ``App`` in exactly
one of the two and the front ends off the handles.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from core.app.assistant import AssistantService
    from core.app.attachment_copies import AttachmentCopies
    from core.app.attention import AttentionService
    from core.app.connection_tests import ConnectionTests
    from core.app.desktop_support import DesktopSupport
    from core.app.draft_reading import DraftReading
    from core.app.facade import App
    from core.app.inquiries import InquiryService
    from core.app.intake import IntakeService
    from core.app.knowledge import KnowledgeService
    from core.app.lazy import LazyDrafts, LazyLLM
    from core.app.mail_accounts import MailAccountService
    from core.app.memories import MemoryService
    from core.app.notifications import NotificationService
    from core.app.proposals import ProposalService
    from core.app.quotes import QuoteService
    from core.app.rhythm import RhythmService
    from core.app.state import AppStateService
    from core.app.stats import StatsService
    from core.app.telegram import TelegramService
    from core.app.voice import VoiceService
    from core.clock import Clock
    from core.config import Settings
    from core.demo import DemoResult
    from core.events import EventBus
    from core.graph.auth import MsalAuth
    from core.paths import DataPaths
    from core.secrets import Secrets

__all__ = ["RUNTIME_HANDLES", "FrontEnd", "front_end"]

# The App's members a front end never uses: the background work's (core.runtime) and the root's.
RUNTIME_HANDLES = frozenset(
    {
        "changes",  # the change feed: the supervisor runs it
        "first_replies",  # intake hands it each new A/B inquiry; no window calls it
        "quote_acceptances",  # told of merged replies by the bus; no window calls it
        "close_graph",
        "close_telegram_client",
        "customer_drive",  # the assistant's OneDrive tools get it from the root
        "graph",
        "lease",
        "mailbox",
        "mailer",
        "new_telegram_client",  # ConnectionTests uses it for 测试连接
        "pipeline",
        "scheduler",
        "sync_runtime",
        "take_graph",
        "take_mailbox",
        "telegram_client",
    }
)


class FrontEnd(Protocol):
    """What a window or a command may use of the ``App`` of its data folder."""

    is_demo: bool
    state: AppStateService
    llm: LazyLLM
    drafts: LazyDrafts
    attention: AttentionService
    intake: IntakeService

    # built on first use (``functools.cached_property`` on ``App``): read-only here
    @property
    def inquiries(self) -> InquiryService: ...

    @property
    def notifications(self) -> NotificationService: ...

    @property
    def draft_reading(self) -> DraftReading: ...

    @property
    def attachment_copies(self) -> AttachmentCopies: ...

    @property
    def assistant(self) -> AssistantService: ...

    @property
    def memories(self) -> MemoryService: ...

    @property
    def knowledge(self) -> KnowledgeService: ...

    @property
    def proposals(self) -> ProposalService: ...

    @property
    def quotes(self) -> QuoteService: ...

    @property
    def mail_accounts(self) -> MailAccountService: ...

    @property
    def rhythm(self) -> RhythmService: ...

    @property
    def stats(self) -> StatsService: ...

    @property
    def telegram(self) -> TelegramService: ...

    @property
    def voice(self) -> VoiceService: ...

    @property
    def connection_tests(self) -> ConnectionTests: ...

    @property
    def desktop(self) -> DesktopSupport: ...

    @property
    def clock(self) -> Clock: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def secrets(self) -> Secrets: ...

    @property
    def paths(self) -> DataPaths: ...

    @property
    def home(self) -> Path: ...

    @property
    def bus(self) -> EventBus: ...

    def uses_imap(self) -> bool: ...

    def graph_configured(self) -> bool: ...

    def mail_configured(self) -> bool: ...

    def store_kind(self) -> str: ...

    def microsoft_auth(self) -> MsalAuth: ...

    async def load_demo(self) -> DemoResult: ...

    async def aclose(self) -> None: ...

    def close(self) -> None: ...


def front_end(app: App) -> FrontEnd:
    """``app`` as its front ends see it (and the check, by mypy, that ``App`` satisfies it)."""
    return app
