"""MIME parsing: raw RFC 5322 bytes → :class:`ParsedMessage`, without ever crashing on bad mail.

Real inboxes carry mislabelled charsets (GBK text labelled gb2312, Windows-1252 labelled
us-ascii, made-up names), truncated multiparts, forgotten boundaries and HTML-only website forms.
A crash here would lose a customer, so every step degrades instead: undecodable bytes are replaced
and the fact is written to ``notes``; only bytes that hold no email at all raise
:class:`~core.errors.MessageParseError` (the pipeline records it as ``failed:<reason>``).

Decisions worth knowing:
- Headers are decoded by our own RFC 2047 decoder from the raw header text, so a ``gb2312``
  encoded-word is decoded as GB18030 (its superset; Chinese mail clients routinely put GBK-only
  characters under a gb2312 label) and a broken encoded-word costs one word, not the header.
- The body prefers ``text/plain``; HTML is converted with inscriptis, which lays tables out so
  website-form rows stay readable ("Name   Jane") instead of running cells together.
- ``message/rfc822`` parts are attachments: a forwarded or bounced message's headers and body never
  leak into the sender's own text.
"""

from __future__ import annotations

import contextlib
import email
import email.utils
import functools
import io
import os
import re
from dataclasses import dataclass, field
from datetime import datetime
from email import policy
from email.message import EmailMessage, Message
from pathlib import Path
from typing import BinaryIO

from core.errors import MessageParseError
from core.mail.charsets import add_note, decode_bytes
from core.mail.headers import (
    MESSAGE_ID,
    decode_header_value,
    first_message_id,
    parse_addresses,
    parse_date,
)
from core.mail.limits import cap_html, cap_text
from core.mail.mime_parts import content_type as _content_type
from core.mail.mime_parts import disposition as _disposition
from core.mail.mime_parts import filename as _filename
from core.mail.mime_parts import header_param as _header_param
from core.mail.mime_parts import html_to_text as _html_to_text
from core.mail.mime_parts import payload_bytes as _payload_bytes
from core.mail.mime_parts import serialize as _serialize
from core.mail.mime_parts import squeeze_blank_lines as _squeeze_blank_lines
from core.mail.oversize import OMITTED, OVERSIZE_BYTES, Trimmed, trim_stream

# Attachments kept per mail. A mail of 10,000 one-byte parts once took 17.6 s and 808 MB to
# open and one of 100,000 wrote 100,000 files; no customer sends more than a few dozen. The
# rest are counted into one note the owner sees ("还有 N 个附件未保存").
MAX_ATTACHMENTS = 200

__all__ = [
    "MAX_ATTACHMENTS",
    "ParseBudget",
    "ParsedAttachment",
    "ParsedMessage",
    "parse_file",
    "parse_message",
]


@dataclass(frozen=True)
class ParseBudget:
    """A big mail's budget (picklable, for the parser process): ``spool_dir`` gets its decoded
    attachments up to ``keep_max`` bytes each (None: sizes only); over ``max_bytes`` it is not
    read at all and ends ``failed:too_large``, its raw bytes kept on disk."""

    spool_dir: str | None = None
    keep_max: int = 0
    max_bytes: int = 0


@dataclass
class ParsedAttachment:
    """One non-body MIME part. ``is_inline`` marks images embedded in the HTML (logos, pasted
    screenshots) so the UI can tell them from files the customer attached on purpose."""

    filename: str | None
    content_type: str
    size: int
    payload: bytes = field(repr=False)
    is_inline: bool = False
    spooled: str | None = None  # a streamed mail's part: its decoded bytes are in this file


@dataclass
class ParsedMessage:
    """Everything later stages need from one email, already decoded to ``str``."""

    message_id: str | None
    in_reply_to: str | None
    references: list[str]
    from_addr: str | None
    from_name: str | None
    reply_to: str | None
    to: list[str]
    cc: list[str]
    subject: str
    date: datetime | None
    text: str
    html: str | None
    attachments: list[ParsedAttachment]
    notes: list[str]
    headers: dict[str, str]
    content_types: list[str]
    report_type: str | None
    language: str


