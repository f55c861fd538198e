"""The tier-1 model's second opinion on an unhappy customer, checked against the mail itself.

The phrase rules (``core.intake.escalation``) catch "refund", "律师", "very disappointed" at no
cost, and miss "we'd like what we paid returned" or "the frames arrived scratched". So, cheap
before expensive: when the rules found nothing but the mail *looks* negative (``plausibly_negative``:
a short word list, no model), or when they matched only weakly (one angry or defect word), the
tier-1 model is asked (prompt ``escalate.md``, JSON checked by ``EscalationAnswer``).

The model proposes, code verifies: its ``quote`` must be words the customer really wrote (found
in the mail text after folding case, quotes and spaces), and a defect counts only on a job we
ordered or installed, as for the rules. An answer that fails either check is dropped (logged),
and the rules alone decide. No endpoint, an unreachable one or a broken answer: the rules alone
decide too — this opinion never makes a message wait or fail. The call is one ledger row like
every other (purpose ``escalate``).
"""

from __future__ import annotations

import logging
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.errors import LLMError
from core.intake.escalation import AFTER_SALE, REASONS_ZH, Escalation, escalation_in

if TYPE_CHECKING:
    from core.intake.view import MessageView
    from core.llm.model import ModelClient

log = logging.getLogger(__name__)

PURPOSE = "escalate"
MIN_QUOTE_CHARS = 4  # "bad" alone proves nothing; a real quote is a phrase

# Words an unhappy customer uses that are too weak (or too common) to flag by themselves: they
# only decide whether the model is worth asking.
_NEGATIVE = re.compile(
    r"\b(disappoint\w*|dissatisf\w*|unhappy|not (happy|impressed|good enough)|upset|annoy\w*|"
    r"frustrat\w*|scratch\w*|damag\w*|dent(ed|s)?|chipped|wrong|poorly|worst|awful|horrible|"
    r"poor (service|workmanship|quality|communication|job|finish)|rude|ignored|ignoring (us|me)|"
    r"still waiting|(no ?one|nobody|never) (came|arrived|called|rang|replied|turned up|got back)|"
    r"waste|what we paid|paid for|cancel\w*|mess(ed)? up|let down|not what we)\b"
    r"|失望|不满|生气|划痕|刮花|损坏|等了|没人|太慢|取消|不行|糟糕|差劲",
    re.IGNORECASE,
)
_WEAK_REASONS = frozenset({"angry", "defect"})


class EscalationAnswer(BaseModel):
    """The JSON the model must return (tier 1, prompt ``escalate.md``)."""

    model_config = ConfigDict(extra="forbid")

    escalate: bool
    reason: Literal["legal", "refund", "complaint", "angry", "defect", "none"]
    quote: str = Field(max_length=400)


@dataclass(frozen=True)
class Opinion:
    """The model's verified view: ``escalate`` with a reason and the customer's own words."""

    escalate: bool
    reason: str = "none"
    quote: str = ""

    def detail(self) -> str:
        """The 需要您确认 line when the model (not a rule) found it."""
        return f"{REASONS_ZH[self.reason]}（AI 判断）：“{self.quote}”"


def plausibly_negative(text: str | None) -> bool:
    """Worth a model call: a negative word the rules do not treat as a complaint by itself."""
    return bool(text and _NEGATIVE.search(text))


def weak(found: Escalation) -> bool:
    """A rule hit on one angry or defect word only: the model is asked to look again."""
    return len(found.words) == 1 and set(found.reasons) <= _WEAK_REASONS


def _folded(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"[‘’`´]", "'", text)
    text = re.sub(r"[“”„«»\"]", "", text)
    return re.sub(r"\s+", " ", text).strip()


def verified(answer: EscalationAnswer, text: str, *, after_sale: bool) -> Opinion | None:
    """The model's answer as an ``Opinion``, or None when code cannot confirm it."""
    if not answer.escalate:
        return Opinion(False)
    quote = answer.quote.strip().strip("\"'“”‘’「」").strip()
    folded = _folded(quote).strip(" .,!?;:。，！？；：")
    if answer.reason == "none" or len(folded) < MIN_QUOTE_CHARS:
        log.info("escalation opinion rejected: no reason or no quote (%r)", answer.quote[:80])
        return None
    if answer.reason == "defect" and not after_sale:
        log.info("escalation opinion rejected: a defect on a job we did not supply")
        return None
    if folded not in _folded(text):
        log.info("escalation opinion rejected: quote not in the mail (%r)", quote[:80])
        return None
    return Opinion(True, answer.reason, quote[:200])


def after_sale_of(view: MessageView) -> bool:
    return (view.thread_inquiry or {}).get("stage") in AFTER_SALE


def worth_asking(view: MessageView) -> bool:
    """No rule hit but a negative word, or a weak hit; never for a strong rule hit."""
    found = escalation_in(view.body_text, after_sale=after_sale_of(view))
    if found is not None:
        return weak(found)
    return plausibly_negative(view.body_text)


async def second_opinion(llm: ModelClient, view: MessageView) -> Opinion | None:
    """The verified opinion, or None (not asked, call failed, answer rejected)."""
    if not worth_asking(view):
        return None
    stage = (view.thread_inquiry or {}).get("stage") or "none (a new sender)"
    try:
        answer = await llm.structured(
            tier=1,
            purpose=PURPOSE,
            prompt="escalate",
            variables={"subject": view.subject, "stage": stage, "body": view.body_text[:8000]},
            schema=EscalationAnswer,
            refs={"message_pk": view.message_pk, "inquiry_id": view.inquiry_id},
        )
    except LLMError as exc:  # the rules alone decide; the message goes on
        log.info("escalation opinion unavailable: %s", exc)
        return None
    return verified(answer, view.body_text, after_sale=after_sale_of(view))
