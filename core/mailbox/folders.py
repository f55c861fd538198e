"""INBOX and the Sent folder of an IMAP account, by what the server says, then by name.

The Sent folder is the one marked ``\\Sent`` (RFC 6154 SPECIAL-USE, listed by ``LIST``); when
no folder is marked, the first of the common names that exists: ``Sent``, ``Sent Messages``
(iCloud), ``[Gmail]/Sent Mail`` and its localised twins, ``已发送`` (QQ, 163), ``Sent Items``.
Folder names travel in modified UTF-7 (RFC 3501 §5.1.3): ``已发送`` is ``&XfJT0ZAB-`` on the
wire, so names are decoded for matching and the wire form is kept for ``SELECT``.
"""

from __future__ import annotations

import base64
import binascii
import logging
import re
from dataclasses import dataclass

from core.mailbox.imap_session import ImapSession

log = logging.getLogger(__name__)

SENT_NAMES = (
    "Sent",
    "Sent Messages",
    "[Gmail]/Sent Mail",
    "[Google Mail]/Sent Mail",
    "[Gmail]/已发邮件",
    "已发送",
    "已发送邮件",
    "Sent Items",
    "Sent Mail",
    "INBOX.Sent",
    "INBOX/Sent",
)

_LIST = re.compile(rb'\((?P<flags>[^)]*)\)\s+(?P<sep>"[^"]*"|NIL)\s+(?P<name>.+)$')


@dataclass(frozen=True)
class Folder:
    wire: str  # as the server spells it (modified UTF-7), quoted for commands by ``quoted``
    name: str  # decoded, for matching and for people (escaped when it cannot be decoded)
    flags: frozenset[str]
    decodable: bool = True  # False: not valid modified UTF-7; shown escaped, never used

    @property
    def quoted(self) -> str:
        return '"' + self.wire.replace("\\", "\\\\").replace('"', '\\"') + '"'


def decode_utf7(name: str) -> str:
    """Modified UTF-7 → text (``&XfJT0ZAB-`` → ``已发送``; ``&-`` → ``&``)."""

    def one(match: re.Match[str]) -> str:
        chunk = match.group(1)
        if not chunk:
            return "&"
        padded = chunk.replace(",", "/") + "=" * (-len(chunk) % 4)
        return base64.b64decode(padded).decode("utf-16-be")

    return re.sub(r"&([A-Za-z0-9+,]*)-", one, name)


def escaped(wire: str) -> str:
    """A folder name as sent, for people and logs: printable ASCII kept, the rest escaped."""
    return wire.encode("unicode_escape").decode("ascii")


def try_decode(wire: str) -> str | None:
    """``decode_utf7``, or None when the name is not valid modified UTF-7 (``&AAAA-``)."""
    try:
        return decode_utf7(wire)
    except (UnicodeError, binascii.Error, ValueError):
        return None


def encode_utf7(name: str) -> str:
    """Text → modified UTF-7, for creating or selecting a folder named in Chinese."""
    out: list[str] = []
    pending: list[str] = []

    def flush() -> None:
        if pending:
            raw = "".join(pending).encode("utf-16-be")
            out.append("&" + base64.b64encode(raw).decode().rstrip("=").replace("/", ",") + "-")
            pending.clear()

    for ch in name:
        if 0x20 <= ord(ch) <= 0x7E:
            flush()
            out.append("&-" if ch == "&" else ch)
        else:
            pending.append(ch)
    flush()
    return "".join(out)


def _parse_list_line(line: bytes) -> Folder | None:
    match = _LIST.match(line.strip())
    if match is None:
        return None
    raw = match.group("name").strip()
    wire = raw.decode("ascii", "replace")
    if wire.startswith('"') and wire.endswith('"'):
        wire = wire[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    flags = frozenset(f.lower() for f in match.group("flags").decode("ascii", "replace").split())
    name = try_decode(wire)
    if name is None:
        return Folder(wire, escaped(wire), flags, decodable=False)
    return Folder(wire, name, flags)


def list_folders(session: ImapSession) -> list[Folder]:
    """Every folder the server lists; one whose name cannot be decoded is kept, escaped and
    marked (``decodable`` False), so a hostile or broken name never stops the sync."""
    folders = []
    for line in session.command("LIST", '""', '"*"'):
        folder = _parse_list_line(line)
        if folder is not None:
            if not folder.decodable:
                log.warning(
                    "IMAP folder name is not valid modified UTF-7, skipped: %s", folder.name
                )
            folders.append(folder)
    return folders


def find_sent(folders: list[Folder]) -> Folder | None:
    """The Sent folder: marked ``\\Sent``, else the first common name present (never one
    whose name cannot be decoded)."""
    folders = [f for f in folders if f.decodable]
    for folder in folders:
        if "\\sent" in folder.flags:
            return folder
    by_name = {f.name.lower(): f for f in folders}
    for name in SENT_NAMES:
        if name.lower() in by_name:
            return by_name[name.lower()]
    return None


def inbox() -> Folder:
    return Folder("INBOX", "INBOX", frozenset())
