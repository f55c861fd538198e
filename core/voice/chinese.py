"""Chinese text as the owner writes it: full-width punctuation, no stray spaces between characters.

Whisper writes Mandarin with ASCII punctuation as often as not ("好的,明天去量尺寸."), and live
dictation joins pieces cut at pauses. The owner types ，。？！：； — so a transcript in Chinese gets
those, while numbers keep theirs (1.5 米, 9:30, 2,400) and English words inside keep their spaces.
"""

from __future__ import annotations

import re

_CJK = r"[\u3400-\u9fff\uf900-\ufaff]"
_FULL = {",": "，", ".": "。", "?": "？", "!": "！", ":": "：", ";": "；"}
# ASCII punctuation not between two digits (so 1.5, 9:30 and 2,400 stay as they are)
_PUNCT = re.compile(r"(?<!\d)([,.?!:;])|([,.?!:;])(?!\d)")
_SPACE_BETWEEN_CJK = re.compile(rf"(?<={_CJK})\s+(?={_CJK})")
_SPACE_AROUND_FULL = re.compile(r"\s*([，。？！：；、])\s*")
_ENDS = "，。？！：；、…"


def to_chinese_punctuation(text: str) -> str:
    """Full-width punctuation and no spaces between Chinese characters; text without Chinese
    characters is returned unchanged."""
    if not re.search(_CJK, text):
        return text
    text = _PUNCT.sub(lambda m: _FULL[m.group(1) or m.group(2)], text)
    text = text.replace("。。。", "…").replace("……", "…")
    text = _SPACE_BETWEEN_CJK.sub("", text)
    return _SPACE_AROUND_FULL.sub(r"\1", text).strip()


def join_pieces(pieces: list[str]) -> str:
    """Join Chinese pieces cut at pauses: a pause without punctuation becomes a "，"."""
    out = ""
    for piece in (p.strip() for p in pieces):
        if not piece:
            continue
        if out and out[-1] not in _ENDS:
            out += "，"
        out += piece
    return out
