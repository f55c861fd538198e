"""Where the app keeps its data: one folder for the database, logs, caches and files.

``--home`` beats ``INQUIRY_BRIDGE_HOME`` beats the platform's user data dir. The demo data set
lives in a sibling folder so trying the demo never touches the owner's real store.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "InquiryBridge"
HOME_ENV = "INQUIRY_BRIDGE_HOME"


def default_home() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def resolve_home(explicit: str | os.PathLike[str] | None = None) -> Path:
    if explicit:
        return Path(explicit).expanduser().resolve()
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser().resolve()
    return default_home()


@dataclass(frozen=True)
class DataPaths:
    """Every location under the data folder, computed once."""

    home: Path

    @property
    def settings_file(self) -> Path:
        return self.home / "settings.toml"

    @property
    def database(self) -> Path:
        return self.home / "inquiry-bridge.sqlite3"

    @property
    def secrets_file(self) -> Path:
        """Owner-only fallback for secrets where the OS has no keyring (core.secret_file)."""
        return self.home / "secrets.bin"

    @property
    def logs(self) -> Path:
        return self.home / "logs"

    @property
    def raw_mail(self) -> Path:
        """Raw RFC 5322 bytes of every message seen, so a ``pending`` one can be re-parsed."""
        return self.home / "mail"

    @property
    def attachments(self) -> Path:
        return self.home / "attachments"

    @property
    def audio(self) -> Path:
        return self.home / "audio"

    @property
    def cache(self) -> Path:
        return self.home / "cache"

    @property
    def token_cache(self) -> Path:
        """MSAL token cache (encrypted where the platform allows; never in SQLite)."""
        return self.home / "msal_token_cache.bin"

    @property
    def demo_home(self) -> Path:
        return self.home.parent / (self.home.name + "-demo")

    def ensure(self) -> DataPaths:
        for folder in (
            self.home,
            self.logs,
            self.raw_mail,
            self.attachments,
            self.audio,
            self.cache,
        ):
            folder.mkdir(parents=True, exist_ok=True)
        return self
