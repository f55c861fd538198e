"""Customer and model text, made inert before any front end shows it.

Why: a mail whose first line is HTML must not become a green "✅ 已批准并已发送" banner, load a
``file:`` or ``//host/share`` image (on Windows a UNC fetch hands the owner's NTLM hash to the
sender), hide the sender's address or turn into ``search-ms:`` / ``ms-settings:`` links; nor may
the model's answer. So text a person outside or the model wrote is shown either as plain text or
as Markdown rendered *by this code*: every character escaped first, then only the tags this
code writes (``core.text.render``, the same renderer Telegram uses), never an ``<img>``, and
links only to ``http(s)`` targets. Rendering is a handful of linear passes over the text, so a
mail of 18 nested tables costs what any 700 bytes cost.

``visible_controls`` shows what a name hides: bidi overrides (``invoice\u202efdp.exe`` that
reads "invoiceexe.pdf"), zero-width and control characters become visible ``⟨U+202E⟩`` marks,
and a run of padding spaces is shown as its length (``⟨␣×6⟩``).
"""

from __future__ import annotations

import html
import re
import unicodedata
from urllib.parse import urlsplit

from core.text.render import render_html

__all__ = [
    "LINK_SCHEMES",
    "clickable_url",
    "markdown_rich_text",
    "plain_html",
    "plain_tooltip",
    "visible_controls",
]

LINK_SCHEMES = frozenset({"http", "https"})
_ANCHOR = re.compile(r'<a href="([^"]*)">(.*?)</a>', re.S)
_PRE = re.compile(r"(<pre>.*?</pre>|<pre><code[^>]*>.*?</code></pre>)", re.S)
_IMAGE = re.compile(r"!\[")
_PADDING = re.compile(r"[ \t\u00a0\u2000-\u200a\u3000]{3,}")


def clickable_url(url: str) -> str | None:
    """``url`` when a click may open it (http or https with a host, no credentials), else None.
    ``file:``, UNC (``//host/share``), ``search-ms:``, ``ms-settings:``, ``javascript:`` and
    every other scheme are never clickable."""
    url = (url or "").strip()
    if not url or any(ord(ch) < 0x21 or unicodedata.category(ch) == "Cf" for ch in url):
        return None
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in LINK_SCHEMES or not parts.hostname or "@" in parts.netloc:
        return None
    return url


def _unlink(match: re.Match[str]) -> str:
    target, label = html.unescape(match.group(1)), match.group(2)
    if clickable_url(target):
        return match.group(0)
    return f"{label} ({html.escape(target, quote=False)})"  # shown, not clickable


def markdown_rich_text(markdown: str) -> str:
    """Qt rich text for model- or system-written Markdown: escaped first, then bold, italics,
    code, quotes, lists and http(s) links; line breaks kept."""
    # an image (``![x](url)``) is never fetched nor made a link: it stays the text it is
    markdown = _IMAGE.sub(r"!\\[", markdown or "")
    rendered = _ANCHOR.sub(_unlink, render_html(markdown))
    pieces = _PRE.split(rendered)
    out = []
    for index, piece in enumerate(pieces):
        if index % 2:  # a code block keeps its own line breaks
            out.append(piece)
            continue
        piece = re.sub(r"\n{2,}", "</p><p>", piece)
        out.append(piece.replace("\n", "<br>"))
    return "<p>" + "".join(out) + "</p>"


def plain_html(text: str) -> str:
    """Literal text as rich text (for the few Qt surfaces that guess the format, such as
    tooltips): escaped, line breaks kept, nothing interpreted."""
    escaped = html.escape(text or "", quote=False).replace("\n", "<br>")
    return f"<p style='white-space:pre-wrap'>{escaped}</p>"


def plain_tooltip(text: str) -> str:
    """A tooltip that shows ``text`` literally: Qt renders a tooltip as rich text when it looks
    like markup, so text holding ``<`` or ``&`` is escaped; anything else is left as it is."""
    return plain_html(text) if "<" in text or "&" in text else text


def _mark(ch: str) -> str:
    return f"⟨U+{ord(ch):04X}⟩"


def visible_controls(text: str) -> str:
    """``text`` with every invisible, control or bidi character shown as ``⟨U+XXXX⟩`` and runs
    of padding spaces shown as ``⟨␣×N⟩``, so a name reads as what it is."""
    out = []
    for ch in text or "":
        category = unicodedata.category(ch)
        if category in {"Cf", "Cc", "Zl", "Zp"} or "\ufe00" <= ch <= "\ufe0f":
            out.append(_mark(ch))
        else:
            out.append(ch)
    return _PADDING.sub(lambda m: f"⟨␣×{len(m.group(0))}⟩", "".join(out))
