"""A real SMTP server for tests (aiosmtpd) that records what it accepted, with faults.

``SmtpServer`` listens on a free 127.0.0.1 port with AUTH PLAIN/LOGIN over plain text (loopback
only), checks the user's password, and keeps every accepted message in ``received`` (envelope
and bytes). Optionally it files a copy into a Dovecot Sent folder itself, as Gmail does
(``deliver_sent``). Faults: ``cut_after_data`` closes the connection once the message is taken,
without the final reply; ``hold`` keeps the reply back until released (a sender can be killed
in that window); ``fail_next(command, action)`` makes the next ``CONNECT``, ``MAIL``, ``RCPT``
or ``DATA`` (the command, before any message byte) answer ``action`` — a reply line such as
``"451 4.3.0 try later"`` — or, with ``"drop"``, close the connection without a word, or,
with ``"hold"``, leave it unanswered until ``released`` (a sender waits there with nothing of
the message sent); ``END`` answers the final dot with the given reply and keeps nothing (a server that refused it). Each fault
fires once, in order, so a test can script an outage and the recovery after it.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass, field
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

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
        refusal = self.server.take_fault("END")  # the answer to the final dot: not taken
        if refusal is not None:
            return refusal
        data = bytes(envelope.original_content or envelope.content)
        self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), data))
        if self.server.deliver_sent is not None:
            self.server.deliver_sent.append(
                data, folder=self.server.deliver_sent.sent_name, flags="(\\Seen)"
            )
        self.server.taken.set()
        if self.server.hold:
            while not self.server.released.is_set():
                await asyncio.sleep(0.02)
        if self.server.cut_after_data:
            smtp.transport.close()
        return "250 2.0.0 OK queued"


class _FaultySMTP(SMTP):
    """aiosmtpd's server with the scripted faults of ``SmtpServer.fail_next``."""

    def __init__(self, owner: SmtpServer, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner

    async def _fault(self, command: str) -> bool:
        """Apply the next fault scripted for ``command``; True when it answered for it."""
        action = self.owner.take_fault(command)
        if action is None:
            return False
        if action == "hold":  # the command waits, unanswered, until ``released``
            self.owner.holding.set()
            while not self.owner.released.is_set():
                await asyncio.sleep(0.02)
            return False
        if action == "drop":
            assert self.transport is not None
            self.transport.close()
        else:
            await self.push(action)
            if command == "CONNECT":
                assert self.transport is not None
                self.transport.close()
        return True

    async def _handle_client(self) -> None:
        if await self._fault("CONNECT"):
            return
        await super()._handle_client()

    async def smtp_MAIL(self, arg: str | None) -> None:
        if not await self._fault("MAIL"):
            await super().smtp_MAIL(arg)

    async def smtp_RCPT(self, arg: str | None) -> None:
        if not await self._fault("RCPT"):
            await super().smtp_RCPT(arg)

    async def smtp_DATA(self, arg: str) -> None:
        if not await self._fault("DATA"):
            await super().smtp_DATA(arg)


class _Controller(Controller):
    def __init__(self, owner: SmtpServer, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.owner = owner

    def factory(self) -> SMTP:
        return _FaultySMTP(self.owner, self.handler, **self.SMTP_kwargs)


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
        self.holding = threading.Event()  # a command scripted ``hold`` is waiting
        self.released = threading.Event()
        self.handler = _Handler(self)
        self.faults: list[tuple[str, str]] = []
        self._faults_lock = threading.Lock()
        self.controller = _Controller(
            self,
            self.handler,
            hostname="127.0.0.1",
            port=self.port,
            authenticator=self._authenticate,
            auth_require_tls=False,
            auth_exclude_mechanism=["CRAM-MD5"],
        )

    def fail_next(self, command: str, action: str) -> None:
        """Script one fault: the next ``command`` (CONNECT, MAIL, RCPT, DATA) gets ``action``."""
        with self._faults_lock:
            self.faults.append((command.upper(), action))

    def take_fault(self, command: str) -> str | None:
        with self._faults_lock:
            for i, (cmd, action) in enumerate(self.faults):
                if cmd == command:
                    del self.faults[i]
                    return action
        return None

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
