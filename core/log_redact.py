"""What a log line may not carry: message content, redacted where the line is written.

Why at the handler: the log file is for diagnosing the app, and the owner may send it to someone;
it must never hold a customer's words. Call sites try not to log content, but a database error
prints SQLAlchemy's ``[SQL: …]`` and ``[parameters: …]`` (whole email bodies, names, addresses,
phones), an HTTP error can echo the prompt it refused, and an exception's message can quote a
value. So ``redact`` runs on the finished line, exception text included:

* ``[parameters: …]`` blocks go whole; string literals inside ``[SQL: …]`` become ``'?'``;
* e-mail addresses → ``<email>``, phone numbers (``phonenumbers``, AU first, any ``+`` number)
  → ``<phone>``, street addresses (a number, words, a street type) → ``<address>``;
* quoted text (``'…'``, ``"…"``, ``「…」``, ``“…”``) of three characters or more → ``<text>``:
  names, subjects, bodies and folder names reach a message or an exception through ``%r`` or a
  quoting ``repr``; what we log on purpose (ids, stages, counts, reasons) is written unquoted.

In a traceback only the frame lines (``File "…", line N``) and the source lines under them are
kept as they are (they are our code, not customer text); every message line is redacted.
"""

from __future__ import annotations

import re

_PARAMETERS = re.compile(
    r"\[parameters: .*?(?=\]\s*(?:\n\(Background on this error|\n\[|\Z))\]?", re.S
)
_SQL = re.compile(r"\[SQL: .*?(?=\]\s*(?:\n\[parameters|\n\(Background on this error|\Z))", re.S)
_SQL_LITERAL = re.compile(r"'(?:[^']|'')*'")
_EMAIL = re.compile(r"[\w.+'-]+@[\w-]+(?:\.[\w-]+)+", re.U)
_E164 = re.compile(r"\+\d[\d ()-]{7,18}\d")
_STREET = (
    r"St|Street|Rd|Road|Ave|Avenue|Pde|Parade|Cres|Crescent|Dr|Drive|Pl|Place|Ct|Court|Hwy|"
    r"Highway|Ln|Lane|Blvd|Boulevard|Tce|Terrace|Cl|Close|Way|Cct|Circuit|Gr|Grove|Sq|Square"
)
_ADDRESS = re.compile(
    rf"\b\d{{1,5}}[A-Za-z]?(?:/\d{{1,5}})?\s+(?:[A-Z][\w'-]*\s+){{1,4}}(?:{_STREET})\b\.?", re.U
)
# A Python repr escapes its own quote with a backslash: the escaped one does not end the text. A
# quote cut off by a length limit (an HTTP error echoing a prompt) runs to the end of the line.
# A quote opens only after a non-letter, so the apostrophe of "owner's" opens nothing.
_QUOTED = re.compile(
    r"(?<!\w)'(?:[^'\\\n]|\\.){3,}(?:'|$)|(?<!\w)\"(?:[^\"\\\n]|\\.){3,}(?:\"|$)"
    r"|「[^」]{3,}」|“[^”]{3,}”|‘[^’]{3,}’",
    re.M,
)
_FRAME = re.compile(r'^  File "[^"]*", line \d+')
PHONE_REGIONS = ("AU",)


def _sql(match: re.Match[str]) -> str:
    return _SQL_LITERAL.sub("'?'", match.group(0))


def _phones(text: str) -> str:
    if not any(ch.isdigit() for ch in text):
        return text
    import phonenumbers  # on first use: the tray app's start-up does not pay for it

    spans: list[tuple[int, int]] = []
    for region in PHONE_REGIONS:
        for found in phonenumbers.PhoneNumberMatcher(
            text, region, leniency=phonenumbers.Leniency.VALID
        ):
            spans.append((found.start, found.end))
    spans += [(m.start(), m.end()) for m in _E164.finditer(text)]
    for start, end in sorted(set(spans), reverse=True):
        text = text[:start] + "<phone>" + text[end:]
    return text


def _quoted(match: re.Match[str]) -> str:
    found = match.group(0)
    closed = len(found) > 1 and found[-1] in "'\"」”’"
    return found[0] + "<text>" + (found[-1] if closed else "")


def redact_text(text: str) -> str:
    """Content patterns out of one piece of free text (a message, an exception's message)."""
    text = _PARAMETERS.sub("[parameters: <redacted>]", text)
    text = _SQL.sub(_sql, text)
    text = _EMAIL.sub("<email>", text)
    text = _phones(text)
    text = _ADDRESS.sub("<address>", text)
    return _QUOTED.sub(_quoted, text)


def redact_traceback(text: str) -> str:
    """A formatted exception with every message line redacted, frames and code kept."""
    out: list[str] = []
    message: list[str] = []
    in_code = False
    for line in text.split("\n"):
        if _FRAME.match(line):
            if message:
                out.append(redact_text("\n".join(message)))
                message = []
            out.append(line)
            in_code = True
        elif in_code and line.startswith("    "):
            out.append(line)
        else:
            in_code = False
            message.append(line)
    if message:
        out.append(redact_text("\n".join(message)))
    return "\n".join(out)
