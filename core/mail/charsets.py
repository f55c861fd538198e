"""Charset decoding for mail that lies about its charset; never raises.

Chinese mail clients label GBK or GB18030 text "gb2312", Windows-1252 arrives as "us-ascii",
and some labels are made up. Each label is read as its honest superset codec, unknown labels
fall back to a guess (UTF-8, then a Chinese double-byte reading when the bytes look like one),
and whatever still cannot be decoded is replaced -- with a note, so the owner can be told.
"""

from __future__ import annotations

import codecs
import contextlib
import re

# Labels whose honest reading is a superset codec. Mail clients write "gb2312" while sending GBK or
# GB18030 characters, "big5" while sending HKSCS, "ks_c_5601" for cp949, and "iso-8859-1" or
# "us-ascii" for Windows-1252 (smart quotes in 0x80-0x9F).
_SUPERSETS: dict[str, str] = {
    "gb2312": "gb18030",
    "gb_2312-80": "gb18030",
    "gb_2312": "gb18030",
    "euc-cn": "gb18030",
    "euccn": "gb18030",
    "x-euc-cn": "gb18030",
    "csgb2312": "gb18030",
    "gbk": "gb18030",
    "x-gbk": "gb18030",
    "cp936": "gb18030",
    "ms936": "gb18030",
    "windows-936": "gb18030",
    "chinese": "gb18030",
    "big5": "big5hkscs",
    "big-5": "big5hkscs",
    "x-big5": "big5hkscs",
    "cn-big5": "big5hkscs",
    "csbig5": "big5hkscs",
    "ks_c_5601-1987": "cp949",
    "ks_c_5601": "cp949",
    "euc-kr": "cp949",
    "iso-8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "ansi_x3.4-1968": "cp1252",
    "utf8": "utf-8",
    "unicode-1-1-utf-7": "utf-7",
}


_SURROGATE = re.compile("[\ud800-\udfff]")
_CHARSET_NAME = re.compile(r"[a-z0-9][a-z0-9._:+-]{0,39}")


def _codec_for(label: str | None) -> str | None:
    """Python codec name for a MIME charset label, or None when the label is unknown."""
    if not label:
        return None
    name = label.strip().strip("\"'").lower()
    name = name.split("*", 1)[0]  # RFC 2231 language suffix: utf-8*en
    name = _SUPERSETS.get(name, name)
    if not _CHARSET_NAME.fullmatch(name):
        return None  # garbage (NULs, raw 8-bit) in a label is never a codec
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError):
        return None
    # Only text encodings: "base64"/"rot13"/"zlib" are codecs too, but not charsets.
    return info.name if getattr(info, "_is_text_encoding", True) else None


def decode_bytes(data: bytes, charset: str | None, notes: list[str] | None = None) -> str:
    """Decode ``data`` that claims ``charset``; never raises.

    Order: the declared charset (widened to its superset); UTF-8 (the commonest mislabel, and
    tried *before* a Latin label because valid multi-byte UTF-8 is almost never real Latin-1);
    GB18030 when the bytes read as Chinese; then Windows-1252/Latin-1 for Latin or unknown labels,
    else the declared codec with replacement characters. Anything short of a clean decode of the
    declared charset is written to ``notes``.
    """
    notes = notes if notes is not None else []
    label = (charset or "").strip().strip("\"'").lower() or None
    codec = _codec_for(label)
    if label and codec is None:
        add_note(notes, f"unknown charset {label}")
    if not data:
        return ""
    if data.isascii() and codec in (None, "cp1252", "ascii", "utf-8", "gb18030", "big5hkscs"):
        return data.decode("ascii")
    latin = codec in (None, "cp1252", "ascii", "latin-1", "iso8859-1")
    if codec and not latin:
        try:
            text = data.decode(codec)
        except (UnicodeDecodeError, LookupError):
            pass
        else:
            if label and _SUPERSETS.get(label) in ("gb18030", "big5hkscs", "cp949"):
                add_note(notes, f"charset {label} decoded as {codec}")
            return text
    if codec != "utf-8":
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            if label:
                add_note(notes, f"charset {label} decoded as utf-8")
            return text
    if codec not in ("gb18030", "big5hkscs") and _looks_double_byte(data):
        chinese = _as_chinese(data)
        if chinese is not None:
            add_note(notes, f"charset {label or 'undeclared'} decoded as gb18030")
            return chinese
    if latin:
        if codec is None:
            add_note(notes, "decoded as latin-1")
        try:
            return data.decode("cp1252")
        except UnicodeDecodeError:
            return data.decode("latin-1")  # total: every byte is a character
    add_note(notes, "replaced undecodable bytes")
    return data.decode(codec or "utf-8", errors="replace")


def _looks_double_byte(data: bytes) -> bool:
    high = sum(1 for b in data if b >= 0x81)
    return high >= 4 and high >= len(data) * 0.2


def _as_chinese(data: bytes) -> str | None:
    """GB18030 reading of ``data`` if it decodes cleanly *and* reads as Chinese text."""
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        return None
    wide = [ch for ch in text if ord(ch) > 0x7F]
    cjk = sum(1 for ch in wide if "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef")
    return text if wide and cjk >= len(wide) * 0.8 else None


def add_note(notes: list[str], text: str) -> None:
    if text not in notes:
        notes.append(text)


def scrub(text: str) -> str:
    """``text`` as valid Unicode: lone surrogates (undecodable bytes smuggled through
    ``surrogateescape``) become U+FFFD, so whatever is written out is valid UTF-8."""
    if text.isascii():
        return text
    return _SURROGATE.sub("\ufffd", text)


def utf8_stdio() -> None:
    """Standard output and error as UTF-8 whatever the locale (a Windows console's code page or
    a C locale's ASCII); anything unencodable becomes a replacement, never a raw byte."""
    import sys

    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            # ValueError/OSError: already written to, or not a text stream
            with contextlib.suppress(ValueError, OSError):
                reconfigure(encoding="utf-8", errors="replace")
