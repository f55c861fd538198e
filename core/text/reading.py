"""The reading form of a text: what it *means* to a reader, not how it is spelled.

Why: a guard that matches spellings is beaten by spelling. "已發送" (Traditional), "已\u200b发送"
(a zero-width space inside), "&#21457;送" (an HTML entity), "ѕеnt" (Cyrillic ѕ and е), "ｓｅｎｔ"
(full-width) all read as a claim to the owner, so every guard reads the text through this one
normal form:

1. HTML character references are decoded (``&amp;``, ``&#21457;``, ``&#x53D1;``);
2. NFKC (full-width, ligatures, mathematical letters, compatibility forms);
3. invisible characters are removed: every format character (Unicode category ``Cf``: zero-width
   spaces and joiners, bidi embeddings, overrides and isolates, the BOM, soft hyphens) and
   variation selectors;
4. a word written with Latin letters, or made only of look-alike letters, has its Cyrillic and
   Greek look-alikes folded to Latin (a Russian word such as "отправлено" stays Russian);
5. Traditional Chinese becomes Simplified (OpenCC ``t2s``, the converter the app ships).

``reading_form`` keeps, for every character of the result, the index in the original where it
came from, so a guard that finds a claim in the reading form replaces the original words.
"""

from __future__ import annotations

import functools
import html
import re
import threading
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import opencc

__all__ = ["Reading", "fold_confusables", "read", "reading_form", "to_simplified"]

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_WORD = re.compile(r"\w+")

# Cyrillic and Greek letters that look like Latin ones (after Unicode's confusables.txt,
# restricted to letters a reader cannot tell apart in a normal UI font)
_LOOKALIKES = {
    # Cyrillic lower case
    "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ї": "i", "ј": "j", "к": "k",
    "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "ѕ": "s", "т": "t", "у": "y", "х": "x",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ɡ": "g", "ո": "n", "ս": "u",
    # Cyrillic upper case
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "Ѕ": "S", "І": "I", "Ї": "I", "Ј": "J", "К": "K",
    "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ԁ": "D",
    "Ԛ": "Q", "Ԝ": "W",
    # Greek
    "α": "a", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x", "ϲ": "c", "ϳ": "j",
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C",
}  # fmt: skip
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")

_t2s_lock = threading.Lock()
_t2s: opencc.OpenCC | None = None


def to_simplified(text: str) -> str:
    """Traditional → Simplified Chinese (OpenCC ``t2s``); text without CJK is returned as is."""
    global _t2s
    if not _CJK.search(text):
        return text
    with _t2s_lock:
        if _t2s is None:
            import opencc

            _t2s = opencc.OpenCC("t2s")
        return str(_t2s.convert(text))


@dataclass(frozen=True)
class Reading:
    """``text``: the reading form; ``origin[i]``: where ``text[i]`` starts in the original
    (``origin`` has one extra entry, the original's length, so spans map back whole)."""

    text: str
    origin: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span behind ``text[start:end]``."""
        if start >= end:
            return self.origin[start], self.origin[start]
        return self.origin[start], self.origin[end]


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) == "Cf" or "\ufe00" <= ch <= "\ufe0f"


# format characters (category Cf) and variation selectors, for the fast path's test
_INVISIBLE = re.compile(
    "[\u00ad\u061c\u070f\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f"
    "\ufe00-\ufe0f\ufeff\ufff9-\ufffb\U000110bd\U0001d173-\U0001d17a\U000e0001-\U000e007f]"
)


def _units(text: str) -> tuple[list[str], list[int]]:
    """The decoded, NFKC-normalised characters of ``text`` with the original index of each.
    Plain stretches (no entity, already NFKC, nothing invisible) are taken whole."""
    chars: list[str] = []
    origin: list[int] = []
    i = 0
    for m in _ENTITY.finditer(text):
        _plain(text, i, m.start(), chars, origin)
        piece = html.unescape(m.group(0))
        if piece == m.group(0):  # not an entity after all: the text stays as it is
            _plain(text, m.start(), m.end(), chars, origin)
        else:
            _piece(piece, m.start(), chars, origin)
        i = m.end()
    _plain(text, i, len(text), chars, origin)
    return chars, origin


def _piece(piece: str, index: int, chars: list[str], origin: list[int]) -> None:
    for ch in unicodedata.normalize("NFKC", piece):
        if not _invisible(ch):
            chars.append(ch)
            origin.append(index)


@functools.lru_cache(maxsize=16384)
def _char(ch: str) -> str:
    """One character's NFKC form without invisible characters (cached: texts repeat them)."""
    return "".join(c for c in unicodedata.normalize("NFKC", ch) if not _invisible(c))


def _plain(text: str, start: int, end: int, chars: list[str], origin: list[int]) -> None:
    stretch = text[start:end]
    if stretch.isascii() or (
        unicodedata.is_normalized("NFKC", stretch) and not _INVISIBLE.search(stretch)
    ):
        chars.extend(stretch)
        origin.extend(range(start, end))
        return
    for offset, ch in enumerate(stretch):
        piece = ch if ch.isascii() else _char(ch)
        chars.extend(piece)
        origin.extend([start + offset] * len(piece))


def fold_confusables(text: str) -> str:
    """Fold look-alike letters in words that are Latin (or could pass for Latin)."""

    def fold(m: re.Match[str]) -> str:
        word = m.group(0)
        letters = [c for c in word if c.isalpha()]
        if not any(c in _LOOKALIKES for c in letters):
            return word
        if _LATIN.search(word) or all(c in _LOOKALIKES for c in letters):
            return "".join(_LOOKALIKES.get(c, c) for c in word)
        return word

    return _WORD.sub(fold, text)


def reading_form(text: str) -> Reading:
    """The reading form of ``text`` with its map back to ``text`` (see the module docstring)."""
    chars, origin = _units(text or "")
    folded = fold_confusables("".join(chars))  # per character: lengths unchanged
    simplified = to_simplified(folded)
    if len(simplified) != len(folded):  # a phrase conversion changed the length: per character
        pieces = [to_simplified(ch) for ch in folded]
        origin = [o for o, piece in zip(origin, pieces, strict=True) for _ in piece]
        simplified = "".join(pieces)
    origin.append(len(text or ""))
    return Reading(simplified, tuple(origin))


def read(text: str) -> str:
    """Just the reading form (for guards that need no positions)."""
    return reading_form(text).text
