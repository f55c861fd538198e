"""Pollers on the asyncio loop: mail every few minutes, OneDrive less often, never overlapping.

A desktop app has no public HTTPS endpoint for Graph webhooks, so it polls; an IMAP mailbox
also pushes between polls (the runtime's ``watch``: IDLE starts a round). Each ``Poller`` runs
one job on its interval (read from settings every time, so the settings dialog applies at once)
and is built for a machine that sleeps, loses Wi-Fi and gets signed out:

* a round never overlaps itself (a slow first sync just delays the next tick);
* ``schedule.paused`` pauses everything; quiet hours (Sydney time) slow polling to once an hour;
* network trouble backs off exponentially (capped at an hour) and reports
  ``SyncStatus(ok=False)`` once, then ``ok=True`` on recovery — no notification storm;
* a ``GraphAuthError`` (signed out, consent revoked) parks the poller until ``poke()`` (called
  after a new sign-in) or an hour passes: no crash loop, no retry storm against the login server.

After each mail round the runtime itself says how much mail the round left for later on a
nearly full disk (``MailWaiting``, 0 after a round with room; the same for ``sync --once`` and
IMAP's watch): the notification center tells the owner once per condition
(``core.notify.outbox``), the window shows it while it lasts.

Approved drafts that waited (Outlook unreachable, signed out) go out when the connection is
back: the scheduler reconciles interrupted sends once at start and calls the drafts'
``send_due`` after every successful mail round — sending stays at most once because the drafts'
sender claims each draft in SQLite before it touches Outlook.

The clock is injected: tests drive ``run_once`` and ``run_forever`` with a FakeClock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, time
from typing import TYPE_CHECKING, Literal, Protocol
from zoneinfo import ZoneInfo

from core.clock import Clock, utc
from core.errors import GraphAuthError, InquiryBridgeError, own_sentence
from core.events import DiskFigures, EventBus, SyncStatus
from core.import_lock import IMPORTING

if TYPE_CHECKING:
    from core.drafts.decisions import OwnerDecisions
    from core.drafts.sender import SendResult
    from core.services import Services

log = logging.getLogger(__name__)

MAX_BACKOFF_S = 3600.0
QUIET_INTERVAL_S = 3600.0


def _hhmm(text: str) -> time | None:
    try:
        hours, minutes = str(text).split(":", 1)
        return time(int(hours), int(minutes))
    except (ValueError, TypeError):
        return None


def in_quiet_hours(now: datetime, start: str, end: str, tz: str = "Australia/Sydney") -> bool:
    """True when ``now`` falls in [start, end) local time; handles ranges over midnight."""
    begin, finish = _hhmm(start), _hhmm(end)
    if begin is None or finish is None or begin == finish:
        return False
    local = utc(now).astimezone(ZoneInfo(tz)).time()
    if begin < finish:
        return begin <= local < finish
    return local >= begin or local < finish


class Poller:
    """One recurring job. State: ``last_ok``, ``failures``, ``parked`` (waiting for sign-in)."""

    def __init__(
        self,
        name: str,
        job: Callable[[], Awaitable[object]],
        interval_s: Callable[[], float],
        clock: Clock,
        *,
        bus: EventBus | None = None,
        paused: Callable[[], bool] = lambda: False,
    ) -> None:
        self.name = name
        self.job = job
        self.interval_s = interval_s
        self.clock = clock
        self.bus = bus
        self.paused = paused
        self.running = False
        self.runs = 0
        self.failures = 0
        self.parked = False
        self.last_ok: datetime | None = None
        self.last_result: object = None
        self.last_error: InquiryBridgeError | None = None
        self._wake = asyncio.Event()

    def poke(self) -> None:
        """Run soon (after sign-in, on "sync now", when settings change)."""
        self.parked = False
        self.failures = 0
        self._wake.set()

    async def run_once(self) -> bool:
        """One round now, unless one is already running. Returns True when it succeeded."""
        if self.running:
            log.info("%s poll still running; this tick is skipped", self.name)
            return False
        self.running = True
        try:
            self.last_result = await self.job()
        except GraphAuthError as exc:
            # the auth layer already published SyncStatus(source="auth", code="graph_auth"):
            # park until poke() after sign-in instead of hammering the login server
            self.parked = True
            self.last_error = exc
            return False
        except InquiryBridgeError as exc:
            self.failures += 1
            self.last_error = exc
            if self.failures == 1:  # once per outage, not once per retry
                self._report(False, exc)
            log.warning("%s poll failed (%d in a row): %s", self.name, self.failures, exc)
            return False
        finally:
            self.running = False
            self.runs += 1
        was_failing = self.failures > 0 or self.parked or self.last_error is not None
        self.failures = 0
        self.parked = False
        self.last_error = None
        self.last_ok = self.clock.now()
        if was_failing:
            self._report(True, None)
        return True

    def _report(self, ok: bool, exc: InquiryBridgeError | None) -> None:
        if self.bus is None:
            return
        self.bus.publish(
            SyncStatus(
                source=self.name,
                ok=ok,
                code=exc.code if exc else "",
                detail=exc.user_message("zh_CN") if exc else "",
                sentence=own_sentence(exc) if exc else "",
            )
        )

    def next_delay(self, quiet: bool = False) -> float:
        base = max(1.0, float(self.interval_s()))
        if self.parked:
            return MAX_BACKOFF_S
        if self.failures:
            return min(MAX_BACKOFF_S, base * (1 << min(self.failures, 10)) / 2 + base / 2)
        return max(base, QUIET_INTERVAL_S) if quiet else base

    async def wait(self, seconds: float, stop: asyncio.Event | None = None) -> None:
        """Sleep on the clock, waking early on ``poke`` or when ``stop`` is set (a window
        closing must not wait out an hour's poll interval)."""
        self._wake.clear()
        sleeper = asyncio.ensure_future(self.clock.sleep(seconds))
        waker = asyncio.ensure_future(self._wake.wait())
        waiters = {sleeper, waker}
        if stop is not None:
            waiters.add(asyncio.ensure_future(stop.wait()))
        try:
            await asyncio.wait(waiters, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in waiters:
                task.cancel()
            await asyncio.gather(*waiters, return_exceptions=True)

    async def woken_round(self, stop: asyncio.Event) -> None:
        """``poke``, then return once a round that began after the poke has ended (or ``stop``).
        A round already under way may have listed the mailbox before what woke us, so the one
        after it is awaited instead."""
        target = self.runs + (2 if self.running else 1)
        self.poke()
        while self.runs < target and not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.2)

    async def run_forever(
        self,
        stop: asyncio.Event | None = None,
        quiet: Callable[[], bool] = lambda: False,
        max_runs: int | None = None,
    ) -> None:
        stop = stop or asyncio.Event()
        while not stop.is_set():
            if max_runs is not None and self.runs >= max_runs:
                return
            if self.paused():
                await self.wait(60.0, stop)
                continue
            await self.run_once()
            await self.wait(self.next_delay(quiet()), stop)


def _default_drafts(services: Services, runtime: SyncRuntime) -> OwnerDecisions | None:
    """The owner's decisions, sending through the runtime's mailer (no model needed to send)."""
    mailer = getattr(runtime, "mailer", None)
    if mailer is None:
        return None
    with IMPORTING:
        from core.drafts.drafting import build_owner_decisions

    return build_owner_decisions(services, mailer)


class MailReport(Protocol):
    """A mail round's report (Graph's ``MailSyncReport``, IMAP's ``ImapSyncReport``)."""

    @property
    def disk(self) -> DiskFigures | None: ...


class SyncRuntime(Protocol):
    """What the scheduler drives: ``core.app.graph_runtime.GraphRuntime`` or the IMAP one
    (``core.mailbox.runtime.MailboxRuntime``); its ``mailer``, when it has one, sends drafts."""

    async def mail_round(self) -> tuple[MailReport, object]: ...

    async def drive_round(self) -> object: ...

    def attach(self) -> None: ...

    def detach(self) -> None: ...

    async def watch(self, woken_round: Callable[[], Awaitable[None]], stop: asyncio.Event) -> None:
        """Between polls, call ``woken_round`` the moment the mailbox says mail came (IMAP
        IDLE); return at once where there is no such push (Graph, for an app with no webhook
        endpoint, polls)."""
        ...


class SyncScheduler:
    """Mail every ``graph.mail_poll_minutes``, OneDrive every ``graph.drive_poll_minutes``;
    approved drafts after each successful mail round.

    ``drafts``: the ``OwnerDecisions`` whose ``reconcile``/``send_due`` run here; by default one over
    ``runtime.mailer``; ``False`` for none.
    """

    def __init__(
        self,
        services: Services,
        runtime: SyncRuntime,
        *,
        drafts: OwnerDecisions | Literal[False] | None = None,
    ) -> None:
        self.services = services
        self.runtime = runtime
        settings = services.settings
        self.drafts = _default_drafts(services, runtime) if drafts is None else (drafts or None)
        self.reconciled = False
        self.last_sends: list[SendResult] = []

        def paused() -> bool:
            return settings.flag("schedule.paused")

        self.mail = Poller(
            "mail",
            self._mail_round,
            lambda: 60.0 * settings.number("graph.mail_poll_minutes"),
            services.clock,
            bus=services.bus,
            paused=paused,
        )
        self.drive = Poller(
            "drive",
            runtime.drive_round,
            lambda: 60.0 * settings.number("graph.drive_poll_minutes"),
            services.clock,
            bus=services.bus,
            paused=paused,
        )

    async def _mail_round(self) -> object:
        result = await self.runtime.mail_round()  # publishes MailWaiting itself
        await self.send_due_drafts()  # only reached when the round succeeded
        return result

    async def reconcile_drafts(self) -> None:
        """Settle drafts a crash left in ``sending`` (once; the first send round retries)."""
        if self.drafts is None or self.reconciled:
            return
        try:
            results = await self.drafts.reconcile()
        except Exception as exc:  # offline: send_due reconciles first anyway
            log.info("reconciling drafts postponed: %s", exc)
            return
        self.reconciled = not any(getattr(r, "status", "") == "unknown" for r in results)

    async def send_due_drafts(self) -> None:
        """Send approved drafts now that Outlook answers (a draft failure never fails mail)."""
        if self.drafts is None:
            return
        try:
            self.last_sends = await self.drafts.send_due()
        except Exception as exc:
            log.warning("sending approved drafts failed: %s", exc)
            return
        self.reconciled = True
        if self.last_sends:
            log.info("drafts after the mail round: %s", [r.status for r in self.last_sends])

    def quiet(self) -> bool:
        settings = self.services.settings
        return in_quiet_hours(
            self.services.clock.now(),
            settings.text("schedule.quiet_hours_start"),
            settings.text("schedule.quiet_hours_end"),
            settings.text("general.timezone"),
        )

    def poke(self) -> None:
        self.mail.poke()
        self.drive.poke()

    async def run_once(self) -> tuple[bool, bool]:
        """One mail round then one OneDrive round (``sync --once``)."""
        return await self.mail.run_once(), await self.drive.run_once()

    async def run_forever(self, stop: asyncio.Event | None = None) -> None:
        stop = stop or asyncio.Event()
        self.runtime.attach()
        try:
            await self.reconcile_drafts()
            await asyncio.gather(
                self.mail.run_forever(stop, self.quiet),
                self.drive.run_forever(stop, self.quiet),
                self._watch(stop),
            )
        finally:
            self.runtime.detach()

    async def _watch(self, stop: asyncio.Event) -> None:
        """The runtime's push beside the polls; its failure leaves the polls running."""
        try:
            await self.runtime.watch(lambda: self.mail.woken_round(stop), stop)
        except Exception:
            log.warning("watching the mailbox failed; polling alone from now on", exc_info=True)
