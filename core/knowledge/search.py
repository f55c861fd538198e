"""What a prompt gets of the knowledge file: all of it while small, the matching parts when large.

Why a character budget and not always everything: a drafting call pays for every character of
its prompt and a long price list crowds out the customer's thread; why not always a search: a
small file is cheaper to send whole than to risk leaving out the one line that mattered.

Searching is plain code (principle 1): the file is cut into units (a paragraph, or one item of
a list) under their section headings; the mail's terms — English words, Chinese character pairs,
numbers, and for a product named in either language its name in the other (``core.glossary``) —
score each unit, rarer terms counting more, a match in its heading counting half; the best units
go in, in the file's order, under their headings, until the excerpt budget is spent.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from core.glossary import glossary

__all__ = ["EXCERPT_CHARS", "WHOLE_CHARS", "Excerpt", "Unit", "excerpt", "outline", "units"]

WHOLE_CHARS = 6000  # up to this many characters the file goes into a prompt whole
EXCERPT_CHARS = 3000  # a larger file: this many characters of its best-matching parts

_COMMENT = re.compile(r"<!--.*?-->", re.S)
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"^\s*(?:[-*•+]|\d+[.)、])\s+")
_WORD = re.compile(r"[a-z][a-z0-9]+|\d+(?:\.\d+)?")
_CJK = re.compile(r"[\u3400-\u9fff]+")
_STOP_WORDS = (
    "the and for you your our are was were with this that have has had from not but can will "
    "would could should please thanks thank regards dear hi hello about what when which who "
    "how all any some just also very into onto than then them they their there here its it's "
    "per via yes no ok okay we us me my"
)
_STOP = frozenset(_STOP_WORDS.split(" "))


@dataclass(frozen=True)
class Unit:
    """One searchable piece: its text and the headings above it."""

    heading: str
    text: str
    index: int


@dataclass(frozen=True)
class Excerpt:
    """What one prompt gets: ``text``; ``whole`` when that is the entire file."""

    text: str
    whole: bool
    total_chars: int


def clean(text: str) -> str:
    """The file without HTML comments and without headings that have nothing under them."""
    lines = _COMMENT.sub("", text or "").replace("\r\n", "\n").split("\n")
    kept: list[str] = []
    for i, line in enumerate(lines):
        match = _HEADING.match(line)
        if match:
            level = len(match.group(1))
            rest = lines[i + 1 :]
            stop = next(
                (
                    j
                    for j, r in enumerate(rest)
                    if (m := _HEADING.match(r)) and len(m.group(1)) <= level
                ),
                len(rest),
            )
            if not any(r.strip() and not _HEADING.match(r) for r in rest[:stop]):
                continue  # an empty section (the skeleton's heading he has not filled in)
        kept.append(line)
    return re.sub(r"\n{3,}", "\n\n", "\n".join(kept)).strip()


def units(text: str) -> list[Unit]:
    """The file as units: a paragraph, or each item of a list, with the heading path above."""
    path: list[tuple[int, str]] = []  # (level, title) of the headings above
    found: list[Unit] = []
    block: list[str] = []

    def flush() -> None:
        if block:
            heading = " / ".join(title for _level, title in path)
            found.append(Unit(heading, "\n".join(block).strip(), len(found)))
            block.clear()

    for line in clean(text).split("\n"):
        match = _HEADING.match(line)
        if match:
            flush()
            level = len(match.group(1))
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, match.group(2).strip()))
        elif not line.strip():
            flush()
        elif _ITEM.match(line):
            flush()
            block.append(line.strip())
        else:
            block.append(line.strip())
    flush()
    return [u for u in found if u.text]


def terms(text: str) -> set[str]:
    """English words (a plural's "s" dropped), numbers and Chinese character pairs."""
    low = (text or "").lower()
    out = {w.removesuffix("s") if len(w) > 3 else w for w in _WORD.findall(low)}
    out -= _STOP
    for run in _CJK.findall(low):
        out |= {run[i : i + 2] for i in range(len(run) - 1)} or {run}
    return out


# the trade's words a customer writes in English and the owner files in Chinese (and back)
TRADE_TERMS: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (
        ("lead time", "how long", "how soon", "turnaround", "delivery", "weeks"),
        ("交货", "工期", "周"),
    ),
    (("warranty", "guarantee"), ("保修", "质保")),
    (("glass", "glazing", "glazed", "laminated", "toughened", "low-e", "obscure"), ("玻璃",)),
    (("double glaz", "double-glaz", "igu"), ("双层", "中空")),
    (
        ("price", "cost", "quote", "how much", "deposit", "discount", "gst"),
        ("价格", "报价", "定金"),
    ),
    (
        ("standard", "as 2047", "as2047", "wind", "bal", "bushfire", "rating"),
        ("标准", "规范", "抗风"),
    ),
    (("install", "fitting", "fitted"), ("安装",)),
    (("colour", "color", "powder", "anodis", "finish"), ("颜色", "喷涂")),
    (("flyscreen", "fly screen", "insect"), ("纱窗",)),
    (("lock", "handle", "hardware"), ("锁", "把手", "五金")),
    (("measure", "site visit"), ("量尺", "上门")),
)


