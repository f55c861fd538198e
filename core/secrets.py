"""Secrets (API keys, bot token) in the OS keyring, never in settings, SQLite or logs.

Environment variables of DESIGN.md win over the keyring so headless and test setups need no
keyring at all. A missing keyring backend is ``SecretStoreUnavailable`` with a clear message,
not a crash: reading returns ``None``; only storing a secret fails.
"""

from __future__ import annotations

import os

import keyring
import keyring.errors

from core.errors import SecretStoreUnavailable

SERVICE = "inquiry-bridge"

LLM_API_KEY = "llm_api_key"
TELEGRAM_TOKEN = "telegram_bot_token"
GRAPH_TOKEN = "graph_token"

ENV_OVERRIDES = {
    LLM_API_KEY: "INQUIRY_BRIDGE_LLM_API_KEY",
    TELEGRAM_TOKEN: "INQUIRY_BRIDGE_TELEGRAM_TOKEN",
    GRAPH_TOKEN: "INQUIRY_BRIDGE_GRAPH_TOKEN",
}


class Secrets:
    def __init__(self, service: str = SERVICE, environ: dict[str, str] | None = None) -> None:
        self.service = service
        self._environ = environ if environ is not None else os.environ

    def get(self, name: str) -> str | None:
        env = ENV_OVERRIDES.get(name)
        if env and self._environ.get(env):
            return self._environ[env]
        try:
            return keyring.get_password(self.service, name)
        except keyring.errors.NoKeyringError:
            return None
        except keyring.errors.KeyringError:
            return None

    def set(self, name: str, value: str) -> None:
        try:
            keyring.set_password(self.service, name, value)
        except keyring.errors.KeyringError as exc:
            raise SecretStoreUnavailable(str(exc) or type(exc).__name__) from exc

    def delete(self, name: str) -> None:
        try:
            keyring.delete_password(self.service, name)
        except keyring.errors.PasswordDeleteError:
            return
        except keyring.errors.KeyringError as exc:
            raise SecretStoreUnavailable(str(exc) or type(exc).__name__) from exc

    def available(self) -> bool:
        try:
            backend = keyring.get_keyring()
        except keyring.errors.KeyringError:
            return False
        return "fail" not in type(backend).__module__
