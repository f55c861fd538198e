"""Secrets (API keys, bot token) in the OS keyring, never in settings, SQLite or logs.

Environment variables of docs/contracts.md win over the keyring so headless and test setups need no
keyring at all. Where the OS has no keyring (or it refuses), a secret goes to the data folder's
owner-only ``ProtectedFile`` instead of being dropped, and ``location`` says which store holds
it so the owner is told. Without a fallback file (tests, tools) a refusing keyring is
``SecretStoreUnavailable`` with a clear message; reading never raises.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from core.errors import SecretStoreUnavailable
from core.secret_file import ProtectedFile

if TYPE_CHECKING:
    from keyring.backend import KeyringBackend

SERVICE = "inquiry-bridge"

LLM_API_KEY = "llm_api_key"
TELEGRAM_TOKEN = "telegram_bot_token"
GRAPH_TOKEN = "graph_token"
MAIL_PASSWORD = "mail_password"  # IMAP/SMTP (app) password, 授权码

ENV_OVERRIDES = {
    LLM_API_KEY: "INQUIRY_BRIDGE_LLM_API_KEY",
    TELEGRAM_TOKEN: "INQUIRY_BRIDGE_TELEGRAM_TOKEN",
    GRAPH_TOKEN: "INQUIRY_BRIDGE_GRAPH_TOKEN",
    MAIL_PASSWORD: "INQUIRY_BRIDGE_MAIL_PASSWORD",
}


KEYRING_ZH = ("系统密钥库", "the system keyring")


def _errors() -> ModuleType:
    """``keyring.errors``, loaded with the keyring on the first secret asked for: ``keyring``
    reads its entry points (importlib_metadata, jaraco) on import, and a start that reads no
    secret (the board, ``inquiries --json``) should not pay for that (#44)."""
    import keyring.errors

    return keyring.errors


def _backend() -> KeyringBackend:
    """The OS keyring. A ``PYTHON_KEYRING_BACKEND`` naming a backend that cannot be loaded (a
    typo, a package not installed) is no keyring here -- the owner-only file then, and the owner
    is told where a secret went -- not a ``ModuleNotFoundError`` that stops the app at start."""
    import keyring

    try:
        return keyring.get_keyring()
    except (ImportError, AttributeError, ValueError, TypeError) as exc:
        raise _errors().NoKeyringError(f"keyring backend cannot be loaded: {exc}") from None


class Secrets:
    def __init__(
        self,
        service: str = SERVICE,
        environ: dict[str, str] | None = None,
        fallback: Path | None = None,
    ) -> None:
        self.service = service
        self._environ = environ if environ is not None else os.environ
        self.fallback = ProtectedFile(fallback) if fallback is not None else None

    def get(self, name: str) -> str | None:
        env = ENV_OVERRIDES.get(name)
        if env and self._environ.get(env):
            return self._environ[env]
        try:
            value = _backend().get_password(self.service, name)
        except _errors().KeyringError:
            value = None
        if value is None and self.fallback is not None:
            value = self.fallback.load().get(name)
        return value

    def set(self, name: str, value: str) -> tuple[str, str]:
        """Store ``value``; returns where it went, (Chinese, English), to tell the owner."""
        try:
            _backend().set_password(self.service, name, value)
        except _errors().KeyringError as exc:
            if self.fallback is None:
                raise SecretStoreUnavailable(str(exc) or type(exc).__name__) from exc
            values = self.fallback.load()
            values[name] = value
            self.fallback.save(values)
            return self.fallback.describe()
        self._forget_fallback(name)  # one copy only: an old fallback copy must not linger
        return KEYRING_ZH

    def delete(self, name: str) -> None:
        self._forget_fallback(name)
        try:
            _backend().delete_password(self.service, name)
        except _errors().PasswordDeleteError:
            return
        except _errors().NoKeyringError:
            if self.fallback is None:
                raise SecretStoreUnavailable("no keyring") from None
        except _errors().KeyringError as exc:
            raise SecretStoreUnavailable(str(exc) or type(exc).__name__) from exc

    def location(self, name: str) -> tuple[str, str] | None:
        """Which store holds ``name`` now (None: none; the environment wins over both)."""
        env = ENV_OVERRIDES.get(name)
        if env and self._environ.get(env):
            return (f"环境变量 {env}", f"the environment variable {env}")
        try:
            if _backend().get_password(self.service, name) is not None:
                return KEYRING_ZH
        except _errors().KeyringError:
            pass
        if self.fallback is not None and name in self.fallback.load():
            return self.fallback.describe()
        return None

    def _forget_fallback(self, name: str) -> None:
        if self.fallback is None:
            return
        values = self.fallback.load()
        if name in values:
            del values[name]
            self.fallback.save(values)

    def available(self) -> bool:
        try:
            backend = _backend()
        except _errors().KeyringError:
            return False
        return "fail" not in type(backend).__module__