# --------------------------------------------------------------------------- body


@dataclass
class _Body:
    plain: list[str] = field(default_factory=list)
    html: list[str] = field(default_factory=list)


_BOUNDARY_LINE = re.compile(rb"^--([^\s-][^\s]{4,}?)(?:--)?\s*$", re.MULTILINE)


class _Walker:
    """Walks the MIME tree once, sorting parts into body text and attachments."""

    def __init__(self, notes: list[str], omitted: Trimmed | None = None) -> None:
        self.notes = notes
        self.omitted = omitted
        self.attachments: list[ParsedAttachment] = []
        self.content_types: list[str] = []
        self.report_type: str | None = None
        self.not_kept = 0  # attachments past MAX_ATTACHMENTS: counted, never decoded

    def _full(self) -> bool:
        """Whether the cap is reached; then the part is only counted."""
        if len(self.attachments) < MAX_ATTACHMENTS:
            return False
        self.not_kept += 1
        return True

    def _attach(self, filename: str | None, ctype: str, payload: bytes, *, inline: bool) -> None:
        self.attachments.append(
            ParsedAttachment(
                filename=filename,
                content_type=ctype,
                size=len(payload),
                payload=payload,
                is_inline=inline,
            )
        )

    def walk(self, part: Message, depth: int = 0) -> _Body:
        body = _Body()
        if depth > 30:
            add_note(self.notes, "MIME nesting too deep")
            return body
        ctype = _content_type(part)
        self.content_types.append(ctype)
        maintype = ctype.split("/", 1)[0]
        disposition = _disposition(part)

        markers = part.get_all(OMITTED.decode(), []) if self.omitted is not None else []
        if any(self._omitted(part, ctype, disposition, str(m)) for m in markers):
            return body

        if ctype == "multipart/report" and self.report_type is None:
            rt = _header_param(part, "content-type", "report-type")
            self.report_type = rt.lower() if rt else None

        if maintype == "multipart" and part.is_multipart():
            children = [c for c in part.get_payload() if isinstance(c, Message)]
            if ctype == "multipart/alternative":
                return self._alternative(children, depth)
            for child in children:
                sub = self.walk(child, depth + 1)
                body.plain.extend(sub.plain)
                body.html.extend(sub.html)
            return body

        if maintype == "message" and (part.is_multipart() or ctype == "message/rfc822"):
            self._message_attachment(part, ctype, disposition, depth)
            return body

        if maintype == "multipart":
            # Declared multipart but the parser found no parts (missing/wrong boundary).
            add_note(self.notes, "multipart without usable boundary; body read as plain text")
            data = _payload_bytes(part, self.notes)
            body.plain.append(
                decode_bytes(data, _header_param(part, "content-type", "charset"), self.notes)
            )
            return body

        filename = _filename(part, self.notes)
        is_body_text = ctype in ("text/plain", "text/html") and disposition != "attachment"
        if is_body_text and ctype == "text/plain" and filename and disposition is not None:
            is_body_text = False  # a named .txt file the sender attached
        if is_body_text:
            data = _payload_bytes(part, self.notes)
            charset = _header_param(part, "content-type", "charset")
            if ctype == "text/html" and not charset:
                meta = re.search(rb"<meta[^>]+charset=[\"']?([\w.:-]+)", data[:4096], re.I)
                charset = meta.group(1).decode("ascii") if meta else None
            text = decode_bytes(data, charset, self.notes)
            (body.plain if ctype == "text/plain" else body.html).append(text)
            return body

        if self._full():
            return body
        payload = _payload_bytes(part, self.notes)
        has_cid = bool(part.get("content-id", None)) if not disposition else False
        self._attach(filename, ctype, payload, inline=disposition == "inline" or has_cid)
        return body

    def _omitted(self, part: Message, ctype: str, disposition: str | None, marker: str) -> bool:
        """A part a streamed read left out (``core.mail.oversize``): an attachment whose bytes
        are in a spool file, or only its size when it was over the keep cap."""
        token, _, index = marker.strip().partition(" ")
        omitted = self.omitted
        if omitted is None or token != omitted.token or not index.isdigit():
            return False
        if int(index) >= len(omitted.parts):
            return False
        kept = omitted.parts[int(index)]
        if self._full():
            if kept.spooled:  # decoded to the spool already: not kept, so not left there
                with contextlib.suppress(OSError):
                    os.unlink(kept.spooled)
            return True
        has_cid = bool(part.get("content-id", None)) if not disposition else False
        self.attachments.append(
            ParsedAttachment(
                filename=_filename(part, self.notes),
                content_type=ctype,
                size=kept.size,
                payload=b"",
                is_inline=disposition == "inline" or has_cid,
                spooled=kept.spooled,
            )
        )
        return True

    def _alternative(self, children: list[Message], depth: int) -> _Body:
        results = [self.walk(child, depth + 1) for child in children]
        for sub in results:
            if any(t.strip() for t in sub.plain):
                html = next((r.html for r in results if r.html), [])
                return _Body(plain=sub.plain, html=html)
        for sub in results:
            if sub.html:
                return _Body(plain=[], html=sub.html)
        return _Body()

    def _message_attachment(
        self, part: Message, ctype: str, disposition: str | None, depth: int
    ) -> None:
        inner = part.get_payload()
        inner_msgs = [m for m in inner if isinstance(m, Message)] if isinstance(inner, list) else []
        # delivery-status / disposition-notification hold header blocks, not messages.
        walk_inner = ctype in ("message/rfc822", "message/global")
        for sub in inner_msgs if walk_inner else []:
            # Record inner part types (so a bounce's original is visible) without keeping its text.
            saved, not_kept = len(self.attachments), self.not_kept
            self.walk(sub, depth + 1)
            del self.attachments[saved:]
            self.not_kept = not_kept
        if walk_inner and inner_msgs:
            payload = _serialize(inner_msgs[0])
            subject = decode_header_value(inner_msgs[0].get("subject", ""), self.notes)
        else:
            payload = b"\n".join(_serialize(m) for m in inner_msgs)
            subject = ""
        if self._full():
            return
        filename = _filename(part, self.notes)
        if not filename and ctype == "message/rfc822":
            filename = (subject or "message")[:80] + ".eml"
        self._attach(filename, ctype, payload, inline=disposition == "inline")


