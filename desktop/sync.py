"""The desktop's host of the background work: start and stop the supervisor, 立即同步, pause.

Everything that runs in the background (mail rounds and IDLE, OneDrive, the Telegram bot and
mirror, reminders, the evening briefing, the weekly report, sending approved drafts) is the
core's ``Supervisor`` (``core.runtime``); this controller only hosts it on the qasync loop for
the window's data folder. The supervisor runs that work only while this app holds the store's
runner lease; when ``serve`` (or another PC's app) holds it, this app is a desk and the tray
says where the work runs (后台在 <host> 运行). Either way the change feed keeps the board live.
Pause is a setting the pollers read on every tick (``schedule.paused``); 立即同步 pokes them.
The demo data folder never syncs.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from collections.abc import Callable
from typing import TYPE_CHECKING

from core.runtime import Supervisor
from desktop.aio import spawn
from desktop.context import AppContext

if TYPE_CHECKING:
    from core.app.types import GraphRuntime
    from core.app.types import MailboxRuntime
    from core.app.types import Runner
    from core.app.types import SyncScheduler

log = logging.getLogger(__name__)


class SyncController:
    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        drafting = ctx.draft_service  # the owner's decisions for his Telegram buttons
        app = ctx.app
        self.supervisor = Supervisor(
            app,
            kind="desktop",
            live=True,
            drafts=lambda: drafting.decisions,
            composer=lambda: drafting.composer if app.llm.available else None,
        )
        # who runs the background work, for the tray (None: nobody; ``mine``: this app)
        self.on_runner: Callable[[Runner | None], None] | None = None
        self.supervisor.role_changed = self._role_changed
        self._stopped = False

    def _role_changed(self, _role: str) -> None:
        spawn(self.report_runner())

    @property
    def account_ready(self) -> bool:
        return self.ctx.app.mail_configured()

    @property
    def scheduler(self) -> SyncScheduler | None:
        return self.supervisor.scheduler

    @property
    def runtime(self) -> GraphRuntime | MailboxRuntime | None:
        return self.supervisor.runtime

    @property
    def running(self) -> bool:
        return self.supervisor.running

    def start(self) -> bool:
        """Start the supervisor (not for demo data). True when it was not running yet."""
        if self.ctx.is_demo or self.supervisor.running:
            return False
        self.supervisor.start()
        return True

    def start_after(self, painted: Callable[[], Awaitable[None]]) -> None:
        """Start the supervisor once ``painted()`` (the board's first page) is done: its lease,
        runtimes and first rounds then no longer compete with the first paint for the CPU
        (#44; about a tenth of a cold start on two cores). Not at all if stopped meanwhile."""

        async def later() -> None:
            await painted()
            if not self._stopped:
                self.start()

        spawn(later())

    def stop(self) -> None:
        """Stop every piece and release the lease (on the loop; the window may close now)."""
        self._stopped = True
        if self.supervisor.running:
            self.supervisor.request_stop()  # at once: the loop may stop right after
            spawn(self.supervisor.stop())

    async def report_runner(self) -> None:
        runner = await self.supervisor.refresh_holder()
        if self.on_runner is not None:
            self.on_runner(runner)

    def mailbox_connected(self) -> None:
        """A mailbox connected in the running app: its mail rounds start at once (when this
        app runs the background work; else the runner picks it up)."""
        self.supervisor.mailbox_connected()

    def set_paused(self, paused: bool) -> None:
        if not paused:
            self.supervisor.poke()

    async def sync_now(self) -> None:
        if self.ctx.is_demo or not self.account_ready:
            return
        await self.supervisor.sync_now()
