"""Markdown -> Telegram HTML (and a plain-text twin), in code, never in a prompt.

Messages are written as plain Markdown (by code or by the model). Telegram's HTML mode accepts
only a handful of tags and rejects the whole message on one stray ``<`` or ``&``, so the order
is fixed: **escape first, then convert** — every character of the source is HTML-escaped before
any markup is produced, and the only tags that can appear are the ones this module writes
(``b i s code pre a blockquote``; a quote opened with ``**>`` is ``<blockquote expandable>``,
folded on the phone until tapped). Tables have no Telegram form; they become one readable line
per row (``• first cell — header：value，header：value``), which reads well on a phone.

``render_plain`` is the fallback sent when Telegram still refuses the HTML ("can't parse
entities"): the same text with the markup removed.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

_FENCE = re.compile(r"^\s*(```|~~~)\s*([\w+-]*)\s*$")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^(\s*)(\d{1,3})[.)]\s+(.*)$")
_QUOTE = re.compile(r"^\s{0,3}>\s?(.*)$")
# Telegram's MarkdownV2 opens a folded ("expandable") quotation with ``**>``: so does ours
_FOLDED_QUOTE = re.compile(r"^\s{0,3}\*\*>\s?(.*)$")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")

_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\[([^\]\n]+)\]\(([^)\s]+)\)")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_ITALIC = re.compile(
    r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?![\w*])|(?<!\w)_(?=\S)([^_\n]+?)(?<=\S)_(?!\w)"
)
_STRIKE = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_SAFE_SCHEMES = ("http://", "https://", "tg://", "mailto:")
_PLACEHOLDER = "\x00{}\x00"
_MD_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|~>])")


@dataclass
class _Block:
    kind: str  # para | heading | bullet | quote | code | table | rule
    lines: list[str]
    lang: str = ""


def _split_cells(line: str) -> list[str]:
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return [cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line)]


def _blocks(md: str) -> list[_Block]:
    lines = md.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks: list[_Block] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            marker, lang, body = fence.group(1), fence.group(2), []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(marker):
                body.append(lines[i])
                i += 1
            i += 1  # the closing fence (or the end: an unclosed fence runs to the end)
            blocks.append(_Block("code", body, lang))
            continue
        if not line.strip():
            blocks.append(_Block("blank", []))
            i += 1
            continue
        if "|" in line and i + 1 < len(lines) and _TABLE_SEP.match(lines[i + 1]):
            rows = [line]
            i += 2
            while i < len(lines) and "|" in lines[i] and lines[i].strip():
                rows.append(lines[i])
                i += 1
            blocks.append(_Block("table", rows))
            continue
        if _RULE.match(line):
            blocks.append(_Block("rule", []))
        elif m := _HEADING.match(line):
            blocks.append(_Block("heading", [m.group(2)]))
        elif m := _FOLDED_QUOTE.match(line):
            blocks.append(_Block("quote", [m.group(1)], "expandable"))
        elif m := _QUOTE.match(line):
            if blocks and blocks[-1].kind == "quote":
                blocks[-1].lines.append(m.group(1))
            else:
                blocks.append(_Block("quote", [m.group(1)]))
        elif m := _BULLET.match(line):
            indent = "  " * (len(m.group(1).expandtabs(4)) // 2)
            blocks.append(_Block("bullet", [indent + "• ", m.group(2)]))
        elif m := _NUMBERED.match(line):
            indent = "  " * (len(m.group(1).expandtabs(4)) // 2)
            blocks.append(_Block("bullet", [f"{indent}{m.group(2)}. ", m.group(3)]))
        elif blocks and blocks[-1].kind == "para":
            blocks[-1].lines.append(line.strip())
        else:
            blocks.append(_Block("para", [line.strip()]))
        i += 1
    return blocks


def _inline_html(text: str) -> str:
    """Escape, then convert inline markup. Code spans and links are protected from the rest."""
    saved: list[str] = []

    def keep(fragment: str) -> str:
        saved.append(fragment)
        return _PLACEHOLDER.format(len(saved) - 1)

    text = text.replace("\x00", "")
    text = _MD_ESCAPE.sub(lambda m: keep(html.escape(m.group(1), quote=False)), text)
    text = _CODE_SPAN.sub(
        lambda m: keep(f"<code>{html.escape(m.group(1), quote=False)}</code>"), text
    )

    # each produced element becomes an atomic placeholder, so a later pattern can never
    # open inside one element and close inside another (``**a*b**c*`` stays balanced)
    def strike(t: str) -> str:
        return _STRIKE.sub(lambda m: keep(f"<s>{m.group(1)}</s>"), t)

    def italic(t: str) -> str:
        return _ITALIC.sub(lambda m: keep(f"<i>{strike(m.group(1) or m.group(2))}</i>"), t)

    def emphasis(escaped: str) -> str:
        escaped = _BOLD.sub(
            lambda m: keep(f"<b>{italic(strike(m.group(1) or m.group(2)))}</b>"), escaped
        )
        return strike(italic(escaped))

    def link(m: re.Match[str]) -> str:
        label, url = m.group(1), m.group(2)
        if not url.lower().startswith(_SAFE_SCHEMES):
            return m.group(0)
        # the whole link, label markup included, is one atom: ``[*](u)*`` cannot interleave
        inner = emphasis(html.escape(label, quote=False))
        return keep(f'<a href="{html.escape(url, quote=True)}">{inner}</a>')

    text = _LINK.sub(link, text)
    return _restore(emphasis(html.escape(text, quote=False)), saved)


def _inline_plain(text: str) -> str:
    saved: list[str] = []

    def keep(fragment: str) -> str:
        saved.append(fragment)
        return _PLACEHOLDER.format(len(saved) - 1)

    text = text.replace("\x00", "")
    text = _MD_ESCAPE.sub(lambda m: keep(m.group(1)), text)
    text = _CODE_SPAN.sub(lambda m: m.group(1), text)
    text = _LINK.sub(
        lambda m: m.group(1) if m.group(1) == m.group(2) else f"{m.group(1)} ({m.group(2)})", text
    )
    text = _BOLD.sub(lambda m: m.group(1) or m.group(2), text)
    text = _ITALIC.sub(lambda m: m.group(1) or m.group(2), text)
    text = _STRIKE.sub(lambda m: m.group(1), text)
    return _restore(text, saved)


def _restore(text: str, saved: list[str]) -> str:
    while "\x00" in text:  # placeholders may hold placeholders (bold around italic)
        text = re.sub("\x00(\\d+)\x00", lambda m: saved[int(m.group(1))], text)
    return text


def _table_lines(rows: list[str], inline, bold) -> list[str]:  # type: ignore[no-untyped-def]
    header = _split_cells(rows[0])
    out = []
    for row in rows[1:]:
        cells = _split_cells(row)
        if not any(cells):
            continue
        first = bold(inline(cells[0])) if cells[0] else "—"
        rest = []
        for idx, cell in enumerate(cells[1:], start=1):
            if not cell:
                continue
            name = header[idx] if idx < len(header) and header[idx] else ""
            rest.append(f"{inline(name)}：{inline(cell)}" if name else inline(cell))
        out.append("• " + first + (" — " + "，".join(rest) if rest else ""))
    if not out:  # header only
        out.append(" | ".join(inline(c) for c in header))
    return out


def _render(md: str, *, as_html: bool) -> str:
    inline = _inline_html if as_html else _inline_plain

    def bold(s: str) -> str:
        return f"<b>{s}</b>" if as_html else s

    parts: list[str] = []
    pending_blank = False
    prev_kind = ""
    for block in _blocks(md):
        if block.kind == "blank":
            pending_blank = True
            continue
        if block.kind == "code":
            body = "\n".join(block.lines)
            if as_html:
                body = html.escape(body, quote=False)
                if block.lang:
                    text = f'<pre><code class="language-{block.lang}">{body}</code></pre>'
                else:
                    text = f"<pre>{body}</pre>"
            else:
                text = body
        elif block.kind == "heading":
            text = bold(inline(block.lines[0]))
        elif block.kind == "bullet":
            text = block.lines[0] + inline(block.lines[1])
        elif block.kind == "quote":
            inner = "\n".join(inline(line) for line in block.lines)
            tag = "blockquote expandable" if block.lang == "expandable" else "blockquote"
            text = (
                f"<{tag}>{inner}</blockquote>"
                if as_html
                else "\n".join("> " + line for line in inner.split("\n"))
            )
        elif block.kind == "table":
            text = "\n".join(_table_lines(block.lines, inline, bold))
        elif block.kind == "rule":
            text = "——————"
        else:
            text = inline("\n".join(block.lines))  # keep the writer's line breaks
        if parts:
            tight = block.kind == "bullet" and prev_kind == "bullet" and not pending_blank
            parts.append("\n" if tight else "\n\n")
        parts.append(text)
        pending_blank = False
        prev_kind = block.kind
    return "".join(parts).strip("\n")


def render_html(md: str) -> str:
    """Telegram HTML for ``md``: escaped text plus the tags this module writes, always balanced."""
    return _render(md, as_html=True)


def render_plain(md: str) -> str:
    """The same message without markup (the fallback when Telegram rejects the HTML)."""
    return _render(md, as_html=False)


def escape(text: str) -> str:
    """Escape literal text for an HTML-mode message (customer text, names)."""
    return html.escape(text, quote=False)


def md_escape(text: str) -> str:
    """Escape literal text for inclusion in Markdown (customer text must not become markup)."""
    text = re.sub(r"([\\`*_\[\]|~])", r"\\\1", text)
    # a line that starts like a heading, quote, list item or rule must stay literal text
    return re.sub(r"(?m)^(\s*)([#>+\-]|\d{1,3}(?=[.)]\s))", r"\1\\\2", text)
