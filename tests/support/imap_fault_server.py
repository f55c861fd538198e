"""A small hostile IMAP server for tests (asyncio, 127.0.0.1): the faults real servers show.

It speaks just enough IMAP4rev1 for the sync (CAPABILITY, LOGIN, LIST, SELECT/EXAMINE,
UID SEARCH, UID FETCH of the listing items, of ``BODY.PEEK[]`` and of partial pieces, UID
STORE, NOOP, LOGOUT) over the messages in ``messages``, and can misbehave:

* ``bad_folder``      — LIST also names a folder in invalid modified UTF-7 (``&AAAA-``);
* ``no_uidvalidity``  — SELECT/EXAMINE answer without ``UIDVALIDITY``;
* ``size_lie``        — a UID listed with ``RFC822.SIZE 1000`` whose body is announced as
  ``lie_bytes`` (1.2 GB by default) and streamed as long as the client reads;
* ``endless_fetch``   — a body FETCH answered with untagged ``FETCH`` lines forever;
* ``trickle``         — a body FETCH answered one byte every ``trickle_seconds``.

A client that stops reading (closes the socket) ends the streaming; ``stop`` ends the rest.
"""

from __future__ import annotations

import asyncio
import re
import threading
from dataclasses import dataclass, field

from tests.support.dovecot import free_port

USER = "owner@example.com"
PASSWORD = "app-password"
_FETCH_SET = re.compile(r"^(\S+)\s+(.*)$", re.S)


@dataclass
class FaultyMessage:
    uid: int
    raw: bytes
    date: str = "01-Dec-2026 09:00:00 +1100"

    def message_id(self) -> bytes:
        match = re.search(rb"(?im)^message-id:\s*(\S+)", self.raw)
        return match.group(1) if match else b""


@dataclass
class Faults:
    bad_folder: bool = False
    no_uidvalidity: bool = False
    size_lie: int | None = None  # the UID whose size is a lie
    lie_bytes: int = 1_200_000_000
    endless_fetch: bool = False
    trickle: bool = False
    trickle_seconds: float = 3.0


