"""Running the Telegram side: one round (``telegram --once``) or the loop inside the tray app.

``TelegramRunner`` owns one ``TelegramClient`` and wires the mirror (outbox → chat) and the bot
(updates → pairing, buttons, notes, the assistant) with one shared ``Pacer``, so the ≥ 1 s gap per
chat holds across both, and one delivery lock, so a draft's alert the bot shows at once (after
the assistant or 起草回复 wrote it) is never sent a second time by the delivery loop.

The assistant and the composer come from the ``App`` (``assistant=app.assistant``,
``composer=lambda: app.drafts.composer``); a runner given neither builds its own from the
services on first use (and closes their HTTP clients). In the app, ``run_forever`` runs two tasks on the qasync loop: a long-poll loop
(``getUpdates`` with ``telegram.poll_timeout``) and a delivery loop woken by ``NotificationRaised``
(and at least every minute, for held and retried rows). Network trouble never ends the loops; it
is reported once as ``SyncStatus("telegram", ok=False)`` and cleared on the next success.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import httpx
from sqlalchemy import select
from sqlalchemy.orm import Session

from core import tasks, tls
from core.db.models import Notification
from core.errors import TelegramError
from core.events import DraftChanged, NotificationRaised, SyncStatus
from core.import_lock import IMPORTING
from core.notify import pairing
from core.notify.assistant_chat import AssistantSource
from core.notify.bot import DecisionsSource, TelegramBot
from core.notify.mirror import DeliveryReport, TelegramMirror
from core.notify.pacing import Pacer
from core.notify.telegram_client import TelegramAuthError, TelegramClient, TelegramNetworkError

if TYPE_CHECKING:
    from core.app.lazy import LazyDrafts, LazyLLM
    from core.drafts.composing import DraftComposer
    from core.drafts.decisions import OwnerDecisions

log = logging.getLogger(__name__)


@dataclass
class RoundReport:
    delivery: DeliveryReport = field(default_factory=DeliveryReport)
    updates: int = 0
    paired: bool = False
    error: str | None = None


def default_drafts(services: Any) -> OwnerDecisions:
    """The owner's decisions (same approve/send path as the desktop), built on first use."""
    with IMPORTING:
        from core.drafts.drafting import build_owner_decisions

    return build_owner_decisions(services)  # approve/send need Graph, not the LLM


