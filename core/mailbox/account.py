"""Where the mailbox is: IMAP and SMTP endpoints, parsed once, with the one transport rule.

``imap://USER@HOST:PORT`` is plain or STARTTLS (STARTTLS whenever the server offers it, plain
only to loopback), ``imaps://`` is TLS from the first byte; ``smtp://`` upgrades with STARTTLS
when offered, ``smtps://`` is TLS. A password never goes over a plain connection to another
machine: ``InsecureMailServer`` is raised before anything is sent.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal
from urllib.parse import unquote, urlsplit

from core.errors import ConfigError, InsecureMailServer

if TYPE_CHECKING:
    from core.config import SettingsReader

Security = Literal["ssl", "starttls", "plain"]

_DEFAULT_PORTS = {"imap": 143, "imaps": 993, "smtp": 587, "smtps": 465}


@dataclass(frozen=True)
class Endpoint:
    """One server: ``security`` ``ssl`` (TLS at connect) or ``starttls`` (upgrade; plain only
    where the server is this computer and offers no upgrade)."""

    protocol: Literal["imap", "smtp"]
    host: str
    port: int
    user: str
    security: Security

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)

    def url(self) -> str:
        scheme = self.protocol + ("s" if self.security == "ssl" else "")
        return f"{scheme}://{self.user}@{self.host}:{self.port}"


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and ``localhost`` — the only places plain text may go."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def parse_url(url: str, protocol: Literal["imap", "smtp"]) -> Endpoint:
    """``imap[s]://USER@HOST:PORT`` / ``smtp[s]://…`` → Endpoint (ConfigError when malformed)."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme not in (protocol, protocol + "s"):
        raise ConfigError(f"{url!r}: expected {protocol}:// or {protocol}s://")
    if not parts.hostname or not parts.username:
        raise ConfigError(f"{url!r}: expected {scheme}://USER@HOST:PORT")
    try:
        port = parts.port or _DEFAULT_PORTS[scheme]
    except ValueError as exc:
        raise ConfigError(f"{url!r}: bad port") from exc
    security: Security = "ssl" if scheme.endswith("s") else "starttls"
    return Endpoint(protocol, parts.hostname, port, unquote(parts.username), security)


def check_transport(endpoint: Endpoint, *, tls: bool) -> None:
    """Refuse a login over plain text to anything but loopback (called before the login)."""
    if not tls and not endpoint.loopback:
        raise InsecureMailServer(f"{endpoint.host}:{endpoint.port}")


def resolve_check(host: str) -> None:
    """Fail fast with a network error when the name does not resolve (no network, typo)."""
    socket.getaddrinfo(host, None)


def configured(settings: SettingsReader) -> bool:
    """An IMAP mailbox is set for this folder (here, not in ``runtime``: asking must not load
    the IMAP and SMTP clients)."""
    return bool(settings.text("imap.url").strip())


def smtp_configured(settings: SettingsReader) -> bool:
    return bool(settings.text("smtp.url").strip())
