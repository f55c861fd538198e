"""Reading one MIME part safely: its type, disposition, file name and decoded bytes.

Split from ``core.mail.parse`` (which walks the whole message) because each of these reads a
header or a payload that a broken mail can make raise: every helper here answers with a safe
value instead, so a damaged part costs that part, never the message.
"""

from __future__ import annotations

import email.utils
import re
from email.message import Message

from core.mail.charsets import add_note
from core.mail.headers import decode_header_value, raw_header_text


def header_param(part: Message, header: str, param: str) -> str | None:
    try:
        value = part.get_param(param, header=header)
    except Exception:
        return None
    if isinstance(value, tuple):  # RFC 2231 (charset, language, text)
        try:
            value = email.utils.collapse_rfc2231_value(value)
        except Exception:
            value = value[2]
    return str(value) if value is not None else None


def content_type(part: Message) -> str:
    try:
        return part.get_content_type()
    except Exception:
        return "application/octet-stream"


def disposition(part: Message) -> str | None:
    try:
        value = part.get_content_disposition()
    except Exception:
        return None
    return value.lower() if value else None


def filename(part: Message, notes: list[str]) -> str | None:
    name = None
    try:
        name = part.get_filename()
    except Exception:
        name = header_param(part, "content-disposition", "filename") or header_param(
            part, "content-type", "name"
        )
    if not name:
        return None
    name = str(name)
    if "=?" in name:
        name = decode_header_value(name, notes)
    name = raw_header_text(name, notes)
    name = name.replace("\ufffd", "_").strip().strip('"')
    return name or None


def payload_bytes(part: Message, notes: list[str]) -> bytes:
    """Decoded transfer-encoding of a leaf part; a damaged base64 body yields what it can."""
    try:
        data = part.get_payload(decode=True)
    except Exception:
        data = None
    if isinstance(data, bytes):
        return data
    raw = part.get_payload()
    if isinstance(raw, str):
        add_note(notes, "undecodable transfer encoding")
        return raw.encode("utf-8", errors="surrogateescape")
    return b""


def serialize(part: Message) -> bytes:
    try:
        return part.as_bytes()
    except Exception:
        try:
            return part.as_string().encode("utf-8", errors="replace")
        except Exception:
            return b""


def html_to_text(html: str) -> str:
    """Readable text from HTML: inscriptis lays out tables cell by cell (not run together)."""
    from inscriptis import get_text
    from inscriptis.css_profiles import CSS_PROFILES
    from inscriptis.model.config import ParserConfig

    try:
        text = get_text(html, ParserConfig(css=CSS_PROFILES["strict"], display_links=False))
    except Exception:
        text = re.sub(r"<[^>]+>", " ", html)
    lines = [line.rstrip() for line in text.splitlines()]
    return squeeze_blank_lines("\n".join(lines)).strip()


def squeeze_blank_lines(text: str) -> str:
    return re.sub(r"\n{3,}", "\n\n", text)
