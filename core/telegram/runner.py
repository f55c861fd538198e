"""Running the Telegram side: one round (``telegram --once``) or the loop inside the tray app.

``TelegramRunner`` drives the App's ``TelegramClient`` (``App.telegram_client``) and wires the
mirror (outbox → chat) and the bot (updates → pairing, buttons, notes, the assistant) with one
shared ``Pacer``, so the ≥ 1 s gap per chat holds across both, and one delivery lock, so a draft's
alert the bot shows at once (after the assistant or 起草回复 wrote it) is never sent a second time
by the delivery loop.

Everything it wires comes from ``App.telegram`` (``core.app.telegram``): the client, the pairing
facts, the bot and mirror over the folder's store, the owner's decisions, the assistant and the
composer (``assistant=`` / ``composer=`` override the last two, as the desktop shares its chat
panel's). A runner handed bare ``Services`` (older callers, tests) gets a Telegram service of
its own, which builds those parts on first use and is closed with the runner. In the app,
``run_forever`` runs two tasks on the qasync loop: a long-poll loop (``getUpdates`` with
``telegram.poll_timeout``) and a delivery loop woken by ``NotificationRaised`` (and at least every
minute, for held and retried rows). Network trouble never ends the loops; it is reported once as
``SyncStatus("telegram", ok=False)`` and cleared on the next success.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import httpx

from core import tasks, tls
from core.app.telegram import telegram_side
from core.errors import TelegramError
from core.events import DraftChanged, NotificationRaised, SyncStatus
from core.notify.assistant_chat import AssistantSource
from core.notify.bot import DecisionsSource
from core.notify.mirror import DeliveryReport, TelegramMirror
from core.notify.telegram_client import TelegramAuthError, TelegramNetworkError

if TYPE_CHECKING:
    from core.app.telegram import TelegramHost
    from core.app.voice import AnyTranscriber
    from core.drafts.draft_composer import DraftComposer

log = logging.getLogger(__name__)


@dataclass
class RoundReport:
    delivery: DeliveryReport = field(default_factory=DeliveryReport)
    updates: int = 0
    paired: bool = False
    error: str | None = None


class TelegramRunner:
    def __init__(
        self,
        app: TelegramHost,
        *,
        http_client: httpx.AsyncClient | None = None,
        drafts: DecisionsSource = None,
        transcriber_factory: Callable[[], AnyTranscriber] | None = None,
        assistant: AssistantSource | None = None,
        composer: Callable[[], DraftComposer | None] | None = None,
    ) -> None:
        self.side, self._owns_side = telegram_side(app)
        self.client = self.side.client(http_client)  # TelegramError without a token
        self.pacer = self.side.pacer()
        self._assistant = assistant
        self._composer = composer
        self.delivery_lock = asyncio.Lock()
        self.bot = self.side.bot(
            self.client,
            drafts=drafts if drafts is not None else self.side.decisions,
            transcriber_factory=transcriber_factory,
            pacer=self.pacer,
            assistant=self._lazy_assistant,
            composer=self._lazy_composer,
            show_draft=self.show_draft,
        )
        self._problem = False
        self._wake = asyncio.Event()

    def _lazy_assistant(self) -> AssistantSource:
        if self._assistant is None:
            self._assistant = self.side.assistant()
        return self._assistant

    def _lazy_composer(self) -> DraftComposer | None:
        if self._composer is not None:
            return self._composer()
        return self.side.composer()

    async def show_draft(self, draft_id: int) -> None:
        """Deliver a waiting draft's approval alert now (its outbox row, raised if missing).

        Quiet hours do not hold it: the owner just asked for it."""
        await self.side.raise_draft_alert(draft_id)
        mirror = await tasks.io(self.mirror)  # reads the owner from the store
        if mirror is None:
            return
        async with self.delivery_lock:
            row_id = await self.side.pending_draft_alert(draft_id)
            if row_id is not None:
                await mirror.deliver_now(row_id)

    async def aclose(self) -> None:
        """Settle the bot's voice notes and chat turns, then hand the client back: closed now
        (the next runner reads the token afresh); the parts a runner given bare services
        built are closed too, the App's stay the App's."""
        await self.bot.settle_voice()
        await self.bot.chat.settle()
        if self._owns_side:
            await self.side.aclose()
        else:
            await self.side.close_client()

    def mirror(self) -> TelegramMirror | None:
        owner = self.side.owner()
        if owner is None:
            return None
        return self.side.mirror(self.client, owner, self.pacer)

    async def deliver(self) -> DeliveryReport:
        mirror = await tasks.io(self.mirror)  # reads the owner from the store
        if mirror is None:
            return DeliveryReport()
        async with self.delivery_lock:
            return await mirror.deliver_due()

    async def run_once(self) -> RoundReport:
        """Deliver the outbox, handle one round of updates (no long poll), deliver again."""
        report = RoundReport()
        try:
            report.delivery = await self.deliver()
            before = await tasks.io(self.side.owner)
            report.updates = await self.bot.poll_once(timeout=0)
            await self.bot.settle_voice()  # one round: its voice notes answered before it ends
            after = await tasks.io(self.side.owner)
            report.paired = before is None and after is not None
            again = await self.deliver()  # alerts raised by the updates (or since pairing)
            report.delivery.sent += again.sent
            report.delivery.messages += again.messages
            report.delivery.failed += again.failed
            report.delivery.skipped += again.skipped
            report.delivery.plain_fallbacks += again.plain_fallbacks
            report.delivery.edited += again.edited
            report.delivery.held = again.held
            report.delivery.held_until = again.held_until or report.delivery.held_until
            self._ok()
        except (TelegramNetworkError, TelegramAuthError) as exc:
            report.error = exc.user_message("zh_CN")
            self._trouble(exc)
        return report

    # -- the app's loops ----------------------------------------------------------------------
    async def run_forever(self, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()

        def wake(_event: object) -> None:
            loop.call_soon_threadsafe(self._wake.set)

        # a new alert, or a draft closed (its quiet draft_closed row edits the buttons)
        unsubscribes = [
            self.side.bus.subscribe(NotificationRaised, wake),
            self.side.bus.subscribe(DraftChanged, wake),
        ]
        tasks = [
            asyncio.create_task(self._poll_loop(stop), name="telegram-poll"),
            asyncio.create_task(self._deliver_loop(stop), name="telegram-deliver"),
        ]
        try:
            await stop.wait()
        finally:
            for unsubscribe in unsubscribes:
                unsubscribe()
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _poll_loop(self, stop: asyncio.Event) -> None:
        timeout = self.side.settings.number("telegram.poll_timeout") or 30
        failures = 0
        while not stop.is_set():
            try:
                handled = await self.bot.poll_once(timeout=timeout)
                failures = 0
                self._ok()
                if handled:
                    self._wake.set()
            except (TelegramNetworkError, TelegramAuthError, TelegramError) as exc:
                failures += 1
                self._trouble(exc)
                await self.side.clock.sleep(min(5 * 2 ** min(failures, 6), 300))

    async def _deliver_loop(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await self.deliver()
            except TelegramError as exc:
                self._trouble(exc)
            except Exception:
                log.exception("telegram delivery round failed")
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=60)

    def _trouble(self, exc: TelegramError) -> None:
        log.warning("telegram: %s", exc.detail)
        if not self._problem:
            self._problem = True
            self.side.bus.publish(SyncStatus("telegram", False, "telegram", exc.detail))

    def _ok(self) -> None:
        if self._problem:
            self._problem = False
            self.side.bus.publish(SyncStatus("telegram", True))


async def serve(
    app: TelegramHost,
    stop: asyncio.Event,
    *,
    drafts: DecisionsSource = None,
    recheck_seconds: float = 30.0,
    http_client: httpx.AsyncClient | None = None,
    assistant: AssistantSource | None = None,
    composer: Callable[[], DraftComposer | None] | None = None,
) -> None:
    """The tray app's Telegram task: runs while the mirror is enabled and a token is set.

    Re-reads the switch, token and Bot API URL every ``recheck_seconds``, so turning Telegram
    on/off or pasting a new token in the settings takes effect without a restart. Start it once
    with ``spawn(serve(app, stop, drafts=lambda: drafting.decisions))``; set ``stop`` to
    end it. ``drafts``: the owner's decisions (or a function building them on first use);
    ``composer``: what 起草回复 writes with (drafts that wait); ``assistant``: ``App.assistant``.
    Without them the App's are used (``App.telegram``). ``app`` may still be the bare
    ``Services`` (older callers): each runner then builds its own parts.
    """

    side = telegram_side(app)[0]

    def config() -> tuple[bool, str | None, str]:
        return (side.enabled(), side.token(), side.base_url())

    async def wait(event: asyncio.Event, seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), timeout=seconds)

    while not stop.is_set():
        current = config()
        enabled, token, _url = current
        if not (enabled and token):
            await wait(stop, recheck_seconds)
            continue
        await tls.warm()  # the runner's Bot API client: its CA bundle loaded off the loop
        runner = TelegramRunner(
            app,
            http_client=http_client,
            drafts=drafts,
            assistant=assistant,
            composer=composer,
        )
        inner = asyncio.Event()

        async def watch(
            runner_stop: asyncio.Event = inner, started: tuple[object, ...] = current
        ) -> None:
            while not stop.is_set() and config() == started:
                await wait(stop, recheck_seconds)
            runner_stop.set()

        watcher = asyncio.create_task(watch(), name="telegram-config-watch")
        try:
            await runner.run_forever(inner)
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
            await runner.aclose()
