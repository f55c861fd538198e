"""``TelegramPairing``: the Telegram settings page's view of the bot token and the paired chat.

Why a service: the page shows whether a token is saved (or preset by the environment), who is
paired, the one-time code to pair with, and makes a new code or unpairs; all of it reads or writes
the store and the keyring (``core.notify.pairing``), which front ends reach only through ``App``.
The calls are small single-row reads and writes, as the page always made them.
"""

from __future__ import annotations

import os

from core.notify import pairing
from core.notify.pairing import Owner, PairingCode
from core.secrets import ENV_OVERRIDES, TELEGRAM_TOKEN
from core.services import Services


class TelegramPairing:
    """The bot token, the owner's paired chat and the pairing code of one data folder."""

    def __init__(self, services: Services) -> None:
        self._services = services

    def token(self) -> str | None:
        """The saved (or environment-preset) bot token."""
        return pairing.token(self._services)

    def token_from_env(self) -> bool:
        """The token comes from ``INQUIRY_BRIDGE_TELEGRAM_TOKEN`` (the field is read-only)."""
        return bool(os.environ.get(ENV_OVERRIDES[TELEGRAM_TOKEN]))

    def enabled(self) -> bool:
        """Mirror on: the settings switch, or both headless variables preset."""
        return pairing.enabled(self._services)

    def owner(self) -> Owner | None:
        return pairing.owner(self._services)

    def current_code(self) -> PairingCode | None:
        return pairing.current_pairing_code(self._services)

    def new_code(self) -> PairingCode:
        """A fresh one-time code (replacing any earlier one) for ``/start CODE``."""
        return pairing.new_pairing_code(self._services)

    def unpair(self) -> None:
        pairing.unpair(self._services)
