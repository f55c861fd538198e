"""Does the customer's reply accept the quote? What code checks around the model's opinion.

A reply merged into an inquiry may accept the quote we sent. Nothing moves on that guess: the
owner gets a proposal "客户接受了报价 Q-…，改为已下单?" and decides. Before the proposal is made,
code must agree with the model on the mail's own words:

- ``worth_asking``: the inquiry has a quote that is ``sent`` (not superseded, declined, expired
  or already accepted) and the new text has an acceptance cue (English or Chinese) -- else the
  model is not asked at all;
- ``verified``: the model said it accepts *and* quoted the customer's words, those words are in
  the mail, carry an acceptance cue, and neither they nor their sentence hold a negation, a
  question or a condition ("we'd like to go ahead if…", "not ready to proceed", "可以吗？").

The model alone can never make the proposal, and neither can a cue alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from core.db.models import Quote
from core.quotes.book import shown_status

_ACCEPT = re.compile(
    r"\b(accept(?:ed|ing)?|go(?:ing)? ahead|proceed|happy with (?:the|your) (?:quote|price)|"
    r"(?:quote|price) (?:is|looks) (?:good|fine|ok(?:ay)?)|(?:pay|paid|transfer(?:red)?) the "
    r"deposit|book (?:us|it) in|confirm(?:ed)? (?:the|our) order|place the order)\b"
    r"|接受报价|接受.{0,6}报价|同意报价|可以做|开始做|就按这个|按报价|下单|付定金|交定金|订了",
    re.I,
)
_NOT = re.compile(
    r"\b(not|no|don'?t|do not|won'?t|can'?t|cannot|isn'?t|aren'?t|never|unless|if|before we|"
    r"decline|too (?:high|expensive)|another (?:quote|company))\b|不|没|别|如果|要是|太贵",
    re.I,
)
MIN_WORDS = 3


@dataclass(frozen=True)
class SentQuote:
    """The quote a reply could accept: the newest ``sent`` version of the inquiry."""

    id: int
    number: str
    version: int
    total_inc_gst: str
    deposit_inc_gst: str


def sent_quote(session: Session, inquiry_id: int, today_iso: str) -> SentQuote | None:
    from datetime import date

    today = date.fromisoformat(today_iso)
    query = select(Quote).where(Quote.inquiry_id == inquiry_id).order_by(Quote.version.desc())
    for quote in session.scalars(query):
        status = shown_status(quote, today)
        if status == "sent":
            return SentQuote(
                quote.id, quote.number, quote.version, quote.total_inc_gst, quote.deposit_inc_gst
            )
        if status in ("accepted", "draft"):  # accepted already, or a newer one not sent yet
            return None
    return None


def _folded(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def has_cue(text: str) -> bool:
    """An acceptance cue anywhere in the text (the cheap pre-filter before the model)."""
    return _ACCEPT.search(text) is not None


def _sentence_of(text: str, words: str) -> str:
    """The sentence of ``text`` that holds ``words`` (folded), or ``words`` itself."""
    at = _folded(text).find(words)
    folded = _folded(text)
    start = max(folded.rfind(c, 0, at) for c in ".!?。！？\n") + 1
    ends = [i for i in (folded.find(c, at + len(words)) for c in ".!?。！？") if i != -1]
    end = min(ends) + 1 if ends else len(folded)
    return folded[start:end]


def verified(accepts: bool, words: str, text: str) -> str | None:
    """The customer's own words that accept, or None when code cannot confirm the model."""
    if not accepts:
        return None
    quoted = _folded(words.strip().strip("\"'“”‘’「」"))
    if len(quoted.split()) < MIN_WORDS and len(quoted) < 4:
        return None
    if not quoted or quoted not in _folded(text):
        return None
    if not has_cue(quoted):
        return None
    sentence = _sentence_of(text, quoted)
    if _NOT.search(sentence) or "?" in sentence or "？" in sentence:
        return None
    return words.strip()[:200]
