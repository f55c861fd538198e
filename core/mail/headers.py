"""Header decoding: RFC 2047 encoded-words, raw 8-bit bytes, addresses and dates; never raises.

Headers are decoded from their raw text by our own decoder, so a ``gb2312`` encoded-word is
read as GB18030 (see ``core.mail.charsets``) and a broken encoded-word costs one word, not the
whole header. Address lists are split on the *raw* text, so an encoded comma inside a display
name cannot split an address.
"""

from __future__ import annotations

import base64
import binascii
import email.utils
import quopri
import re
from datetime import UTC, datetime

from core.mail.charsets import add_note, decode_bytes

__all__ = [
    "decode_header_value",
    "first_message_id",
    "parse_addresses",
    "parse_date",
    "raw_header_text",
]

_ENCODED_WORD = re.compile(r"=\?([^?\s]+)\?([bBqQ])\?([^?]*)\?=")
_BETWEEN_WORDS = re.compile(r"(\?=)[ \t\r\n]+(=\?)")
_FOLD = re.compile(r"\r?\n(?=[ \t])")


def raw_header_text(value: str, notes: list[str]) -> str:
    """Header text may carry raw 8-bit bytes (surrogate-escaped by the parser): decode them."""
    if not any("\udc80" <= ch <= "\udcff" for ch in value):
        return value
    data = value.encode("utf-8", errors="surrogateescape")
    return decode_bytes(data, None, notes)


def decode_header_value(value: str | None, notes: list[str] | None = None) -> str:
    """Unfold and decode one raw header value (RFC 2047 encoded-words, raw 8-bit); never raises."""
    if not value:
        return ""
    notes = notes if notes is not None else []
    value = _FOLD.sub("", str(value))
    # Whitespace between two adjacent encoded-words is not part of the text (RFC 2047 §6.2).
    previous = None
    while previous != value:
        previous = value
        value = _BETWEEN_WORDS.sub(r"\1\2", value)

    pieces: list[str] = []
    pending: list[tuple[str, bytes]] = []  # consecutive words in one charset decode together

    def flush() -> None:
        if pending:
            charset = pending[0][0]
            pieces.append(decode_bytes(b"".join(b for _, b in pending), charset, notes))
            pending.clear()

    pos = 0
    for match in _ENCODED_WORD.finditer(value):
        if match.start() > pos:
            flush()
            pieces.append(raw_header_text(value[pos : match.start()], notes))
        charset, encoding, text = match.group(1), match.group(2).lower(), match.group(3)
        data = _decode_word(encoding, text, notes)
        if pending and pending[-1][0] != charset.lower():
            flush()
        pending.append((charset.lower(), data))
        pos = match.end()
    flush()
    if pos < len(value):
        pieces.append(raw_header_text(value[pos:], notes))
    return "".join(pieces).strip()


def _decode_word(encoding: str, text: str, notes: list[str]) -> bytes:
    try:
        if encoding == "b":
            cleaned = re.sub(r"[^A-Za-z0-9+/]", "", text)
            cleaned += "=" * (-len(cleaned) % 4)
            return base64.b64decode(cleaned)
        return quopri.decodestring(text.replace("_", " ").encode("ascii", "replace"), header=True)
    except (binascii.Error, ValueError):
        add_note(notes, "broken encoded-word in header")
        return text.encode("ascii", "replace")


MESSAGE_ID = re.compile(r"<[^<>\s]+>")


def first_message_id(value: str) -> str | None:
    match = MESSAGE_ID.search(value)
    if match:
        return match.group(0)
    token = value.strip().split()
    return f"<{token[0].strip('<>')}>" if token and token[0].strip("<>") else None


def parse_addresses(raw_values: list[str], notes: list[str]) -> list[tuple[str, str]]:
    """(display name, lower-case address) pairs; parses the *raw* text so encoded commas in
    display names cannot split an address."""
    result: list[tuple[str, str]] = []
    for raw in raw_values:
        unfolded = _FOLD.sub("", raw)
        try:
            pairs = email.utils.getaddresses([unfolded])
        except Exception:  # malformed address lists must not lose the message
            add_note(notes, "unparseable address header")
            pairs = [("", a) for a in re.findall(r"[\w.+'-]+@[\w-]+(?:\.[\w-]+)+", unfolded)]
        for name, addr in pairs:
            addr = raw_header_text(addr, notes).strip().strip("<>").lower()
            if not addr or "@" not in addr:
                continue
            result.append((decode_header_value(name, notes).strip().strip('"'), addr))
    return result


# Dates outside this span are poison (a year-9999 header overflows time-zone arithmetic) or
# nonsense; the pipeline then uses the arrival time and the note says why.
EARLIEST_YEAR = 1970
LATEST_YEAR = 2199

# A Date header is the sender's claim. Before this it is a clock at zero or reset (1970-01-01, a
# PC's BIOS year), not when a customer wrote: as a received time it would start a stage clock
# 14,000 working days ago.
PLAUSIBLE_SINCE = datetime(2000, 1, 1, tzinfo=UTC)


def arrival_from_header(date: datetime | None, now: datetime) -> datetime | None:
    """When a mail known only by its Date header (``parse_date``'s result) arrived, or None.

    None for a missing or implausibly early Date, so the caller uses the arrival time; a Date
    ahead of ``now`` (aware) is a sender's fast clock, and the mail cannot have arrived after it
    was read, so it is ``now``. The header itself is untouched (identity still fingerprints it).
    """
    if date is None or date < PLAUSIBLE_SINCE:
        return None
    return min(date, now.astimezone(UTC))


def parse_date(value: str, notes: list[str]) -> datetime | None:
    """The Date header in UTC, or None (noted) when it is unparsable or out of range; never raises.

    Why so wary: ``Fri, 31 Dec 9999 23:59:59 -1200`` parses, then overflows ``astimezone``; one
    such header once stopped intake for good.
    """
    if not value:
        return None
    try:
        parsed = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        add_note(notes, "unparseable Date header")
        return None
    if parsed is None:
        return None
    try:
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=UTC)
        parsed = parsed.astimezone(UTC)
    except (OverflowError, ValueError):
        add_note(notes, "Date header out of range")
        return None
    if not EARLIEST_YEAR <= parsed.year <= LATEST_YEAR:
        add_note(notes, "Date header out of range")
        return None
    return parsed
