"""The desktop's handle on background sync: start the pollers, pause/resume, 立即同步.

Also the daily rhythm (``core.rhythm.daily``: stage reminders, the evening briefing, backups),
which runs for the real data folder with or without an account.

The pollers (``core.schedule.SyncScheduler`` over ``core.app.graph_runtime.GraphRuntime``: Graph mail
and OneDrive) run as coroutines on the qasync loop; this controller starts them when a Microsoft
account is set up, stops them with the window's data folder, and forwards the owner's clicks.
Pause is a setting the pollers read on every tick (``schedule.paused``); 立即同步 pokes them. The
demo data folder never syncs.
"""

from __future__ import annotations

import asyncio
import logging
from types import ModuleType
from typing import TYPE_CHECKING

from core.app import offload
from desktop.aio import spawn
from desktop.context import AppContext

if TYPE_CHECKING:
    from core.app.types import GraphRuntime, MailboxRuntime, SyncScheduler

log = logging.getLogger(__name__)


def _telegram_front_end() -> ModuleType:
    """The Telegram front end (``core.telegram.runner``), which the tray process hosts beside
    its window. A plain import, so the layer test sees it: ``tests/foundation/test_layers.py``
    lets this one file import it (``HOSTED_FRONT_ENDS``). It cannot come through ``core.app``:
    the runner is a front end above ``App``, and ``core.app`` loading it would close a loop."""
    import core.telegram.runner

    return core.telegram.runner


class SyncController:
    def __init__(self, ctx: AppContext) -> None:
        self.ctx = ctx
        self.scheduler: SyncScheduler | None = None
        self.runtime: GraphRuntime | MailboxRuntime | None = None
        self._stop = asyncio.Event()
        self._task: asyncio.Future[None] | None = None
        self._telegram_stop = asyncio.Event()
        self._telegram_task: asyncio.Future[None] | None = None
        self._rhythm_stop = asyncio.Event()
        self._rhythm_task: asyncio.Future[None] | None = None

    @property
    def account_ready(self) -> bool:
        if self.ctx.app.uses_imap():  # an IMAP/SMTP mailbox (settings → 其他邮箱)
            return True
        return self.ctx.app.desktop.account_configured()

    def _build(self) -> SyncScheduler:
        if self.scheduler is None:
            app = self.ctx.app
            self.runtime = app.mailbox() if app.uses_imap() else app.graph()
            self.scheduler = app.scheduler(self.runtime)
        return self.scheduler

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start_telegram(self) -> bool:
        """Start the Telegram mirror task (not for demo data). It idles until Telegram is
        enabled with a token and re-reads both every 30 s, so the settings page needs no restart."""
        if self.ctx.is_demo or (self._telegram_task is not None and not self._telegram_task.done()):
            return False
        self._telegram_stop = asyncio.Event()
        self._telegram_task = spawn(self._serve_telegram(self._telegram_stop))
        return True

    async def _serve_telegram(self, stop: asyncio.Event) -> None:
        # the mirror's modules (httpx, the bot: ~60 modules) load on a worker thread, not
        # during start-up
        runner = await offload(_telegram_front_end)
        drafting = self.ctx.draft_service  # the owner's decisions for his buttons; the composer
        app = self.ctx.app  # for 起草回复; the assistant is the App's, shared with the chat panel
        await runner.serve(
            app,
            stop,
            drafts=lambda: drafting.decisions,
            assistant=app.assistant,
            composer=lambda: drafting.composer if app.llm.available else None,
        )

    def start_rhythm(self) -> bool:
        """Stage reminders, the evening briefing and backups (core.rhythm.daily); these need no
        Microsoft account. Not for demo data, whose old dates would all be overdue."""
        if self.ctx.is_demo or (self._rhythm_task is not None and not self._rhythm_task.done()):
            return False
        self._rhythm_stop = asyncio.Event()
        self._rhythm_task = spawn(self._serve_rhythm(self._rhythm_stop))
        return True

    async def _serve_rhythm(self, stop: asyncio.Event) -> None:
        # the holiday tables and the gazetteer load on a worker thread, not during start-up
        await offload(self.ctx.app.rhythm.warm)
        if not stop.is_set():
            await self.ctx.app.rhythm.daily().run_forever(stop)

    def start(self) -> bool:
        """Start polling (not for demo data, not without an account). True when started."""
        self.start_telegram()
        self.start_rhythm()
        if self.ctx.is_demo or self.running or not self.account_ready:
            return False
        scheduler = self._build()
        self._stop = asyncio.Event()
        self._task = spawn(scheduler.run_forever(self._stop))
        return True

    def stop(self) -> None:
        self._stop.set()
        self._telegram_stop.set()
        self._rhythm_stop.set()
        for runtime in (self.ctx.app.take_graph(), self.ctx.app.take_mailbox()):
            if runtime is not None:
                spawn(runtime.aclose())
        self.runtime = None
        self.scheduler = None

    def set_paused(self, paused: bool) -> None:
        if not paused and self.scheduler is not None:
            self.scheduler.poke()

    async def sync_now(self) -> None:
        if self.ctx.is_demo or not self.account_ready:
            return
        if self.running:
            if self.scheduler is not None:  # None only while a stop is under way
                self.scheduler.poke()
            return
        await self._build().run_once()
