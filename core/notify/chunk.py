"""Splitting long messages for Telegram (a message holds fewer than 4,096 characters).

Splits happen on the Markdown *before* rendering, at the largest natural boundary that fits:
paragraphs (blank lines) first, then lines, then spaces, and only as a last resort inside a word.
A fenced code block cut in two is closed at the end of one piece and reopened at the start of the
next, so every piece renders to balanced HTML on its own. Because escaping makes HTML longer than
its Markdown (``&`` -> ``&amp;``), ``render_chunks`` re-splits any piece whose *rendered* form is
still too long, so both the HTML and the plain fallback of every piece fit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core.text.render import render_html, render_plain

TELEGRAM_LIMIT = 4096
_FENCE = re.compile(r"^\s*(```|~~~)")


@dataclass(frozen=True)
class Chunk:
    markdown: str
    html: str
    plain: str


def _split_long_line(line: str, limit: int) -> list[str]:
    pieces = []
    while len(line) > limit:
        cut = line.rfind(" ", 0, limit)
        if cut <= limit // 2:  # no space near the end (Chinese has none): cut at the limit
            cut = limit
        pieces.append(line[:cut].rstrip())
        line = line[cut:].lstrip()
    pieces.append(line)
    return pieces


def _units(md: str, limit: int) -> list[tuple[str, str]]:
    """Paragraphs (with the separator that preceded them); oversized ones broken into lines."""
    units: list[tuple[str, str]] = []
    for idx, para in enumerate(re.split(r"\n[ \t]*\n", md.strip("\n"))):
        sep = "\n\n" if idx else ""
        if len(para) < limit:
            units.append((sep, para))
            continue
        for jdx, line in enumerate(para.split("\n")):
            for kdx, piece in enumerate(_split_long_line(line, limit - 1)):
                units.append((sep if jdx == 0 and kdx == 0 else ("\n" if kdx == 0 else " "), piece))
    return units


def split_markdown(md: str, limit: int = TELEGRAM_LIMIT) -> list[str]:
    """Pieces of ``md``, each shorter than ``limit``, split at the largest boundary that fits."""
    limit = max(limit, 64)
    if len(md) < limit:
        return [md] if md.strip() else []
    budget = limit - 8  # room for a closing/reopening code fence
    pieces: list[str] = []
    current = ""
    open_fence: str | None = None  # fence marker open at the end of ``current``
    for sep, unit in _units(md, budget):
        candidate = current + sep + unit if current else unit
        if current and len(candidate) >= budget:
            if open_fence:
                current += "\n" + open_fence
            pieces.append(current)
            current = (open_fence + "\n" + unit) if open_fence else unit
        else:
            current = candidate
        for line in unit.split("\n"):
            if m := _FENCE.match(line):
                open_fence = None if open_fence else m.group(1)
    if current.strip():
        pieces.append(current)
    return pieces


def render_chunks(
    md: str, limit: int = TELEGRAM_LIMIT, *, _budget: int | None = None
) -> list[Chunk]:
    """Rendered pieces whose HTML and plain forms are both shorter than ``limit``."""
    out: list[Chunk] = []
    for piece in split_markdown(md, _budget or limit):
        html, plain = render_html(piece), render_plain(piece)
        if len(html) < limit and len(plain) < limit:
            out.append(Chunk(piece, html, plain))
            continue
        # escaping made it longer: split this piece again with a budget scaled by the growth,
        # still measuring the result against the real limit
        ratio = len(piece) / max(len(html), len(plain), 1)
        budget = min(int(limit * ratio * 0.95), len(piece) - 1)
        out.extend(render_chunks(piece, limit, _budget=max(64, budget)))
    return out