@dataclass
class ImapFaultServer:
    messages: list[FaultyMessage] = field(default_factory=list)
    faults: Faults = field(default_factory=Faults)
    port: int = field(default_factory=free_port)
    streamed: int = 0  # bytes of lies and floods actually written to clients

    def __post_init__(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def url(self) -> str:
        return f"imap://{USER}@127.0.0.1:{self.port}"

    # ------------------------------------------------------------------ life
    def __enter__(self) -> ImapFaultServer:
        self._thread.start()
        asyncio.run_coroutine_threadsafe(self._start(), self._loop).result(10)
        return self

    def __exit__(self, *exc: object) -> None:
        asyncio.run_coroutine_threadsafe(self._stop(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    async def _start(self) -> None:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", self.port)

    async def _stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            await self._session(reader, writer)
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            self._tasks.discard(task)
            writer.close()

    # ------------------------------------------------------------------ protocol
    async def _session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"* OK [CAPABILITY IMAP4rev1 UIDPLUS] hostile test server ready\r\n")
        await writer.drain()
        while True:
            line = await reader.readline()
            if not line:
                return
            tag, _, rest = line.rstrip(b"\r\n").decode("utf-8", "replace").partition(" ")
            command, _, args = rest.partition(" ")
            command = command.upper()
            if command == "UID":
                sub, _, args = args.partition(" ")
                command = f"UID {sub.upper()}"
            out = await self._answer(command, args, writer)
            if out is None:
                return  # streaming until the client went away
            writer.write(out + f"{tag} OK {command} done\r\n".encode())
            await writer.drain()
            if command == "LOGOUT":
                return

    async def _answer(self, command: str, args: str, writer: asyncio.StreamWriter) -> bytes | None:
        if command == "CAPABILITY":
            return b"* CAPABILITY IMAP4rev1 UIDPLUS\r\n"
        if command in {"LOGIN", "NOOP", "UID STORE", "CHECK", "CLOSE"}:
            return b""
        if command == "LOGOUT":
            return b"* BYE bye\r\n"
        if command == "LIST":
            lines = [b'* LIST (\\HasNoChildren) "/" "INBOX"\r\n']
            if self.faults.bad_folder:
                lines.append(b'* LIST (\\HasNoChildren) "/" "&AAAA-"\r\n')
            lines.append(b'* LIST (\\HasNoChildren \\Sent) "/" "Sent"\r\n')
            return b"".join(lines)
        if command in {"SELECT", "EXAMINE"}:
            box = args.strip().strip('"').upper()
            count = len(self.messages) if box == "INBOX" else 0
            uidnext = (max((m.uid for m in self.messages), default=0) + 1) if count else 1
            said = [f"* {count} EXISTS\r\n", "* 0 RECENT\r\n", "* FLAGS (\\Seen)\r\n"]
            if not self.faults.no_uidvalidity:
                said.append("* OK [UIDVALIDITY 7] UIDs valid\r\n")
            said.append(f"* OK [UIDNEXT {uidnext}] next\r\n")
            self._box = box
            return "".join(said).encode()
        if command == "UID SEARCH":
            if getattr(self, "_box", "INBOX") != "INBOX":
                return b"* SEARCH\r\n"
            low = 1
            match = re.search(r"UID (\d+):\*", args)
            if match:
                low = int(match.group(1))
            uids = [m.uid for m in self.messages if m.uid >= low]
            if not uids and self.messages and match:
                uids = [max(m.uid for m in self.messages)]  # "n:*" names the highest UID
            return ("* SEARCH " + " ".join(map(str, uids)) + "\r\n").encode()
        if command == "UID FETCH":
            return await self._fetch(args, writer)
        return b""

    def _selected(self, uid_set: str) -> list[tuple[int, FaultyMessage]]:
        wanted: set[int] = set()
        top = max((m.uid for m in self.messages), default=0)
        for part in uid_set.split(","):
            if ":" in part:
                a, b = part.split(":")
                lo, hi = int(a), (top if b == "*" else int(b))
                wanted.update(range(min(lo, hi), max(lo, hi) + 1))
            elif part.isdigit():
                wanted.add(int(part))
        if getattr(self, "_box", "INBOX") != "INBOX":
            return []
        return [(i + 1, m) for i, m in enumerate(self.messages) if m.uid in wanted]

    async def _fetch(self, args: str, writer: asyncio.StreamWriter) -> bytes | None:
        match = _FETCH_SET.match(args)
        assert match is not None, args
        uid_set, items = match.group(1), match.group(2).upper()
        chosen = self._selected(uid_set)
        out = bytearray()
        if "HEADER.FIELDS" in items:  # the listing
            for seq, m in chosen:
                size = 1000 if m.uid == self.faults.size_lie else len(m.raw)
                header = b"Message-ID: " + m.message_id() + b"\r\n\r\n"
                out += (
                    f'* {seq} FETCH (UID {m.uid} INTERNALDATE "{m.date}" RFC822.SIZE {size} '
                    f"BODY[HEADER.FIELDS (MESSAGE-ID)] {{{len(header)}}}\r\n"
                ).encode()
                out += header + b")\r\n"
            return bytes(out)
        if self.faults.endless_fetch:
            await self._flood(writer)
            return None
        if self.faults.trickle:
            await self._trickle(writer, chosen)
            return None
        partial = re.search(r"BODY\.PEEK\[\]<(\d+)\.(\d+)>", items)
        for seq, m in chosen:
            if m.uid == self.faults.size_lie:
                writer.write(out)
                await self._lie(writer, seq, m.uid)
                return None
            body, label = m.raw, "BODY[]"
            if partial:
                start, length = int(partial.group(1)), int(partial.group(2))
                body, label = m.raw[start : start + length], f"BODY[]<{start}>"
            out += f"* {seq} FETCH (UID {m.uid} {label} {{{len(body)}}}\r\n".encode()
            out += body + b")\r\n"
        return bytes(out)

    async def _lie(self, writer: asyncio.StreamWriter, seq: int, uid: int) -> None:
        size = self.faults.lie_bytes
        writer.write(f"* {seq} FETCH (UID {uid} BODY[] {{{size}}}\r\n".encode())
        chunk = b"x" * 65536
        sent = 0
        while sent < size:
            writer.write(chunk)
            await writer.drain()
            sent += len(chunk)
            self.streamed += len(chunk)

    async def _flood(self, writer: asyncio.StreamWriter) -> None:
        line = b"* 1 FETCH (FLAGS (\\Seen))\r\n" * 1000
        while True:
            writer.write(line)
            await writer.drain()
            self.streamed += len(line)

    async def _trickle(
        self, writer: asyncio.StreamWriter, chosen: list[tuple[int, FaultyMessage]]
    ) -> None:
        seq, m = chosen[0]
        data = f"* {seq} FETCH (UID {m.uid} BODY[] {{{len(m.raw)}}}\r\n".encode() + m.raw
        for i in range(len(data)):
            writer.write(data[i : i + 1])
            await writer.drain()
            self.streamed += 1
            await asyncio.sleep(self.faults.trickle_seconds)