def _collect_defects(msg: Message, notes: list[str]) -> None:
    try:
        parts = list(msg.walk())
    except Exception:
        parts = [msg]
    for part in parts:
        for defect in getattr(part, "defects", []) or []:
            add_note(notes, f"defect {type(defect).__name__}")


def _salvage_boundary(raw: bytes, msg: EmailMessage, notes: list[str]) -> EmailMessage:
    """A multipart whose boundary parameter is missing or wrong: find the delimiter lines that
    are actually in the body and parse again with that boundary."""
    if not _content_type(msg).startswith("multipart/") or msg.is_multipart():
        return msg
    _head, sep, rest = raw.partition(b"\r\n\r\n")
    if not sep:
        _head, sep, rest = raw.partition(b"\n\n")
    if not sep:
        return msg
    for match in _BOUNDARY_LINE.finditer(rest):
        boundary = match.group(1)
        following = rest[match.end() : match.end() + 400].lower()
        if b"content-type" not in following and b"content-transfer-encoding" not in following:
            continue
        try:
            fixed = email.message_from_bytes(raw, policy=policy.default)
            fixed.set_param("boundary", boundary.decode("ascii", "replace"))
            reparsed = email.message_from_bytes(
                fixed.as_bytes(policy=policy.compat32), policy=policy.default
            )
        except Exception:
            return msg
        if isinstance(reparsed, EmailMessage) and reparsed.is_multipart():
            add_note(notes, "multipart boundary recovered from the body")
            return reparsed
        return msg
    return msg


# --------------------------------------------------------------------------- language

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def guess_language(text: str) -> str:
    """'zh' when Chinese characters carry the text, else 'en' (Chinese needs ~2 chars per word)."""
    cjk = len(_CJK.findall(text))
    words = len(_LATIN_WORD.findall(text))
    return "zh" if cjk >= 2 and cjk >= words * 0.5 else "en"


