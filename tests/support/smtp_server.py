"""A real SMTP server for tests (aiosmtpd) that records what it accepted, with faults.

``SmtpServer`` listens on a free 127.0.0.1 port with AUTH PLAIN/LOGIN over plain text (loopback
only), checks the user's password, and keeps every accepted message in ``received`` (envelope
and bytes). Optionally it files a copy into a Dovecot Sent folder itself, as Gmail does
(``deliver_sent``). Faults: ``cut_after_data`` closes the connection once the message is taken,
without the final reply; ``hold`` keeps the reply back until released (a sender can be killed
in that window).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

from tests.support.dovecot import DovecotServer, free_port


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes


@dataclass
class _Handler:
    server: SmtpServer
    received: list[Received] = field(default_factory=list)

    async def handle_DATA(self, smtp: Any, session: Any, envelope: Any) -> str:
        data = bytes(envelope.original_content or envelope.content)
        self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), data))
        if self.server.deliver_sent is not None:
            self.server.deliver_sent.append(
                data, folder=self.server.deliver_sent.sent_name, flags="(\\Seen)"
            )
        self.server.taken.set()
        if self.server.hold:
            while not self.server.released.is_set():
                import asyncio

                await asyncio.sleep(0.02)
        if self.server.cut_after_data:
            smtp.transport.close()
        return "250 2.0.0 OK queued"


class SmtpServer:
    def __init__(
        self, user: str, password: str, *, deliver_sent: DovecotServer | None = None
    ) -> None:
        self.user = user
        self.password = password
        self.port = free_port()
        self.deliver_sent = deliver_sent
        self.cut_after_data = False
        self.hold = False
        self.taken = threading.Event()
        self.released = threading.Event()
        self.handler = _Handler(self)
        self.controller = Controller(
            self.handler,
            hostname="127.0.0.1",
            port=self.port,
            authenticator=self._authenticate,
            auth_require_tls=False,
            auth_exclude_mechanism=["CRAM-MD5"],
        )

    @property
    def received(self) -> list[Received]:
        return self.handler.received

    @property
    def url(self) -> str:
        return f"smtp://{self.user}@127.0.0.1:{self.port}"

    def _authenticate(
        self, server: Any, session: Any, envelope: Any, mechanism: str, auth_data: Any
    ) -> AuthResult:
        ok = (
            isinstance(auth_data, LoginPassword)
            and auth_data.login.decode() == self.user
            and auth_data.password.decode() == self.password
        )
        return AuthResult(success=ok, handled=False)

    def start(self) -> SmtpServer:
        self.controller.start()
        return self

    def stop(self) -> None:
        self.released.set()
        self.controller.stop()
