"""Pacing messages to one Telegram chat: a gap between sends and Telegram's 429 blocks."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from core.clock import utc
from core.db.app_state import get_state, put_state

if TYPE_CHECKING:
    from core.clock import Clock
    from core.db.store import Store


class Pacer:
    """At least ``gap`` seconds between two messages to one chat, on the injected clock.

    Shared by the mirror and the bot so their messages are paced together. With a ``store`` the
    last send and any 429 block are kept in ``app_state telegram.pace`` too, so the gap (and a
    ``retry_after``) also holds across processes: two quick ``telegram --once`` runs, or the CLI
    right after the tray app.
    """

    STATE_KEY = "telegram.pace"

    def __init__(self, clock: Clock, gap: float = 1.0, *, store: Store | None = None) -> None:
        self.clock = clock
        self.gap = gap
        self.store = store
        self._last: dict[int, datetime] = {}
        self.blocked_until: dict[int, datetime] = {}

    async def _load(self, chat_id: int) -> None:
        if self.store is None:
            return
        saved = await self.store.read(lambda s: get_state(s, self.STATE_KEY))
        entry = (saved or {}).get(str(chat_id)) if isinstance(saved, dict) else None
        for field_name, target in (("last", self._last), ("blocked_until", self.blocked_until)):
            value = (entry or {}).get(field_name)
            if value:
                when = utc(datetime.fromisoformat(value))
                if chat_id not in target or target[chat_id] < when:
                    target[chat_id] = when

    async def _save(self, chat_id: int) -> None:
        if self.store is None:
            return
        entry = {
            "last": self._last[chat_id].isoformat() if chat_id in self._last else None,
            "blocked_until": (
                self.blocked_until[chat_id].isoformat() if chat_id in self.blocked_until else None
            ),
        }

        def _do(session: Session) -> None:
            saved = get_state(session, self.STATE_KEY)
            value = dict(saved) if isinstance(saved, dict) else {}
            value[str(chat_id)] = entry
            put_state(session, self.STATE_KEY, value, self.clock.now())

        await self.store.run(_do)

    async def wait(self, chat_id: int) -> float:
        await self._load(chat_id)
        now = utc(self.clock.now())
        ready = now
        if chat_id in self._last:
            ready = max(ready, self._last[chat_id] + timedelta(seconds=self.gap))
        if chat_id in self.blocked_until:
            ready = max(ready, self.blocked_until[chat_id])
        delay = (ready - now).total_seconds()
        if delay > 0:
            await self.clock.sleep(delay)
        return max(delay, 0.0)

    async def mark(self, chat_id: int) -> None:
        """A message just reached Telegram (accepted or refused): the gap starts now."""
        self._last[chat_id] = utc(self.clock.now())
        await self._save(chat_id)

    async def block(self, chat_id: int, seconds: float) -> None:
        """Telegram said 429 ``retry_after``: nothing to this chat before then."""
        self.blocked_until[chat_id] = utc(self.clock.now()) + timedelta(seconds=seconds)
        await self._save(chat_id)
