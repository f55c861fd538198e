"""The service container: built once per data folder and handed to whoever needs it.

Windows, CLI commands and pollers receive a ``Services`` instead of reaching for globals; tests
build one over a temporary folder with a fake clock.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from pathlib import Path

from core.clock import Clock, SystemClock, clock_from_env
from core.config import Settings
from core.db.dialect import POSTGRESQL
from core.db.shared_files import TableFiles
from core.db.store import Store
from core.errors import ConfigError
from core.events import EventBus
from core.paths import DataPaths, resolve_home
from core.secrets import Secrets

log = logging.getLogger(__name__)


@dataclass
class Services:
    paths: DataPaths
    settings: Settings
    store: Store
    bus: EventBus
    secrets: Secrets
    clock: Clock = field(default_factory=SystemClock)

    @property
    def home(self) -> Path:
        return self.paths.home

    def close(self) -> None:
        self.store.close()


def build_services(
    home: str | Path | None = None,
    *,
    clock: Clock | None = None,
    bus: EventBus | None = None,
    secrets: Secrets | None = None,
) -> Services:
    if clock is None:
        try:
            clock = clock_from_env()
        except ValueError as exc:
            raise ConfigError(str(exc)) from exc
    paths = DataPaths(resolve_home(home)).ensure()
    settings = Settings(paths.settings_file)
    store = Store(paths.database, url=settings.text("store.url"))
    if store.kind == POSTGRESQL:  # raw mail, attachments, knowledge, send journal: the store's
        paths = replace(paths, shared=TableFiles(store.engine, paths.home))
    return Services(
        paths=paths,
        settings=settings,
        store=store,
        bus=bus or EventBus(),
        secrets=secrets or Secrets(fallback=paths.secrets_file),
        clock=clock,
    )
