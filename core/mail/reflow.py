"""Mail text prepared for reading: hard-wrapped paragraphs joined, and which script a text is in.

Many mail programs break lines at 72–80 characters when they send; shown in a window wider or
narrower than that, such a paragraph reads as ragged lines ("We'd like it done / before Easter").
``reflow`` joins the lines of a paragraph that were broken only for width, and keeps every line
a person broke on purpose: blank lines, list items, quoted lines (``>``) and short lines such as a
greeting or a signature (``Cheers, / Emma / 0401 998 213``). It is a pure text → text function,
applied before display; the stored text is never changed.

``mostly_chinese`` says whether a text is written in Chinese, so 翻译 is offered only on mail the
owner cannot simply read.
"""

from __future__ import annotations

import re

_LIST_ITEM = re.compile(r"^\s*([-*•·–]|\d{1,2}[.)]|[a-zA-Z][.)]|\(\w{1,2}\))\s+")
_QUOTED = re.compile(r"^\s*>")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]")
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")

# a line is a hard wrap only when it is long, relative to the longest line of the mail
MIN_WRAPPED = 40
WRAP_SHARE = 0.6
DEFAULT_WIDTH = 60


def _is_break_point(line: str) -> bool:
    """A line that starts something of its own: a list item or a quotation."""
    return bool(_LIST_ITEM.match(line) or _QUOTED.match(line))


def _joins(current: str, following: str, width: int) -> bool:
    """Was ``current`` broken only because the line was full?"""
    if not following.strip() or _is_break_point(following) or _QUOTED.match(current):
        return False
    if current.rstrip().endswith((":", "：")):  # "supply only:" then the prices, on purpose
        return False
    length = len(current.rstrip())
    return length >= MIN_WRAPPED and length >= WRAP_SHARE * width


def _glue(left: str, right: str) -> str:
    """Join two pieces of one paragraph: no space between Chinese characters."""
    left, right = left.rstrip(), right.strip()
    if left and right and _CJK.match(left[-1]) and _CJK.match(right[0]):
        return left + right
    return f"{left} {right}"


def reflow(text: str) -> str:
    """``text`` with each hard-wrapped paragraph on one line (see the module docstring)."""
    lines = [line.rstrip() for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")]
    width = max([DEFAULT_WIDTH, *(len(line) for line in lines if not _QUOTED.match(line))])
    out: list[str] = []
    for i, line in enumerate(lines):
        if i > 0 and out and _joins(lines[i - 1], line, width):
            out[-1] = _glue(out[-1], line)
        else:
            out.append(line)
    return "\n".join(out)


def mostly_chinese(text: str) -> bool:
    """True when Chinese characters outnumber a third of the letters (names and addresses in
    English inside a Chinese mail do not make it English; one Chinese name in English mail does
    not make it Chinese)."""
    han = len(_HAN.findall(text or ""))
    latin = len(_LATIN.findall(text or ""))
    return han > 0 and han >= 0.3 * (han + latin)