# --------------------------------------------------------------------------- entry point

_KNOWN_HEADERS = {
    "from",
    "to",
    "subject",
    "date",
    "message-id",
    "content-type",
    "mime-version",
    "received",
    "return-path",
    "cc",
    "reply-to",
    "sender",
}


def _raw_headers(raw: bytes, msg: Message, notes: list[str]) -> dict[str, list[str]]:
    """Header values by lower-case name, undecoded; raises for binary data without headers."""
    raw_headers: dict[str, list[str]] = {}
    try:
        items = list(msg.raw_items())
    except Exception:
        items = []
        add_note(notes, "unreadable header block")
    for name, value in items:
        raw_headers.setdefault(str(name).strip().lower(), []).append(str(value))
    if not (_KNOWN_HEADERS & raw_headers.keys()):
        sample = raw[:4096]
        printable = sum(1 for b in sample if 32 <= b < 127 or b in (9, 10, 13) or b >= 0xC0)
        if printable < len(sample) * 0.85:
            raise MessageParseError("no email headers (binary data)", reason="not_email")
        add_note(notes, "no email headers")
    return raw_headers


def _body_text(
    raw: bytes, msg: Message, walker: _Walker, notes: list[str]
) -> tuple[str, str | None]:
    """The decoded text (plain, else the HTML as text) and the HTML, from the MIME walk."""
    try:
        body = walker.walk(msg)
    except Exception as exc:  # defensive: one odd part must not lose the whole message
        add_note(notes, f"body not fully parsed: {type(exc).__name__}")
        body = _Body()
        body.plain.append(decode_bytes(raw.partition(b"\n\n")[2], None, notes))

    _collect_defects(msg, notes)  # after the walk: decoding payloads adds defects too
    html = "\n".join(body.html) if body.html else None
    plain = "\n\n".join(t.strip("\n") for t in body.plain if t.strip())
    if plain.strip():
        text = plain
    elif html:
        text = _html_to_text(cap_html(html, notes))
    else:
        text = ""
    text = cap_text(text, notes)
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    return _squeeze_blank_lines(text).strip("\n"), html


def parse_message(raw: bytes, budget: ParseBudget | None = None) -> ParsedMessage:
    """Parse one message. Never raises for damaged mail; raises ``MessageParseError`` only for
    bytes that contain no email at all (empty, or binary data without a single header)."""
    if not isinstance(raw, bytes | bytearray | memoryview):
        raise MessageParseError("not bytes", reason="not_bytes")
    raw = bytes(raw)
    if not raw or raw.isspace():  # not raw.strip(): that copies a 300 MB message
        raise MessageParseError("empty message", reason="empty")
    if len(raw) <= OVERSIZE_BYTES:
        return _parse(raw, [], None)
    return _parse_stream(io.BytesIO(raw), len(raw), budget or ParseBudget())


def parse_file(path: Path, budget: ParseBudget | None = None) -> ParsedMessage:
    """``parse_message`` of a file, streamed when it is big: the whole mail is never in memory."""
    budget = budget or ParseBudget()
    size = path.stat().st_size
    if size <= OVERSIZE_BYTES:
        return parse_message(path.read_bytes(), budget)
    with path.open("rb") as stream:
        return _parse_stream(stream, size, budget)


def _parse_stream(stream: BinaryIO, size: int, budget: ParseBudget) -> ParsedMessage:
    """A big mail: headers and text through the parser, the other parts to disk (oversize)."""
    if budget.max_bytes and size > budget.max_bytes:
        raise MessageParseError(
            f"message of {size / 1_000_000:.0f} MB is over the "
            f"{budget.max_bytes / 1_000_000:.0f} MB limit",
            reason="too_large",
        )
    notes: list[str] = []
    spool = Path(budget.spool_dir) if budget.spool_dir else None
    trimmed = trim_stream(stream, notes, spool_dir=spool, keep_max=budget.keep_max, total=size)
    try:
        return _parse(trimmed.raw, notes, trimmed)
    except BaseException:
        trimmed.discard()
        raise


