"""Small facts the app keeps between runs (the ``app_state`` table), typed by key.

The desktop's data mode (real or demo), whether first run is done and the approval window's last
folder live here. Reads and writes are coroutines on the store; ``peek`` is the one synchronous
read, for start-up decisions taken before the event loop serves anything.
"""

from __future__ import annotations

from core.db.app_state import get_state, put_state
from core.db.models import JSONValue
from core.services import Services


class AppStateService:
    def __init__(self, services: Services) -> None:
        self._services = services

    def peek(self, key: str) -> JSONValue:
        """The value under ``key`` now (a tiny indexed read; start-up only)."""
        with self._services.store.session() as session:
            return get_state(session, key)

    async def get(self, key: str) -> JSONValue:
        return await self._services.store.read(lambda s: get_state(s, key))

    async def put(self, key: str, value: object) -> None:
        now = self._services.clock.now()
        await self._services.store.run(lambda s: put_state(s, key, value, now))
