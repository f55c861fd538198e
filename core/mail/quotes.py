"""Quote stripping: keep only what the sender wrote in *this* email.

Replies carry the whole thread below the new text; feeding that to the classifier would make
every reply look like the original inquiry (and cost tokens). Two detectors vote and the earliest
credible cut wins:

1. ``mail-parser-reply`` (maintained, multilingual) finds "On … wrote:" attributions, Outlook
   header blocks and "-----Original Message-----" separators. Its splits are only trusted when
   the header it found really introduces quoted mail (a ``From:``/``发件人`` line, an attribution,
   or a separator): a read receipt's "To:/Subject:/Sent:" summary is not a quote.
2. Our own patterns (:data:`_RULES`) for what it misses in this inbox: Foxmail/QQ/163
   "------------------ 原始邮件 ------------------" separators, Apple Mail's Chinese
   "在 …，X 写道：" attribution, Outlook blocks after an underscore rule or with no separator,
   attributions wrapped over two lines, and trailing ``>`` blocks.

Mobile footers ("Sent from my iPhone", "Get Outlook for iOS", "发自我的 iPhone") are removed as
whole lines. Signatures are deliberately kept: the customer's name and phone live there.
If every detector would leave nothing, the text is returned whole (a bare forward *is* the news).

``benchmarks/quote_accuracy.py`` measures each detector alone and combined on the dev corpus.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = ["library_cut", "pattern_cut", "remove_footers", "strip_quotes"]

_WSC = " \t\u00a0\u202f\u2009\u3000"
_WS = f"[{_WSC}]"

# ----------------------------------------------------------------------------- own patterns

_SEPARATOR = re.compile(
    rf"^{_WS}*[-=_]{{2,}}{_WS}*(?:original message|original|reply message"
    rf"|原始邮件|原邮件|回复的原邮件|邮件原文){_WS}*[-=_]{{2,}}{_WS}*$",
    re.IGNORECASE,
)
# A forward is not history: what was forwarded is the news (a customer re-sending an enquiry
# that got no answer, a builder passing on a client's email). Forwards are kept whole.
_FORWARD = re.compile(
    rf"^{_WS}*(?:[-=_]{{2,}}{_WS}*(?:forwarded message|转发邮件|转发的邮件){_WS}*[-=_]{{2,}}"
    rf"|begin forwarded message{_WS}*:|开始转发的邮件{_WS}*[:：]){_WS}*$",
    re.IGNORECASE,
)
_UNDERSCORE_RULE = re.compile(rf"^{_WS}*_{{8,}}{_WS}*$")
_FROM_LINE = re.compile(
    rf"^{_WS}*[>*{_WSC}]*\**(?:from|发件人|寄件者|寄件人|von|de|van)\**{_WS}*[:：]", re.IGNORECASE
)
_SENT_LINE = re.compile(
    rf"^{_WS}*[>*{_WSC}]*\**(?:sent|date|发送时间|日期|时间|寄件日期|gesendet|envoyé)\**{_WS}*[:：]",
    re.IGNORECASE,
)
_TO_LINE = re.compile(
    rf"^{_WS}*[>*{_WSC}]*\**(?:to|subject|cc|收件人|主题|抄送|主旨|an|betreff|à|objet)\**{_WS}*[:：]",
    re.IGNORECASE,
)
_ATTRIBUTION_EN = re.compile(
    r"^\s*>?\s*(?:on|am|le|el|op|il)\s.{4,300}?(?:wrote|schrieb|a écrit|escribió|schreef|ha scritto)"
    r"\s*:\s*$",
    re.IGNORECASE | re.DOTALL,
)
_ATTRIBUTION_ZH = re.compile(
    r"^\s*>?\s*(?:在\s*.{2,200}?写道|.{1,200}?于\s*.{2,120}?写道|.{0,200}?\d{1,2}[:：]\d{2}.{0,200}?写道)"
    r"\s*[:：]\s*$",
    re.DOTALL,
)
_QUOTED = re.compile(rf"^{_WS}*>")

_FOOTER = re.compile(
    rf"^{_WS}*(?:sent from my\b.{{1,60}}|sent from (?:mail|outlook|yahoo mail|gmail|my mobile)\b.{{0,40}}"
    rf"|sent from (?:samsung|huawei|xiaomi|oppo)\b.{{0,40}}|sent via\b.{{1,40}}"
    rf"|get outlook for (?:ios|android)\b.{{0,40}}|envoyé de mon\b.{{1,40}}|von meinem\b.{{1,40}}gesendet"
    rf"|发自我的{_WS}*.{{1,30}}|从我的{_WS}*.{{1,30}}发送|来自我的{_WS}*.{{1,30}}|发自{_WS}*(?:网易|QQ|手机).{{0,30}})"
    rf"{_WS}*$",
    re.IGNORECASE,
)


def _is_header_block(lines: list[str], i: int) -> bool:
    """An Outlook/Foxmail header block: a From line followed closely by Sent/Date and To/Subject."""
    if not _FROM_LINE.match(lines[i]):
        return False
    window = lines[i + 1 : i + 7]
    return any(_SENT_LINE.match(x) for x in window) and any(_TO_LINE.match(x) for x in window)


_ATTRIBUTION_START = re.compile(r"^\s*>?\s*(?:(?:on|am|le|el|op|il)\s|在)", re.IGNORECASE)


def _attribution_at(lines: list[str], i: int) -> bool:
    """ "On … wrote:" (possibly wrapped over up to three lines) or a Chinese "在 … 写道："."""
    line = lines[i].strip()
    if not line or len(line) > 300:
        return False
    spans = (1, 2, 3) if _ATTRIBUTION_START.match(line) else (1,)
    for span in spans:
        chunk_lines = lines[i : i + span]
        if len(chunk_lines) < span or not all(x.strip() for x in chunk_lines):
            break  # a wrapped attribution has no blank line inside
        chunk = " ".join(x.strip() for x in chunk_lines)
        if _ATTRIBUTION_EN.match(chunk) and re.search(r"\d|@", chunk):
            return True
        if _ATTRIBUTION_ZH.match(chunk) and re.search(r"\d|@|<", chunk):
            return True
    return False


def _trailing_quote_start(lines: list[str]) -> int | None:
    """Start of a ``>`` block that runs (ignoring blank lines and footers) to the end."""
    start = None
    for i in range(len(lines) - 1, -1, -1):
        line = lines[i]
        if _QUOTED.match(line):
            start = i
        elif not line.strip() or _FOOTER.match(line):
            continue
        else:
            break
    return start


_RULES: list[tuple[str, Callable[[list[str], int], bool]]] = [
    ("separator", lambda lines, i: bool(_SEPARATOR.match(lines[i]))),
    (
        "underscore_rule",
        lambda lines, i: (
            bool(_UNDERSCORE_RULE.match(lines[i]))
            and any(_is_header_block(lines, j) for j in range(i + 1, min(i + 4, len(lines))))
        ),
    ),
    ("header_block", _is_header_block),
    ("attribution", _attribution_at),
]


def pattern_cut(text: str) -> int | None:
    """Line index where quoted history starts according to our own patterns, or None."""
    lines = text.split("\n")
    for i in range(len(lines)):
        for _name, rule in _RULES:
            if rule(lines, i):
                return i
    return _trailing_quote_start(lines)


# ----------------------------------------------------------------------------- library

_ATTRIBUTION_WORDS = re.compile(r"wrote\s*:|写道|schrieb|original message|原始邮件", re.IGNORECASE)


def _credible(header: str) -> bool:
    """Is the header the library split on really the start of quoted mail?

    A reply header names its sender and a date or address ("From: X <x@y>" + "Sent: …"). Two
    lines that merely begin "From:"/"To:" in running text, or a read receipt's "To:/Sent:"
    summary without a From line, are not quotes.
    """
    if _ATTRIBUTION_WORDS.search(header):
        return True
    lines = header.split("\n")
    if not any(_FROM_LINE.match(x) for x in lines):
        return False
    return any(_SENT_LINE.match(x) for x in lines) or bool(re.search(r"@|<", header))


def library_cut(text: str) -> int | None:
    """Line index of the first credible reply header mail-parser-reply finds, or None."""
    try:
        from mailparser_reply import EmailReplyParser

        message = EmailReplyParser(languages=["en", "zh"]).read(text)
    except Exception:  # a library bug must never cost us the message
        return None
    if len(message.replies) < 2:
        return None
    lines = text.split("\n")
    for reply in message.replies[1:]:
        header = (reply.headers or "").strip()
        if not header or not _credible(header):
            continue
        first = next((x.strip() for x in header.split("\n") if x.strip()), "")
        for i, line in enumerate(lines):
            if line.strip() and line.strip() == first:
                return i
            if first and line.strip() and first.startswith(line.strip()) and len(line.strip()) > 10:
                return i  # the library joined a wrapped attribution
        return None
    return None


# ----------------------------------------------------------------------------- public


def remove_footers(text: str) -> str:
    """Drop mobile-client footer lines ("Sent from my iPhone", "发自我的iPhone")."""
    kept = [line for line in text.split("\n") if not _FOOTER.match(line)]
    return "\n".join(kept)


def _tidy(text: str) -> str:
    text = re.sub(r"\n{3,}", "\n\n", text)
    return "\n".join(line.rstrip() for line in text.split("\n")).strip()


def _apply_cut(text: str, cut: int | None) -> str:
    lines = text.split("\n")
    if cut is not None:
        lines = lines[:cut]
    # Inline quoted lines left above the cut (interleaved replies): drop the quotes, keep answers.
    kept = [line for line in lines if not _QUOTED.match(line)]
    return _tidy(remove_footers("\n".join(kept)))


def _is_forward(text: str, cut: int) -> bool:
    """A forward marker at, or just above, the first cut (the forwarded header block)."""
    lines = text.split("\n")
    return any(_FORWARD.match(line) for line in lines[max(0, cut - 2) : cut + 1])


def strip_quotes(text: str, *, use_library: bool = True, use_patterns: bool = True) -> str:
    """The new text of an email body: quoted history, reply headers and mobile footers removed.

    ``use_library`` / ``use_patterns`` exist for the accuracy benchmark; callers use the default.
    Never returns an empty string for a body that had text: when every cut would leave nothing,
    the whole body (minus footers) is the news.
    """
    if not text or not text.strip():
        return ""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    cuts = []
    if use_patterns:
        cuts.append(pattern_cut(text))
    if use_library:
        cuts.append(library_cut(text))
    candidates = sorted(c for c in cuts if c is not None)
    if candidates and _is_forward(text, candidates[0]):
        return _tidy(remove_footers(text))
    for cut in candidates:
        result = _apply_cut(text, cut)
        if result:
            return result
    result = _apply_cut(text, None)
    return result or _tidy(text)
