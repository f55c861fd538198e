"""What the desktop needs from the core besides the services: its start, the demo, sign-in.

Two kinds of thing, both so that the desktop imports ``core.app`` and nothing else of ``core``:

* module-level functions for the moments before an ``App`` exists (or with none at all):
  logging to the data folder's rotating file, where the data folder is, start at login, and
  warming the heavy imports; ``core.app`` re-exports them;
* ``DesktopSupport``, one per ``App`` (``App.desktop``): reopening the demo data folder, the
  Microsoft sign-in of this folder (built on use: it pulls in httpx), whether an account is set
  up. Each builds what it returns here, in the composition root, rather than in the window that
  asked. (Loading the demo and the sync scheduler are ``App.load_demo`` and ``App.scheduler``.)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from core import autostart
from core.logging_setup import setup_logging, setup_logging_or_none
from core.paths import DataPaths, resolve_home
from core.secrets import GRAPH_TOKEN
from core.services import Services

if TYPE_CHECKING:
    from core.graph.auth import MsalAuth

__all__ = [
    "DesktopSupport",
    "autostart_enabled",
    "cache_dir",
    "resolve_home",
    "set_autostart",
    "setup_logging",
    "setup_logging_or_none",
]


def cache_dir(home: str | os.PathLike[str] | None = None) -> Path:
    """The cache folder (translations, fonts) of the data folder ``home`` names, without
    opening it: for a dialog shown when the folder itself cannot be opened."""
    return DataPaths(resolve_home(home)).cache


def autostart_enabled() -> bool:
    """The app starts at login (the Windows Run key, the XDG autostart entry)."""
    return autostart.is_enabled()


def set_autostart(enabled: bool, command: Sequence[str] | None = None) -> None:
    """Turn start at login on or off (idempotent)."""
    autostart.set_enabled(enabled, command)


class DesktopSupport:
    """The demo folder's reopening, the Microsoft sign-in and the account of one data folder."""

    def __init__(self, services: Services) -> None:
        self._services = services

    def account_configured(self) -> bool:
        """A Microsoft account is set up (a token cache exists or a preset token is given).
        The file first: asking the keyring loads it, ~30 ms of a start that needs no secret."""
        s = self._services
        return s.paths.token_cache.exists() or bool(s.secrets.get(GRAPH_TOKEN))

    def preset_graph_token(self) -> bool:
        """``INQUIRY_BRIDGE_GRAPH_TOKEN`` (or the keyring) gives an access token: no sign-in."""
        return bool(self._services.secrets.get(GRAPH_TOKEN))

    def microsoft_sign_in(self) -> MsalAuth:
        """The Microsoft sign-in over this folder's token cache (``core.graph.auth``), imported
        on use rather than with the app: it pulls in httpx, ~0.1 s of start-up."""
        from core.graph.auth import build_msal

        return build_msal(self._services)

    def publisher_client_id(self) -> str:
        """The publisher's Microsoft app id the build carries ("" in a source checkout)."""
        from core.graph.app_id import publisher_client_id

        return publisher_client_id()

    def reopen_demo(self) -> timedelta:
        """This demo folder opened again: its dates moved up to now. Returns the shift."""
        from core.demo import reopen_demo

        return reopen_demo(self._services)
