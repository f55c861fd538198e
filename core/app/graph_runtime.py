"""The Graph side of one data folder, assembled once: client, mail sync, OneDrive, categories, mailer.

The CLI (``sync``), the desktop's pollers and the benchmark all build this instead of wiring the
pieces by hand, so the rules (one shared HTTP client and its 4-request limit per mailbox, cursors
in the same store) are the same everywhere.

It does not wire the rest of the system: the intake pipeline mail sync feeds is handed in by the
caller (the system builder), with the data folder's ``Services``:
``GraphRuntime(services, pipeline=..., token_provider=..., transport=...)`` -- ``App.graph()``
in core/app is that builder.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import httpx

from core.drive.watcher import DriveWatcher
from core.errors import GraphAuthError
from core.events import MailWaiting, SyncStatus
from core.graph.auth import build_token_provider
from core.graph.categories import CategoryWriter
from core.graph.client import GraphClient, TokenProvider
from core.graph.mail_sync import MailSync, MailSyncReport
from core.graph.mailer import GraphMailer
from core.mail.ports import DraftMailer, RemovalSink

if TYPE_CHECKING:
    import asyncio

    from sqlalchemy.orm import Session

    from core.db.owed import Claimed
    from core.drive.watcher import DriveSyncReport
    from core.intake.jobs import IngestReport
    from core.services import Services

log = logging.getLogger(__name__)


class GraphRuntime:
    """Attributes: client, pipeline, mail (MailSync), drive (DriveWatcher), categories, mailer."""

    def __init__(
        self,
        services: Services,
        *,
        pipeline: RemovalSink,
        token_provider: TokenProvider | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.services = services
        settings = services.settings
        self.token_provider = token_provider or build_token_provider(services)
        self.client = GraphClient(
            settings.text("graph.base_url"),
            self.token_provider,
            transport=transport,
            clock=services.clock,
            max_concurrency=settings.number("graph.max_concurrency"),
            on_auth_error=self._auth_failed,
        )
        self.pipeline = pipeline
        self.mail = MailSync(
            self.client,
            self.pipeline,
            services.store,
            settings,
            services.clock,
            spool=services.paths.spool,
        )
        self.drive = DriveWatcher(
            self.client, services.store, settings, services.bus, services.clock
        )
        self.categories = CategoryWriter(self.client, services.store, services.bus)
        self.mailer = GraphMailer(
            self.client, send_per_minute=settings.number("graph.send_per_minute")
        )
        self._attached = False
        self._auth_down = False

    def _auth_ok(self) -> None:
        if self._auth_down:
            self._auth_down = False
            self.services.bus.publish(SyncStatus(source="auth", ok=True, code="graph_auth"))

    def attach(self) -> None:
        """Listen to the bus (categories for changed inquiries, folders for new ones)."""
        if not self._attached:
            if self.services.settings.flag("graph.write_categories"):
                self.categories.attach()
            self.drive.attach()
            self._attached = True

    @property
    def attached(self) -> bool:
        """Listening to the bus: stage changes made in the app move OneDrive folders."""
        return self._attached

    def detach(self) -> None:
        self.categories.detach()
        self.drive.detach()
        self._attached = False

    async def watch(self, woken_round: Callable[[], Awaitable[None]], stop: asyncio.Event) -> None:
        """No push between polls: Graph's change notifications need a public HTTPS endpoint a
        desktop app does not have, so ``graph.mail_poll_minutes`` is the pace."""

    def _auth_failed(self, error: GraphAuthError) -> None:
        """One "sign in again" status per outage (concurrent requests all see the 401)."""
        if self._auth_down:
            return
        self._auth_down = True
        self.services.bus.publish(
            SyncStatus(source="auth", ok=False, code=error.code, detail=error.user_message("zh_CN"))
        )

    async def mail_round(self) -> tuple[MailSyncReport, IngestReport | None]:
        """Pending messages first (a killed run's leftovers), then one delta round, then categories."""
        retried: IngestReport | None = None
        retry = getattr(self.pipeline, "retry_pending", None)
        if retry is not None:
            retried = await retry()
        report = await self.mail.run_once()
        self._auth_ok()
        owed = await self._owed_categories()
        if self.services.settings.flag("graph.write_categories") and self.categories.dirty:
            patched = 0
            try:
                patched = await self.categories.flush()
            except Exception as exc:  # categories are cosmetic: never fail the mail round
                log.warning("writing Outlook categories failed: %s", exc)
            if patched:
                # Our PATCHes change those messages, so the delta lists them again. Absorb that
                # echo now (they are known: no download, no pipeline work) so the next poll is
                # idle — one request per folder — instead of paging through our own writes.
                echo = await self.mail.run_once()
                report.new += echo.new
                report.removed += echo.removed
                report.delta_requests += echo.delta_requests
        await self._settle_categories(owed)
        # mail left for later on a nearly full disk (MailWaiting(0): a round with room)
        self.services.bus.publish(MailWaiting.after_round(report.disk))
        return report, retried

    async def _owed_categories(self) -> list[Claimed]:
        """Category writes queued by stage changes in any process (``core.db.owed``): claimed
        and marked dirty, or closed at once when categories are switched off."""
        from core.db.owed import CATEGORIES, claim, finish

        clock = self.services.clock
        store = self.services.store
        claimed = await store.run(lambda s: claim(s, CATEGORIES, clock.now(), limit=500))
        if not self.services.settings.flag("graph.write_categories"):
            now = clock.now()

            def _off(session: Session) -> None:
                for owed in claimed:
                    finish(session, owed.id, "categories are off", now)

            await store.run(_off)
            return []
        for owed in claimed:
            if owed.inquiry_id is not None:
                self.categories.mark(owed.inquiry_id)
        return list(claimed)

    async def _settle_categories(self, claimed: list[Claimed]) -> None:
        """Closed when its inquiry's messages were written; back in the queue when not."""
        from core.db.owed import finish, retry_later

        if not claimed:
            return
        now = self.services.clock.now()
        dirty = set(self.categories.dirty)

        def _close(session: Session) -> None:
            for owed in claimed:
                if owed.inquiry_id in dirty:
                    retry_later(session, owed.id, "category write not done yet")
                else:
                    finish(session, owed.id, "categories written", now)

        await self.services.store.run(_close)

    async def settle_owed(self) -> int:
        """Do the writes owed to OneDrive (folder moves queued by stage changes made anywhere)
        without a full OneDrive round: what a process that does not poll the drive, such as
        the ``telegram`` runner, runs. Returns the folders moved."""
        moves = await self.drive.move_folders()
        self._auth_ok()
        return sum(1 for m in moves if m.moved)

    async def drive_round(self) -> DriveSyncReport:
        report = await self.drive.run_once()
        self._auth_ok()
        return report

    async def aclose(self) -> None:
        await self.client.aclose()
        close = getattr(self.pipeline, "aclose", None) or getattr(
            getattr(self.pipeline, "llm", None), "aclose", None
        )
        if close is not None:
            await close()


def graph_configured(services: Services) -> bool:
    """A Graph account is set up in this data folder (a preset token or an Azure client id)."""
    from core.secrets import GRAPH_TOKEN

    return bool(services.secrets.get(GRAPH_TOKEN) or services.settings.text("graph.client_id"))


class RuntimeMailer:
    """The Graph mailer of whatever ``GraphRuntime`` the App holds now (``DraftMailer``).

    Why not the runtime's mailer itself: drafting lives as long as the App, while the desktop
    closes its runtime when it stops polling and ``App.graph()`` builds a fresh one; this asks
    for the current one on every call, so sending always goes through the one live Graph client.
    It has no ``client`` attribute, so ``Drafting.aclose`` leaves the shared client alone.

    Every ``DraftMailer`` call is the current mailer's own method, looked up when it is made:
    one forwarding rule, not a second copy of each signature to keep in step with the port.
    """

    kind = "graph"
    has_drafts = True

    def __init__(self, runtime: Callable[[], GraphRuntime]) -> None:
        self._runtime = runtime

    def _mailer(self) -> GraphMailer:
        """The mailer of the runtime the App holds now."""
        return self._runtime().mailer

    def __getattr__(self, name: str) -> Any:
        if name not in _DRAFT_MAILER_CALLS:  # ``client`` above all: the runtime's, not ours
            raise AttributeError(name)
        return getattr(self._mailer(), name)

    @classmethod
    def port(cls, runtime: Callable[[], GraphRuntime]) -> DraftMailer:
        """The forwarder as the port it serves (mypy cannot see through ``__getattr__``)."""
        return cast("DraftMailer", cls(runtime))


_DRAFT_MAILER_CALLS = frozenset(
    name
    for name in dir(DraftMailer)
    if not name.startswith("_") and name not in RuntimeMailer.__dict__
)