def _expanded(query: str) -> set[str]:
    """The query's terms, plus each glossary product and trade word it names in the other
    language."""
    low = (query or "").lower()
    found = terms(low)
    for english, chinese in TRADE_TERMS:
        if any(w in low for w in english) or any(w in low for w in chinese):
            for word in (*english, *chinese):
                found |= terms(word)
    for key, item in glossary().items():
        names = [
            item.get("en", ""),
            item.get("zh", ""),
            key.replace("_", " "),
            *item.get("aliases", []),
        ]
        if any(n and n.lower() in low for n in names):
            for name in names:
                found |= terms(name)
    return found


def excerpt(
    text: str, query: str, *, whole_chars: int = WHOLE_CHARS, budget: int = EXCERPT_CHARS
) -> Excerpt:
    """The knowledge a prompt about ``query`` gets (see the module docstring)."""
    full = clean(text)
    if len(full) <= whole_chars:
        return Excerpt(full, True, len(full))
    pieces = units(full)
    wanted = _expanded(query)
    unit_terms = [terms(u.text) for u in pieces]
    df: dict[str, int] = {}
    for ts in unit_terms:
        for t in ts & wanted:
            df[t] = df.get(t, 0) + 1
    n = len(pieces)

    def weight(t: str) -> float:
        return math.log(1 + n / df.get(t, n))

    scored: list[tuple[float, Unit]] = []
    for unit, ts in zip(pieces, unit_terms, strict=True):
        score = sum(weight(t) for t in ts & wanted)
        score += 0.5 * sum(weight(t) for t in (terms(unit.heading) & wanted) - ts)
        if score > 0:
            scored.append((score, unit))
    chosen: list[Unit] = []
    spent = 0
    for _score, unit in sorted(scored, key=lambda p: (-p[0], p[1].index)):
        cost = len(unit.text) + len(unit.heading) + 8
        if spent + cost > budget:
            continue
        chosen.append(unit)
        spent += cost
    return Excerpt(_render(sorted(chosen, key=lambda u: u.index)), False, len(full))


def _render(chosen: list[Unit]) -> str:
    out: list[str] = []
    heading: str | None = None
    for unit in chosen:
        if unit.heading != heading:
            heading = unit.heading
            if heading:
                out.append(f"{'' if not out else chr(10)}## {heading}")
        out.append(unit.text)
    return "\n".join(out).strip()


def outline(text: str) -> str:
    """The headings of the file (what the assistant can search for when it is large)."""
    headings = [
        m.group(2).strip() for line in clean(text).split("\n") if (m := _HEADING.match(line))
    ]
    return "、".join(dict.fromkeys(headings))
