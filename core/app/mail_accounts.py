"""``MailAccountService``: the IMAP/SMTP mailbox as the wizard and the settings page see it.

Providers by name (``core.mailbox.presets``), "test the connection" (one IMAP and one SMTP
login, off the event loop, errors in the owner's words), and saving: servers in the settings
file, the password (授权码) in the keyring. Nothing is saved before a test succeeded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict, Unpack

from core import tasks
from core.mailbox.account import Endpoint, Security
from core.mailbox.presets import PRESETS, Preset, endpoints
from core.secrets import MAIL_PASSWORD
from core.services import Services

if TYPE_CHECKING:  # the IMAP and SMTP clients load when a test runs, not when the app starts
    from core.mailbox.check import CheckResult

Server = tuple[str, int, Security]


class Servers(TypedDict, total=False):
    """Servers typed over the preset's (``手动设置``: host, port, security); None: the preset's."""

    imap: Server | None
    smtp: Server | None


@dataclass(frozen=True)
class MailAccount:
    """What the settings page shows: the preset, the user, the servers, whether a password is
    stored (never the password)."""

    provider: str
    user: str
    imap_url: str
    smtp_url: str
    has_password: bool


class MailAccountService:
    def __init__(self, services: Services) -> None:
        self.services = services

    def presets(self) -> list[Preset]:
        return list(PRESETS.values())

    def preset(self, key: str) -> Preset:
        return PRESETS.get(key, PRESETS["other"])

    def current(self) -> MailAccount:
        settings = self.services.settings
        imap_url = settings.text("imap.url")
        user = imap_url.partition("://")[2].rpartition("@")[0] if imap_url else ""
        return MailAccount(
            settings.text("imap.provider"),
            user,
            imap_url,
            settings.text("smtp.url"),
            bool(self.services.secrets.get(MAIL_PASSWORD)),
        )

    def _endpoints(self, key: str, user: str, servers: Servers) -> tuple[Endpoint, Endpoint]:
        return endpoints(
            self.preset(key), user.strip(), imap=servers.get("imap"), smtp=servers.get("smtp")
        )

    async def test(
        self, key: str, user: str, password: str, **servers: Unpack[Servers]
    ) -> CheckResult:
        """Log in once to both servers; raises ``MailAuthError`` / ``MailServiceDisabled`` /
        ``MailNetworkError`` / ``InsecureMailServer`` (Chinese ``user_message``)."""
        from core.mailbox.check import check_account

        i, s = self._endpoints(key, user, servers)
        return await tasks.io(check_account, i, s, password)

    async def save(
        self, key: str, user: str, password: str, **servers: Unpack[Servers]
    ) -> tuple[str, str]:
        """Test, then keep: settings for the servers, the keyring for the password. Returns
        where the password went (Chinese, English)."""
        await self.test(key, user, password, **servers)
        i, s = self._endpoints(key, user, servers)
        self.services.settings.update(
            {
                "imap.provider": key,
                "imap.url": i.url(),
                "smtp.url": s.url(),
                "smtp.append_sent": self.preset(key).append_sent,
            }
        )
        return self.services.secrets.set(MAIL_PASSWORD, password)
