"""``Supervisor``: one start, one stop and one health view for every piece of background work.

Why one: the desktop, ``sync`` and ``telegram`` each assembled the pollers, the Telegram runner
and the daily rhythm their own way, and with more than one process on a store (``serve`` on an
always-on box, desks on office PCs) someone must decide which process runs them. The supervisor
runs this loop:

* take the runner lease (``App.lease``); while another live process holds it, this one is a
  **desk** (it reads, drafts, approves and sends; the send claim keeps a send once) and looks
  again every heartbeat: a holder that stopped beating is taken over within
  ``runner.takeover_seconds``;
* holding it, start the pieces (``PIECES``) and renew the heartbeat; a lost renewal (someone
  took over after this process stalled) stops them at once, and renewals failing or hanging
  (the store unreachable) stop them at half the takeover time, before anyone may take over;
  a mailbox connected while running starts the mail piece at the next heartbeat;
* on stop: the pieces end, their clients close, the lease is released (the next runner need
  not wait for the expiry).

A desk with a window also runs the change feed (``live=True``): changes other processes make
reach its views within seconds (``core.app.changes``).

Pieces: ``mail`` (``SyncScheduler`` over ``App.sync_runtime``: rounds, IMAP IDLE, OneDrive,
send-due), ``telegram`` (``core.telegram.runner.serve``), ``rhythm`` (reminders, briefing,
weekly report, backups: ``App.rhythm.daily``), ``onedrive`` (folder moves owed by stage changes,
when OneDrive is signed in but mail is read over IMAP).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal

from core import tasks
from core.app import App
from core.events import StageChanged

if TYPE_CHECKING:
    from core.app.lease import Runner, RunnerKind
    from core.app.types import GraphRuntime, MailboxRuntime, SyncScheduler

log = logging.getLogger(__name__)

PIECES = ("mail", "telegram", "rhythm", "onedrive")
Role = Literal["runner", "desk", "stopped"]


@dataclass(frozen=True)
class Health:
    """What the supervisor is doing: ``role``, the lease's live holder, each piece's state
    (``running``, ``idle`` — nothing to do, such as no mailbox —, ``failed: …``, ``stopped``)."""

    role: Role
    runner: Runner | None
    pieces: dict[str, str] = field(default_factory=dict)


def _telegram_front_end() -> ModuleType:
    """The Telegram runner (httpx, the bot: ~60 modules), loaded on a worker thread."""
    import core.telegram.runner

    return core.telegram.runner


class Supervisor:
    """The background work of ``app``'s store, for a host of ``kind`` (``serve``/``desktop``).

    ``pieces``: which to run (all by default; ``sync`` runs only ``mail``). ``lease=False``
    runs them without the lease (a one-shot command the owner started by hand). ``drafts`` and
    ``composer``: the host's owner decisions and composer for the Telegram buttons (the App's
    by default). ``live``: also run the change feed (a desk with a window).
    """

    def __init__(
        self,
        app: App,
        *,
        kind: RunnerKind,
        pieces: tuple[str, ...] = PIECES,
        lease: bool = True,
        live: bool = False,
        drafts: Callable[[], Any] | None = None,
        composer: Callable[[], Any] | None = None,
    ) -> None:
        self.app = app
        self.kind = kind
        self.pieces = tuple(p for p in PIECES if p in pieces)
        self.use_lease = lease
        self.live = live
        self._drafts = drafts
        self._composer = composer
        app.lease.kind = kind
        self.role: Role = "stopped"
        self.scheduler: SyncScheduler | None = None
        self.runtime: GraphRuntime | MailboxRuntime | None = None
        self._stop = asyncio.Event()
        self._work_stop = asyncio.Event()
        self._main: asyncio.Task[None] | None = None
        self._work: dict[str, asyncio.Task[None]] = {}
        self._state: dict[str, str] = {}
        self._holder: Runner | None = None
        self.role_changed: Callable[[Role], None] | None = None

    # -- one start, one stop -----------------------------------------------------------------
    def start(self) -> asyncio.Task[None]:
        """Run in the background on the running loop (the desktop); ``stop`` ends it."""
        if self._main is None or self._main.done():
            self._stop = asyncio.Event()
            self._main = asyncio.ensure_future(self.run(self._stop))
        return self._main

    @property
    def running(self) -> bool:
        return self._main is not None and not self._main.done()

    def request_stop(self) -> None:
        """Tell every piece to stop now, without waiting (a window closing: the loop may stop
        soon after, so the pieces must already be on their way out)."""
        self._stop.set()
        self._work_stop.set()

    async def stop(self) -> None:
        """Stop every piece, close their clients, release the lease; returns when done."""
        self.request_stop()
        if self._main is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._main

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Until ``stop``: take the lease (or wait as a desk), run the pieces while holding it."""
        stop = stop if stop is not None else self._stop
        self._stop = stop
        feed = asyncio.ensure_future(self.app.changes.run_forever(stop)) if self.live else None
        try:
            if self.app.is_demo:  # sample data: nothing to poll, remind or answer
                self._set_role("desk")
                await stop.wait()
                return
            if not self.use_lease:
                self._set_role("runner")
                self._start_work()
                await stop.wait()
                return
            while not stop.is_set():
                if await self._take():
                    await self._hold(stop)
                else:
                    self._set_role("desk")
                    await _wait(stop, self.app.lease.heartbeat_s)
        finally:
            await self._stop_work()
            self._set_role("stopped")
            if feed is not None:
                stop.set()
                await asyncio.gather(feed, return_exceptions=True)

    async def _take(self) -> bool:
        try:
            return await self.app.lease.take()
        except Exception as exc:  # a busy or unreachable store: a desk until it answers
            log.info("taking the runner lease failed: %s", exc)
            return False

    async def _hold(self, stop: asyncio.Event) -> None:
        """Run the pieces while the lease stays ours."""
        lease = self.app.lease
        self._set_role("runner")
        log.info("this process (%s) runs the background work", self.kind)
        self._start_work()
        last_ok = self.app.clock.now()
        with contextlib.suppress(Exception):  # the health view at once; the next beat retries
            await lease.renew(self.health().pieces)
        try:
            while not stop.is_set():
                await _wait(stop, lease.heartbeat_s)
                if stop.is_set():
                    return
                try:  # a store that hangs (a cut network) is a failed renewal, not a wait
                    beat = lease.renew(self.health().pieces)
                    if not await asyncio.wait_for(beat, timeout=lease.heartbeat_s):
                        log.warning("the runner lease was taken over; background work stops")
                        return
                    last_ok = self.app.clock.now()
                except Exception as exc:
                    log.warning("renewing the runner lease failed: %s", exc)
                    # stop at half the takeover time, before the heartbeat goes stale (2/3):
                    # nobody else may start the work while this process still runs it
                    if (self.app.clock.now() - last_ok).total_seconds() >= 2 * lease.heartbeat_s:
                        return
                self._start_mail()  # a mailbox connected since: its rounds start now
        finally:
            await self._stop_work()
            try:  # ours still (a clean stop): free it, the next runner need not wait
                await lease.release()
            except Exception as exc:  # the store is gone: the lease expires by itself
                log.info("releasing the runner lease failed: %s", exc)
            if not stop.is_set():
                self._set_role("desk")

    def _set_role(self, role: Role) -> None:
        if role != self.role:
            self.role = role
            if self.role_changed is not None:
                self.role_changed(role)

    # -- the pieces ----------------------------------------------------------------------------
    def _start_work(self) -> None:
        self._work_stop = asyncio.Event()
        if "mail" in self.pieces:
            self._start_mail()
        if "telegram" in self.pieces:
            self._spawn("telegram", self._telegram())
        if "rhythm" in self.pieces:
            self._spawn("rhythm", self._rhythm())
        if "onedrive" in self.pieces and self.app.graph_configured() and not self._graph_mail():
            self._spawn("onedrive", self._owed_onedrive())
        if self.kind == "serve":  # no window: the outbox Telegram mirrors is written here
            self.app.notifications.attach(background=True)

    def _graph_mail(self) -> bool:
        return "mail" in self.pieces and self.app.mail_configured() and not self.app.uses_imap()

    def _start_mail(self) -> None:
        if "mail" not in self.pieces or self._alive("mail") or not self.app.mail_configured():
            if "mail" in self.pieces and not self.app.mail_configured():
                self._state["mail"] = "idle: no mailbox"
            return
        if self._work_stop.is_set():
            return
        self.runtime = self.app.sync_runtime()
        self.scheduler = self.app.scheduler(self.runtime)
        self._spawn("mail", self.scheduler.run_forever(self._work_stop))

    def _alive(self, name: str) -> bool:
        task = self._work.get(name)
        return task is not None and not task.done()

    def _spawn(self, name: str, work: Coroutine[Any, Any, None]) -> None:
        async def guarded() -> None:
            try:
                await work
                self._state[name] = "stopped"
            except asyncio.CancelledError:
                self._state[name] = "stopped"
                raise
            except Exception as exc:  # one piece failing leaves the others running
                log.exception("background work %s failed", name)
                self._state[name] = f"failed: {exc}"

        self._state[name] = "running"
        self._work[name] = asyncio.ensure_future(guarded())

    async def _telegram(self, recheck_seconds: float = 30.0) -> None:
        # the runner's modules (~0.3 s of CPU) load only once Telegram is on and has a token,
        # re-read as often as the runner itself re-reads them
        telegram, stop = self.app.telegram, self._work_stop
        while not await tasks.io(lambda: telegram.enabled() and bool(telegram.token())):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=recheck_seconds)
            if stop.is_set():
                return
        runner = await tasks.io(_telegram_front_end)
        app = self.app
        await runner.serve(
            app,
            self._work_stop,
            drafts=self._drafts,
            assistant=app.assistant,
            composer=self._composer,
        )

    async def _rhythm(self) -> None:
        # the holiday tables and the gazetteer load on a worker thread, not on the loop
        await tasks.io(self.app.rhythm.warm)
        if not self._work_stop.is_set():
            await self.app.rhythm.daily().run_forever(self._work_stop)

    async def _owed_onedrive(self) -> None:
        """Folder moves owed by stage changes made anywhere, every OneDrive poll interval and
        at once after a stage change here (mail over IMAP: no OneDrive poller does them)."""
        app, stop = self.app, self._work_stop
        woken = asyncio.Event()
        loop = asyncio.get_running_loop()  # a change may be published from the store's thread

        def _wake(_event: StageChanged) -> None:
            loop.call_soon_threadsafe(woken.set)

        unsubscribe = app.bus.subscribe(StageChanged, _wake)
        try:
            while not stop.is_set():
                woken.clear()
                await settle_owed(app)
                minutes = float(app.settings.number("graph.drive_poll_minutes"))
                await _first(stop.wait(), woken.wait(), app.clock.sleep(60.0 * minutes))
        finally:
            unsubscribe()

    async def _stop_work(self) -> None:
        self._work_stop.set()
        if self._work:
            await asyncio.gather(*self._work.values(), return_exceptions=True)
        self._work = {}
        self.scheduler = None
        self.runtime = None
        if self.kind == "serve":
            self.app.notifications.detach()
        for runtime in (self.app.take_graph(), self.app.take_mailbox()):
            if runtime is not None:
                try:
                    await runtime.aclose()
                except Exception as exc:
                    log.info("closing a mail runtime: %s", exc)

    # -- what hosts ask ----------------------------------------------------------------------
    def mailbox_connected(self) -> None:
        """A mailbox was just connected (the wizard, 设置): its rounds start now on the runner,
        not at the next heartbeat; a desk leaves them to the runner."""
        if self.role == "runner":
            self._start_mail()
        self.poke()

    def poke(self) -> None:
        """Run the pollers soon (立即同步, a sign-in, pause lifted)."""
        if self.scheduler is not None:
            self.scheduler.poke()

    async def sync_now(self) -> None:
        """立即同步: poke the running pollers, or — a desk, or nothing started yet — one mail
        and OneDrive round in this process (intake keeps each message once)."""
        if self.app.is_demo or not self.app.mail_configured():
            return
        if self.scheduler is not None and self._alive("mail"):
            self.scheduler.poke()
            return
        await self.app.scheduler(self.app.sync_runtime()).run_once()

    async def refresh_holder(self) -> Runner | None:
        """Read who runs the background work now (for the tray's line and ``health``)."""
        try:
            self._holder = await self.app.lease.runner()
        except Exception as exc:
            log.info("reading the runner lease failed: %s", exc)
        return self._holder

    def health(self) -> Health:
        pieces = {name: self._state.get(name, "stopped") for name in self.pieces}
        return Health(role=self.role, runner=self._holder, pieces=pieces)


async def settle_owed(app: App) -> int:
    """The folder moves owed to OneDrive (a stage changed from Telegram, ``ask``, the CLI…),
    without a full OneDrive round. Returns the folders moved; trouble waits for the next try."""
    if app.is_demo or not app.graph_configured():
        return 0
    try:
        return await app.graph(offline=True).settle_owed()
    except Exception as exc:  # OneDrive trouble never stops the other pieces
        log.warning("owed OneDrive moves wait for the next round: %s", exc)
        return 0


async def _wait(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), timeout=seconds)


async def _first(*waits: Awaitable[object]) -> None:
    """Return when the first of ``waits`` ends; cancel the rest."""
    futures = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(futures, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for f in futures:
            f.cancel()
        await asyncio.gather(*futures, return_exceptions=True)
