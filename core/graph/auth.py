"""Microsoft 365 sign-in: MSAL public client, token cache on disk, silent refresh, sign-out.

Why this shape:
* A desktop app is a *public* client: no secret, the user signs in in the system browser (loopback
  redirect) or, on a headless box, with a device code typed on another device.
* The MSAL token cache holds refresh tokens — secrets — and can be larger than the 2.5 KB a Windows
  Credential Manager entry allows, so it never goes into keyring, SQLite or logs. msal-extensions
  encrypts it where the OS can (DPAPI on Windows, Keychain on macOS, libsecret on Linux) and we
  fall back to a plain file with mode 0600 at ``DataPaths.token_cache`` when no secret service
  exists (headless Linux).
* Expired or revoked consent (``invalid_grant``, ``interaction_required``) is not a crash: it
  becomes ``GraphAuthError`` with a Chinese message and a ``SyncStatus(source="auth", ok=False,
  code="graph_auth")`` event so the desktop shows "sign in again"; pollers back off until then.
* ``INQUIRY_BRIDGE_GRAPH_TOKEN`` (or a token saved with ``Secrets``) bypasses MSAL entirely.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core import tasks
from core.errors import (
    ConfigError,
    GraphAuthError,
    GraphError,
    NoMicrosoftApp,
    NotSignedIn,
    SignInUnreachable,
)
from core.events import EventBus, SyncStatus
from core.graph.client import StaticToken, TokenProvider
from core.secrets import GRAPH_TOKEN

if TYPE_CHECKING:
    from core.paths import DataPaths
    from core.services import Services

log = logging.getLogger(__name__)

# offline_access is reserved: MSAL adds it (and openid/profile) itself and rejects it when passed.
# MailboxSettings.ReadWrite: creating the coloured class/stage categories in the master list
SCOPES = [
    "Mail.ReadWrite",
    "Mail.Send",
    "Files.ReadWrite",
    "Calendars.ReadWrite",
    "MailboxSettings.ReadWrite",
    "User.Read",
]
RESERVED_SCOPES = frozenset({"offline_access", "openid", "profile"})
SIGN_IN_AGAIN_ERRORS = frozenset(
    {"invalid_grant", "interaction_required", "consent_required", "login_required"}
)


def token_cache_location(paths: DataPaths) -> Path:
    """Where the MSAL cache lives: ``<data folder>/msal_token_cache.bin`` (see README)."""
    return Path(paths.token_cache)


def _secure_file_persistence(location: Path) -> Any:
    """A FilePersistence that keeps the file at 0600 even if it existed with looser bits."""
    from msal_extensions import FilePersistence

    class SecureFilePersistence(FilePersistence):  # type: ignore[misc]  # msal_extensions: untyped
        def save(self, content: str) -> None:
            super().save(content)
            if os.name == "posix":
                os.chmod(self.get_location(), 0o600)

    location.parent.mkdir(parents=True, exist_ok=True)
    return SecureFilePersistence(str(location))


def build_persistence(location: Path, *, allow_encrypted: bool = True) -> tuple[Any, bool]:
    """Encrypted persistence where the platform provides it, else a 0600 file.

    Returns ``(persistence, encrypted)``. On Linux the libsecret trial run raises without a
    secret service (or without PyGObject); that is the documented place to fall back.
    """
    location.parent.mkdir(parents=True, exist_ok=True)
    if allow_encrypted:
        try:
            from msal_extensions import build_encrypted_persistence

            return build_encrypted_persistence(str(location)), True
        except Exception as exc:  # ImportError, libsecret trial failure, unsupported OS
            log.info("encrypted token cache unavailable (%s); using a 0600 file", exc)
    return _secure_file_persistence(location), False


class MsalAuth:
    """Sign-in state of the one Microsoft account the app reads.

    It is a ``TokenProvider``: ``await token()`` refreshes silently or raises GraphAuthError.
    """

    def __init__(
        self,
        client_id: str,
        authority: str,
        cache_location: Path,
        *,
        bus: EventBus | None = None,
        allow_encrypted: bool = sys.platform != "linux" or bool(os.environ.get("DISPLAY")),
    ) -> None:
        self.client_id = client_id
        self.authority = authority
        self.cache_location = cache_location
        self.bus = bus
        self._allow_encrypted = allow_encrypted
        self._app: Any = None
        self._cache: Any = None
        self.encrypted = False
        self._lock = asyncio.Lock()

    # ----------------------------------------------------------------- plumbing
    @property
    def cache(self) -> Any:
        if self._cache is None:
            from msal_extensions import PersistedTokenCache

            persistence, self.encrypted = build_persistence(
                self.cache_location, allow_encrypted=self._allow_encrypted
            )
            self._cache = PersistedTokenCache(persistence)
        return self._cache

    @property
    def app(self) -> Any:
        if self._app is None:
            if not self.client_id:
                raise NoMicrosoftApp("graph.client_id")
            import msal

            self._app = msal.PublicClientApplication(
                self.client_id, authority=self.authority, token_cache=self.cache
            )
        return self._app

    def accounts(self) -> list[dict[str, Any]]:
        """Signed-in accounts, read from the cache alone: no network, safe on the UI thread
        (building the MSAL app fetches the authority's metadata over HTTP)."""
        import msal

        try:
            return list(self.cache.search(msal.TokenCache.CredentialType.ACCOUNT))
        except Exception as exc:  # unreadable/undecryptable cache = signed out, not a crash
            log.warning("token cache unreadable: %s", exc)
            return []

    @property
    def signed_in(self) -> bool:
        return bool(self.accounts())

    def username(self) -> str | None:
        accounts = self.accounts()
        return accounts[0].get("username") if accounts else None

    def _fail(self, detail: str, *, never_signed_in: bool = False) -> GraphAuthError:
        err = NotSignedIn(detail) if never_signed_in else GraphAuthError(detail)
        if self.bus is not None:
            self.bus.publish(
                SyncStatus(source="auth", ok=False, code=err.code, detail=err.user_message("zh_CN"))
            )
        return err

    def _ok(self) -> None:
        if self.bus is not None:
            self.bus.publish(SyncStatus(source="auth", ok=True, code="graph_auth"))

    # ----------------------------------------------------------------- tokens
    def acquire_silent(self) -> str:
        """A valid access token from the cache (refreshing it when needed), or GraphAuthError."""
        accounts = self.accounts()
        if not accounts:
            raise self._fail("", never_signed_in=True)
        try:
            result = self.app.acquire_token_silent_with_error(SCOPES, account=accounts[0])
        except (ConfigError, GraphAuthError):
            raise
        except Exception as exc:  # offline / DNS / TLS: a network problem, not a sign-in problem
            raise GraphError(
                f"无法连接微软登录服务 / cannot reach Microsoft sign-in: {exc}"
            ) from exc
        if result and "access_token" in result:
            return str(result["access_token"])
        error = (result or {}).get("error", "no_token")
        if error in SIGN_IN_AGAIN_ERRORS or result is None:
            raise self._fail(f"登录已过期或授权被撤销 / sign-in expired or revoked ({error})")
        raise self._fail(f"{error}: {(result or {}).get('error_description', '')[:200]}")

    async def token(self) -> str:
        async with self._lock:  # one refresh at a time; MSAL's HTTP is blocking → thread
            return await tasks.io(self.acquire_silent)

    # ----------------------------------------------------------------- sign-in / out
    def sign_in_interactive(self, *, timeout: int = 300) -> str:
        """System browser with a loopback redirect; returns the account's username. A network
        failure (MSAL fetches the authority first) is ``SignInUnreachable``, one sentence."""
        try:
            result = self.app.acquire_token_interactive(
                SCOPES, prompt="select_account", timeout=timeout
            )
        except (ConfigError, GraphAuthError):
            raise
        except OSError as exc:  # requests' ConnectionError, timeouts, DNS: all OSError
            raise SignInUnreachable(type(exc).__name__) from exc
        return self._finish(result)

    def sign_in_device_code(self, show: Callable[[str], None]) -> str:
        """Device-code flow for headless machines: ``show`` prints the code and the URL."""
        try:
            flow = self.app.initiate_device_flow(scopes=SCOPES)
        except OSError as exc:
            raise SignInUnreachable(type(exc).__name__) from exc
        if "user_code" not in flow:
            raise self._fail(str(flow.get("error_description") or flow.get("error") or flow))
        show(str(flow["message"]))
        result = self.app.acquire_token_by_device_flow(flow)
        return self._finish(result)

    def _finish(self, result: dict[str, Any] | None) -> str:
        if not result or "access_token" not in result:
            error = (result or {}).get("error", "unknown")
            raise self._fail(f"{error}: {(result or {}).get('error_description', '')[:200]}")
        self._ok()
        claims = result.get("id_token_claims") or {}
        return str(claims.get("preferred_username") or self.username() or "")

    def sign_out(self) -> None:
        """Forget every account: empty the cache (also in DPAPI/Keychain/libsecret) and delete
        the cache file and its lock file. Works offline and without a client id."""
        if self._cache is not None or self.cache_location.exists():
            try:
                self.cache._persistence.save("{}")  # clears the encrypted store, not just the file
            except Exception as exc:  # a broken cache must not block sign-out
                log.warning("clearing the token cache failed: %s", exc)
        for path in (self.cache_location, Path(str(self.cache_location) + ".lockfile")):
            path.unlink(missing_ok=True)
        self._cache = None
        self._app = None
        if self.bus is not None:
            self.bus.publish(SyncStatus(source="auth", ok=False, code="signed_out"))


def build_token_provider(services: Services) -> TokenProvider:
    """``INQUIRY_BRIDGE_GRAPH_TOKEN`` (or a saved token) if present, else MSAL."""
    static = services.secrets.get(GRAPH_TOKEN)
    if static:
        return StaticToken(static)
    return build_msal(services)


def build_msal(services: Services) -> MsalAuth:
    from core.graph.app_id import client_id

    settings = services.settings
    return MsalAuth(
        client_id(settings),
        settings.text("graph.authority"),
        token_cache_location(services.paths),
        bus=services.bus,
    )


def check_scopes(scopes: list[str]) -> list[str]:
    """Scopes safe to hand to MSAL (it rejects the reserved ones it adds itself)."""
    return [s for s in scopes if s not in RESERVED_SCOPES]