class TelegramRunner:
    def __init__(
        self,
        services: Any,
        *,
        http_client: httpx.AsyncClient | None = None,
        drafts: DecisionsSource = None,
        transcriber_factory: Any = None,
        assistant: AssistantSource | None = None,
        composer: Callable[[], DraftComposer | None] | None = None,
    ) -> None:
        self.services = services
        token = pairing.token(services)
        if not token:
            raise TelegramError("没有设置 Telegram Bot 令牌（设置 → Telegram）")
        self.client = TelegramClient(
            services.settings.get("telegram.base_url"),
            token,
            http_client=http_client,
        )
        self.pacer = Pacer(services.clock, store=services.store)
        self._built: OwnerDecisions | None = None  # decisions this runner made (and closes)
        self._assistant = assistant
        self._composer = composer
        self._own_llm: LazyLLM | None = None  # the model client this runner made (and closes)
        self._own_drafts: LazyDrafts | None = None
        self.delivery_lock = asyncio.Lock()
        self.bot = TelegramBot(
            services,
            self.client,
            drafts=drafts if drafts is not None else self._lazy_drafts,
            transcriber_factory=transcriber_factory,
            pacer=self.pacer,
            assistant=self._lazy_assistant,
            composer=self._lazy_composer,
            show_draft=self.show_draft,
        )
        self._problem = False
        self._wake = asyncio.Event()

    def _lazy_drafts(self) -> OwnerDecisions:
        if self._built is None:
            self._built = default_drafts(self.services)
        return self._built

    def _own_parts(self) -> tuple[LazyLLM, LazyDrafts]:
        if self._own_llm is None or self._own_drafts is None:
            from core.app.lazy import LazyDrafts, LazyLLM

            self._own_llm = LazyLLM(self.services)
            self._own_drafts = LazyDrafts(self.services, self._own_llm)
        return self._own_llm, self._own_drafts

    def _lazy_assistant(self) -> AssistantSource:
        if self._assistant is None:
            from core.app.assistant import AssistantService

            llm, drafts = self._own_parts()
            self._assistant = AssistantService(self.services, llm, drafts)
        return self._assistant

    def _lazy_composer(self) -> DraftComposer | None:
        if self._composer is not None:
            return self._composer()
        llm, drafts = self._own_parts()
        return drafts.composer if llm.available else None

    async def show_draft(self, draft_id: int) -> None:
        """Deliver a waiting draft's approval alert now (its outbox row, raised if missing).

        Quiet hours do not hold it: the owner just asked for it."""
        from core.notify.outbox import NotificationCenter

        center = NotificationCenter(self.services)
        await tasks.io(
            lambda: center.on_draft_changed(DraftChanged(draft_id, None, "pending_approval"))
        )
        mirror = await tasks.io(self.mirror)  # reads the owner from the store
        if mirror is None:
            return
        async with self.delivery_lock:
            row_id = await self.services.store.read(lambda s: _pending_draft_alert(s, draft_id))
            if row_id is not None:
                await mirror.deliver_now(row_id)

    async def aclose(self) -> None:
        await self.bot.settle_voice()
        await self.bot.chat.settle()
        await self.client.aclose()
        if self._own_llm is not None:
            await self._own_llm.aclose()
        drafting = getattr(self._own_drafts, "_service", None)
        if drafting is not None:  # the Graph client of the drafting this runner built
            await drafting.aclose()
        if self._built is not None:  # the Graph client we made for sending is ours to close
            graph = getattr(self._built.sender.mailer, "client", None)
            if graph is not None and hasattr(graph, "aclose"):
                await graph.aclose()

    def mirror(self) -> TelegramMirror | None:
        owner = pairing.owner(self.services)
        if owner is None:
            return None
        return TelegramMirror(self.services, self.client, owner, pacer=self.pacer)

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
            before = await tasks.io(pairing.owner, self.services)
            report.updates = await self.bot.poll_once(timeout=0)
            await self.bot.settle_voice()  # one round: its voice notes answered before it ends
            after = await tasks.io(pairing.owner, self.services)
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
            self.services.bus.subscribe(NotificationRaised, wake),
            self.services.bus.subscribe(DraftChanged, wake),
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
        timeout = int(self.services.settings.get("telegram.poll_timeout") or 30)
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
                await self.services.clock.sleep(min(5 * 2 ** min(failures, 6), 300))

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
            self.services.bus.publish(SyncStatus("telegram", False, "telegram", exc.detail))

    def _ok(self) -> None:
        if self._problem:
            self._problem = False
            self.services.bus.publish(SyncStatus("telegram", True))


def _pending_draft_alert(session: Session, draft_id: int) -> int | None:
    """The newest undelivered approval alert of a draft."""
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


async def serve(
    services: Any,
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
    with ``spawn(serve(services, stop, drafts=lambda: drafting.decisions))``; set ``stop`` to
    end it. ``drafts``: the owner's decisions (or a function building them on first use);
    ``composer``: what 起草回复 writes with (drafts that wait); ``assistant``: ``App.assistant``.
    Without the last two the runner builds its own from ``services``.
    """

    def config() -> tuple[bool, str | None, str]:
        return (
            pairing.enabled(services),
            pairing.token(services),
            str(services.settings.get("telegram.base_url")),
        )

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
            services,
            http_client=http_client,
            drafts=drafts,
            assistant=assistant,
            composer=composer,
        )
        inner = asyncio.Event()

        async def watch(runner_stop: asyncio.Event = inner, started: tuple = current) -> None:
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
