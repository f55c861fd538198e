"""The assistant behind the facade: named conversations, one per channel and name.

Front ends ask ``App.assistant.conversation(name, channel=...)`` and keep the object; the same
name on the same channel is the same conversation for the life of the ``App``, and, being a
session stored in SQLite, after a restart too (its turns, current customer and summary are read
back). The desktop names its conversation ``today_name(clock)`` (the Sydney date: history per
day). A Telegram chat is one conversation per Sydney day (``DAILY_CHANNELS``): the first message
of a new day (by the injected clock) starts a session ``<chat>@<date>`` that carries the previous
day's notes (folded from its turns) and current customer; the old day is closed (its memories
reviewed). A new day also keeps the prompt short and its cached prefix fresh. The assistant's drafting is the composer and reader only (``core.agent.tools``): nothing
here can send.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from core import tasks
from core.app.lazy import LazyDrafts, LazyLLM
from core.errors import LLMNotConfigured
from core.import_lock import IMPORTING
from core.services import Services

if TYPE_CHECKING:
    from core.agent.conversation import Conversation
    from core.agent.tools.drive_access import CustomerDrive
    from core.clock import Clock


def today_name(clock: Clock) -> str:
    """The desktop's conversation name for today (the Sydney date, ``2026-11-30``)."""
    from core.agent.session_store import today_name as name_for

    return name_for(clock)


def _warm_assertion_guard() -> None:
    """Import the assertion guard and load its OpenCC converter and phrase tables off the UI loop."""
    with IMPORTING:
        from core.agent.assertions import warm_guard
    warm_guard()


DAILY_CHANNELS = frozenset({"telegram"})  # a new Sydney day starts a new conversation


class AssistantService:
    def __init__(
        self,
        services: Services,
        llm: LazyLLM,
        drafts: LazyDrafts,
        drive: Callable[[], CustomerDrive] | None = None,
    ) -> None:
        """``drive``: the App's OneDrive access (its one Graph client) for the file tools."""
        self._services = services
        self._llm = llm
        self._drafts = drafts
        self._drive = drive
        self._conversations: dict[tuple[str, str], Conversation] = {}
        self._closing: set[asyncio.Task[object]] = set()  # yesterday's, reviewing memories
        if self.available:  # the assertion guard loads its converter before the first question
            tasks.daemon(_warm_assertion_guard, "assertion-guard-warm")

    @property
    def available(self) -> bool:
        """An AI endpoint is configured: the assistant can answer."""
        return self._llm.available

    def conversation(self, name: str, *, channel: str, persist: bool = True) -> Conversation:
        """The conversation ``name`` on ``channel`` ("desktop", "telegram", "cli"), continued
        from the database when it exists. ``persist=False``: a throwaway conversation in memory
        (the one-shot ``ask``), not kept and not shared."""
        key = (channel, name)
        daily = persist and channel in DAILY_CHANNELS
        session_name = f"{name}@{today_name(self._services.clock)}" if daily else name
        found = self._conversations.get(key)
        if found is not None and persist and found.name == session_name:
            return found
        if found is not None and persist:  # the day turned: the old one ends
            self._end(self._conversations.pop(key))
        if not self.available:
            raise LLMNotConfigured()
        with IMPORTING:
            from core.agent.conversation import IDLE_SECONDS, Conversation
            from core.agent.loop import Assistant
            from core.agent.session_store import SessionStore
        assistant = Assistant(
            self._services,
            self._llm.client(),
            self._drafts.service(),
            channel=channel,
            drive=self._drive() if self._drive else None,
        )
        if not persist:
            return Conversation(name=name, channel=channel, assistant=assistant)
        store = SessionStore(self._services)
        carry = store.earlier(channel, name, session_name) if daily else None
        conversation = Conversation(
            name=session_name,
            channel=channel,
            assistant=assistant,
            store=store,
            state=store.open(channel, session_name),
            idle_seconds=IDLE_SECONDS,
            carry=carry,
        )
        self._conversations[key] = conversation
        return conversation

    def _end(self, conversation: Conversation) -> None:
        """Close a conversation whose day is over, in the background (``aclose`` awaits it)."""
        try:
            task = asyncio.get_running_loop().create_task(conversation.close())
        except RuntimeError:  # no loop (a synchronous caller): its review waits for next time
            return
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    async def aclose(self) -> None:
        """Close every open conversation (each reviews its memories), e.g. when the app quits."""
        if self._closing:
            await asyncio.gather(*list(self._closing), return_exceptions=True)
        conversations, self._conversations = list(self._conversations.values()), {}
        for conversation in conversations:
            await conversation.close()