def _parse(raw: bytes, notes: list[str], omitted: Trimmed | None) -> ParsedMessage:
    try:
        msg = email.message_from_bytes(raw, policy=policy.default)
    except Exception as exc:  # the stdlib parser is lenient; this is a last resort
        raise MessageParseError(f"unparseable: {type(exc).__name__}", reason="unparseable") from exc
    msg = _salvage_boundary(raw, msg, notes)

    raw_headers = _raw_headers(raw, msg, notes)
    headers: dict[str, str] = {}
    for name, values in raw_headers.items():
        headers[name] = decode_header_value(values[0], notes)

    def first(name: str) -> str:
        return headers.get(name, "")

    walker = _Walker(notes, omitted)
    text, html = _body_text(raw, msg, walker, notes)
    if walker.not_kept:
        add_note(
            notes,
            f"还有 {walker.not_kept} 个附件未保存 / {walker.not_kept} more attachments not kept "
            f"(over {MAX_ATTACHMENTS} per mail)",
        )

    from_pairs = parse_addresses(raw_headers.get("from", []), notes) or parse_addresses(
        raw_headers.get("sender", []), notes
    )
    reply_to_pairs = parse_addresses(raw_headers.get("reply-to", []), notes)
    to = [a for _, a in parse_addresses(raw_headers.get("to", []), notes)]
    cc = [a for _, a in parse_addresses(raw_headers.get("cc", []), notes)]

    message_id = first_message_id(first("message-id")) if first("message-id") else None
    in_reply_to = first_message_id(first("in-reply-to")) if first("in-reply-to") else None
    references = MESSAGE_ID.findall(" ".join(raw_headers.get("references", [])))
    subject = re.sub(r"\s+", " ", first("subject")).strip()

    try:
        new_text = stripped_text(text)
    except Exception:
        new_text = text
    language = guess_language(f"{subject}\n{new_text or text}")

    return ParsedMessage(
        message_id=message_id,
        in_reply_to=in_reply_to,
        references=references,
        from_addr=from_pairs[0][1] if from_pairs else None,
        from_name=(from_pairs[0][0] or None) if from_pairs else None,
        reply_to=reply_to_pairs[0][1] if reply_to_pairs else None,
        to=to,
        cc=cc,
        subject=subject,
        date=parse_date(first("date"), notes),
        text=text,
        html=html,
        attachments=walker.attachments,
        notes=notes,
        headers=headers,
        content_types=walker.content_types,
        report_type=walker.report_type,
        language=language,
    )


# --------------------------------------------------------------------------- speed helpers


@functools.lru_cache(maxsize=16)
def stripped_text(text: str) -> str:
    """``core.mail.quotes.strip_quotes``, remembered for the last few texts.

    Why: ``parse_message`` strips quotes to guess the language, and the intake pipeline then needs
    the same stripped text for the message row and the model: one computation instead of two
    (quote stripping is ~2 ms a message). Exceptions are not cached; callers handle them as they
    would from ``strip_quotes``.
    """
    from core.mail.quotes import strip_quotes  # late import: quotes is optional for parsing

    return strip_quotes(text)


ParseOutcome = tuple[ParsedMessage | None, str | None, str, str]


def parse_for_intake(raw: bytes | str, budget: ParseBudget | None = None) -> ParseOutcome:
    """``(parsed, failure_reason, failure_detail, stripped_text)``; unusable bytes are a
    failure reason, not a ``MessageParseError``. ``raw`` is the bytes or the path of a file
    holding them (a big mail, streamed from disk).

    The intake pipeline runs this in a worker process (so it returns plain picklable values
    instead of raising) to keep parsing and quote stripping off the event loop's thread.
    """
    try:
        if isinstance(raw, str):
            parsed = parse_file(Path(raw), budget)
        else:
            parsed = parse_message(raw, budget)
        return parsed, None, "", stripped_text(parsed.text or "")
    except MessageParseError as exc:
        return None, str(exc.params.get("reason") or "unparseable"), exc.detail, ""
    except Exception as exc:  # any bug on hostile mail costs this message only (raw kept)
        return None, "parse_error", f"{type(exc).__name__}: {exc}"[:500], ""
