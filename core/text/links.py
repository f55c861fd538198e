"""Links as whole values: with a scheme, ``www.`` or a bare host, and spelled to hide.

Why apart from ``core.text.facts``: a link is where a fraudster sends a customer's money, and
the ways to write one so that a reader or a pattern misses it (``pay [dot] evil [dot] example``,
``hxxps://``, ``[at]``, full-width letters, zero-width characters) need their own rules: where a
link is (``link_spans``), the one key of a link however it is written (``url_key``), and the
text with defanged spellings restored, its map back to the original kept (``defang``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from core.text.reading import Reading

__all__ = [
    "HIDDEN_DIGITS",
    "HOST_KINDS",
    "MAYBE_HIDDEN",
    "URL",
    "URL_TRAIL",
    "defang",
    "link_spans",
    "url_key",
]

URL = re.compile(  # a link ends at a space, a bracket, a quote or Chinese text
    r"\b(?:https?://|www\.)[^\s<>\"'\])\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+", re.I
)
URL_TRAIL = ".,;:!?。，；：！？"
# a link without a scheme: host labels, a final label of letters, an optional port and path
_BARE_HOST = re.compile(
    r"(?<![\w@./:-])((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,24})"
    r"(?::\d{2,5})?(?:/[^\s<>\"'\])\u3000-\u303f\u3400-\u9fff\uff00-\uffef]*)?(?![\w@-])"
)
# what a bare "word.word" is more often than a host: a file, an abbreviation, a title
_NOT_HOSTS = frozenset(
    {"pdf", "jpg", "jpeg", "png", "gif", "heic", "doc", "docx", "xls", "xlsx", "csv", "txt",
     "dwg", "dxf", "zip", "rar", "mp3", "mp4", "mov", "wav", "ogg", "eml", "msg", "ppt", "pptx"}
)  # fmt: skip
_ABBREVIATIONS = frozenset({"e.g", "i.e", "a.m", "p.m", "etc", "n.b", "p.s", "ph.d", "q.v"})
# cheap test: might the text hide a value (anything not plain ASCII, or a defanged spelling)?
MAYBE_HIDDEN = re.compile(r"[^\x00-\x7f]|\bdot\b|[\[({<]\s*(?:dot|at|\.)|hxxp|\s\.\s", re.I)
# what hides a phone's digits from phonenumbers: full-width digits, invisible characters
HIDDEN_DIGITS = re.compile(r"[\uff10-\uff19\u00ad\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
_DEFANG_DOT = re.compile(
    r"\s*(?:\[\s*(?:dot|\.)\s*\]|\(\s*(?:dot|\.)\s*\)|\{\s*(?:dot|\.)\s*\}|<\s*dot\s*>)\s*"
    r"|(?<=[A-Za-z0-9])(?:\s+dot\s+|\s+\.\s+|。)(?=[A-Za-z0-9])",
    re.I,
)
_DEFANG_AT = re.compile(r"\s*(?:\[\s*at\s*\]|\(\s*at\s*\)|\{\s*at\s*\})\s*", re.I)
_DEFANG_SCHEME = re.compile(r"\bhxxp(s?)\s*(?:\[\s*:\s*\]|:)\s*//", re.I)
HOST_KINDS = frozenset({"link", "paylink"})


def _plausible_host(m: re.Match[str]) -> bool:
    """A bare ``word.word`` taken for a host: not a file name, an abbreviation or a title
    ("Mr.Smith"); a capitalised two-label word needs a path to count."""
    host = m.group(1)
    labels = host.split(".")
    if labels[-1].lower() in _NOT_HOSTS or host.lower() in _ABBREVIATIONS:
        return False
    if len(labels) == 2 and host != host.lower() and "/" not in m.group(0):
        return False
    return not all(len(label) == 1 for label in labels)


def defang(reading: Reading) -> Reading:
    """``reading`` with defanged link spellings restored (``[dot]`` → ``.``, ``[at]`` → ``@``,
    ``hxxps://`` → ``https://``), its map back to the original kept."""
    text, origin = reading.text, list(reading.origin)
    steps: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
        (_DEFANG_SCHEME, lambda m: f"http{m.group(1)}://"),
        (_DEFANG_DOT, lambda _m: "."),
        (_DEFANG_AT, lambda _m: "@"),
    )
    for pattern, replace in steps:
        chars: list[str] = []
        mapped: list[int] = []
        last = 0
        for m in pattern.finditer(text):
            chars.append(text[last : m.start()])
            mapped.extend(origin[last : m.start()])
            piece = replace(m)
            chars.append(piece)
            mapped.extend([origin[m.start()]] * len(piece))
            last = m.end()
        chars.append(text[last:])
        mapped.extend(origin[last:])  # includes the closing entry
        text, origin = "".join(chars), mapped
    return Reading(text, tuple(origin))


def url_key(url: str) -> str | None:
    """One key per link however it is written: scheme, "www.", case of the host and a
    trailing slash or full stop do not matter; path and query do."""
    text = url.strip().rstrip(URL_TRAIL)
    text = re.sub(r"^(?:https?://)?(?:www\.)?", "", text, flags=re.I)
    host, _, rest = text.partition("/")
    if not host:
        return None
    rest = rest.rstrip("/")
    return f"url:{host.lower()}" + (f"/{rest}" if rest else "")


def link_spans(text: str) -> list[tuple[int, int]]:
    """Where the links of ``text`` are: with a scheme or ``www.``, or a bare host (and path)."""
    spans: list[tuple[int, int]] = []
    for m in URL.finditer(text):
        spans.append((m.start(), m.start() + len(m.group(0).rstrip(URL_TRAIL))))
    for m in _BARE_HOST.finditer(text):
        if any(s <= m.start() < e for s, e in spans) or not _plausible_host(m):
            continue
        spans.append((m.start(), m.start() + len(m.group(0).rstrip(URL_TRAIL))))
    return sorted(spans)
