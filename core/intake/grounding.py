"""Grounding: a value the model extracted is kept only when the customer actually wrote it.

Why: a model asked for "the job address" can answer with any sentence it likes — the systems this
one replaces stored "Thank you for your enquiry. Our price is $98,765…" as an address. Validation
(``extract.validate_fields``) checks a value's *shape*; this module checks its *origin*: every
copied value must be found, after normalisation, in the text the customer sent — subject, body
(signature included), sender name and addresses, attachment names. What is not found is dropped
with a reason (``GroundingDrop``) the accuracy report counts, and the rules' value for that field
(found in the text by construction) takes its place when they have one.

Normalisation is per field: words are compared case-folded with punctuation and line breaks
collapsed and street types abbreviated ("Road" = "Rd"); a name's words may come in any order
("Smith, Jo"); a phone by its subscriber digits; dimensions, dates and amounts through the fact
guard's normaliser (``core.text.facts``), so "2.4 m" in the mail grounds "2400 x …" and
"3/3" grounds "3 March".

Who wrote a value matters, not only that it appears: a customer name must be the sender's, never
the name the mail greets ("Hi Jason" is the reader); a phone is taken from the mail's own digits
(a model's "+497318264" for "0497 318 264" becomes the customer's number, not a German one); a
product the mail does not name (glossary aliases, the rules' patterns, the thread's job) is
dropped, so a weak model listing the whole glossary stores nothing of it (#45). Inference that is
not copying — urgency, language — stays, marked ``model_made`` so the owner (and the eval) can
tell it from what the customer wrote.
Confidence follows what survived: the more of the model's copied values had to be dropped, the
less its answer is trusted (``confidence_after``).

Cost: the evidence is normalised lazily, once per message; a typical message grounds in well
under a millisecond of CPU (``benchmarks/eval.py`` prints the figure).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from core.intake.view import MessageView

__all__ = ["Evidence", "GroundingDrop", "confidence_after"]

# Street types written either way by customers and models; compared in their short form.
_STREET_ABBREVIATIONS = {
    "street": "st",
    "road": "rd",
    "avenue": "ave",
    "av": "ave",
    "place": "pl",
    "crescent": "cres",
    "cr": "cres",
    "drive": "dr",
    "court": "ct",
    "parade": "pde",
    "highway": "hwy",
    "close": "cl",
    "lane": "ln",
    "terrace": "tce",
    "circuit": "cct",
    "grove": "gr",
    "gve": "gr",
    "boulevard": "blvd",
    "bvd": "blvd",
    "square": "sq",
    "esplanade": "esp",
    "parkway": "pkwy",
    "gardens": "gdns",
    "apartment": "apt",
    "n.s.w": "nsw",
}
_WORD = re.compile(r"[0-9a-z\u00c0-\u024f]+|[\u3400-\u9fff]", re.IGNORECASE)
_CJK = re.compile(r"[\u3400-\u9fff]")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
# "Hi Jason," / "Dear Mr Lee" / "Good morning Anna": the name after a greeting is the person the
# mail is written TO (the shop's side), never the sender. Names are capitalised words.
_GREETING = re.compile(
    r"^[ \t>]*(?:hi|hello|hey|dear|g'?day|good (?:morning|afternoon|evening|day)|attn:?|"
    r"attention:?)[ \t,]+((?:(?:mr|mrs|ms|miss|dr)\.?[ \t]+)?[A-Z][\w'-]*(?:[ \t]+[A-Z][\w'-]*)?)",
    re.IGNORECASE | re.MULTILINE,
)
_FACT_LINE = re.compile(
    r"\d|[一二两三四五六七八九十百千万半]|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|"
    r"mon|tue|wed|thu|fri|sat|sun|noon|midday|周|星期|礼拜",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class GroundingDrop:
    """One model value that did not survive: which field, what it said, and why."""

    field: str
    value: str
    # "not_in_mail" (absent from the customer's text) | "invalid" (wrong shape) |
    # "addressee" (a name the mail greets: the reader, not the sender)
    why: str

    def as_dict(self) -> dict[str, str]:
        return {"field": self.field, "value": self.value[:200], "why": self.why}


def _words(text: str) -> list[str]:
    text = unicodedata.normalize("NFKC", text or "").casefold()
    return [_STREET_ABBREVIATIONS.get(w, w) for w in _WORD.findall(text)]


class Evidence:
    """The customer's text for one message, normalised once (lazily) for every field check."""

    def __init__(self, view: MessageView) -> None:
        self.view = view
        parts = [
            view.subject,
            view.body_text,
            view.from_name or "",
            view.from_addr or "",
            view.reply_to or "",
            *view.attachments,
        ]
        self.text = "\n".join(p for p in parts if p)

    @cached_property
    def joined(self) -> str:
        """The words, space-separated and space-framed, for whole-word containment."""
        return " " + " ".join(_words(self.text)) + " "

    @cached_property
    def word_set(self) -> frozenset[str]:
        return frozenset(_words(self.text))

    @cached_property
    def compact(self) -> str:
        """Case-folded, without spaces or punctuation: for Chinese, written without spaces."""
        return "".join(_words(self.text))

    @cached_property
    def lower(self) -> str:
        return self.text.casefold()

    @cached_property
    def digits(self) -> str:
        return re.sub(r"\D", "", self.text)

    @cached_property
    def numbers(self) -> frozenset[float]:
        """Every number written, also read in the other length units (mm, cm, m)."""
        found: set[float] = set()
        for m in _NUMBER.finditer(self.text.replace(",", "")):
            value = float(m.group(0))
            found |= {round(value, 3), round(value * 10, 3), round(value * 1000, 3)}
        return frozenset(found)

    @cached_property
    def fact_keys(self) -> set[str]:
        """The fact guard's keys of the lines that can hold a date, time or amount (a line
        with no digit, Chinese numeral, month, weekday or noon holds none: skipping it keeps a
        long mail cheap)."""
        from core.text.facts import source_keys

        lines = [line for line in self.text.splitlines() if _FACT_LINE.search(line)]
        return source_keys(["\n".join(lines)], self.view.region) if lines else set()

    def names_product(self, key: str) -> bool:
        """The customer named this glossary product (English alias, key words or Chinese)."""
        from core.glossary import glossary

        item = glossary().get(key)
        aliases = item.get("aliases", []) if item else []
        zh = str(item.get("zh") or "") if item else ""
        names = [key.replace("_", " "), *aliases, zh]
        return any(n and (self.has_phrase(n) or self.has_phrase(n + "s")) for n in names)

    # ------------------------------------------------------------------ checks per field
    def has_phrase(self, value: str) -> bool:
        """The value's words appear together, in order, in the customer's text."""
        words = _words(value)
        if not words:
            return False
        if _CJK.search(value):
            return "".join(words) in self.compact
        return f" {' '.join(words)} " in self.joined

    def has_name(self, value: str) -> bool:
        """Every word of the name appears (in any order: "Smith, Jo" grounds "Jo Smith")."""
        words = _words(value)
        if not words:
            return False
        if _CJK.search(value):
            return "".join(words) in self.compact
        return all(w in self.word_set for w in words)

    @cached_property
    def greeted_words(self) -> frozenset[str]:
        """The words of the names the mail greets ("Hi Jason" -> {"jason"})."""
        found: set[str] = set()
        for m in _GREETING.finditer(self.view.body_text or ""):
            found |= {w for w in _words(m.group(1)) if w not in {"mr", "mrs", "ms", "miss", "dr"}}
        return frozenset(found)

    def is_greeted_not_sender(self, value: str) -> bool:
        """The name is the one the mail greets, and the sender's own display name is another.

        Who wrote a name matters, not only that it appears: "Hi Jason, ... Thanks, Mia" names
        Jason as the reader. A name the From header also carries is the sender's after all."""
        words = [w for w in _words(value) if w not in {"mr", "mrs", "ms", "miss", "dr"}]
        if not words or not set(words) <= self.greeted_words:
            return False
        sender = set(_words(self.view.from_name or ""))
        return not set(words) <= sender

    def supports_product(self, key: str) -> bool:
        """The mail names this product (a glossary alias, the rules' patterns) or the thread's
        job already has it: a product the text does not support is not the customer's."""
        if self.names_product(key):
            return True
        from core.intake.rules_extract import find_products

        thread = (self.view.thread_inquiry or {}).get("products") or []
        return key in thread or key in find_products(self.text)

    def mail_phone(self, e164: str) -> str | None:
        """The phone as the MAIL writes it, normalised in the mail's region: the one whose
        subscriber digits the model's value ends with (a model that read "0497 318 264" as
        "+497318264" gets the customer's own "+61497318264" back), or None."""
        from core.intake.normalize import find_phones

        tail = re.sub(r"\D", "", e164)[-8:]
        if len(tail) < 8:
            return None
        for phone in find_phones(self.text, self.view.region):
            if re.sub(r"\D", "", phone).endswith(tail):
                return phone
        return None

    def has_email(self, value: str) -> bool:
        return bool(value) and value.casefold() in self.lower

    def has_phone(self, e164: str) -> bool:
        return bool(e164) and re.sub(r"\D", "", e164)[-8:] in self.digits

    def has_numbers(self, value: str) -> bool:
        """Every number in the value (a size like "2400 x 2100 mm") is written in the mail."""
        numbers = [float(n) for n in _NUMBER.findall(value.replace(",", ""))]
        return bool(numbers) and all(round(n, 3) in self.numbers for n in numbers)

    def has_facts(self, value: str) -> bool:
        """A date or amount: each checkable value in it is one the mail states (fact-guard
        normalisation: "3 March" = "3/3", "$15k" = "15,000"); a value with none must appear as
        written."""
        from core.text.facts import covered, extract_facts

        facts = extract_facts(value, self.view.region)
        if not facts:
            return self.has_phrase(value)
        return all(covered(f, self.fact_keys) for f in facts)


def confidence_after(offered: int, dropped: int) -> str | None:
    """The highest confidence an extraction still deserves after grounding (None: no cap).

    Nothing dropped: no cap. Some dropped: at most "medium". Half or more of the values the
    model copied were not in the mail: "low" — the answer as a whole is not to be trusted."""
    if offered <= 0 or dropped <= 0:
        return None
    return "low" if dropped * 2 >= offered else "medium"


def drops_as_dicts(drops: list[GroundingDrop]) -> list[dict[str, Any]]:
    return [d.as_dict() for d in drops]
