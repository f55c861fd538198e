"""Complaints are not inquiries: phrase rules that notice an unhappy customer before anyone
drafts a cheerful reply.

The seed system's first escalation layer: a customer who writes "broken", "refund", "very
disappointed", "lawyer", "投诉" or "律师" needs the owner himself, not a template. Rules first (no
model call, English and Chinese); a hit raises 需要您确认 (``complaint``) naming the words found,
and the board puts that job at the top. Only the customer's new text is read (quotes of our own
mail are stripped before this), so our "sorry for the delay" never flags itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# (reason shown to the owner, pattern). Word boundaries for English; Chinese has none.
_SIGNALS: tuple[tuple[str, str], ...] = (
    ("legal", r"\b(lawyer|solicitor|legal action|sue you|tribunal|ncat|fair trading|accc)\b"),
    ("legal", r"律师|起诉|法院|消协|消费者协会|公平交易"),
    ("refund", r"\b(refund(s|ed|ing)?|money back|charge ?back|compensation)\b"),
    ("refund", r"退款|退钱|赔偿|退货"),
    ("complaint", r"\b(complain(t|ing)?|unacceptable|disgrace(ful)?|appalling|terrible service)\b"),
    ("complaint", r"投诉|差评|太差|不负责"),
    ("angry", r"\b(very|extremely|really|so) (disappointed|unhappy|upset|angry|frustrated)\b"),
    ("angry", r"\b(furious|fed up|never again|scam|rip[- ]?off)\b"),
    ("angry", r"很失望|太失望|非常失望|很生气|不满意|气死"),
    (
        "defect",
        r"\b(broken|cracked|leak(s|ing|ed)?|faulty|defect(ive)?|doesn'?t (close|lock|open))\b",
    ),
    ("defect", r"坏了|漏水|裂了|质量问题|关不上|锁不上"),
)
# stages of a job we ordered or installed: only there does "broken" or "leaking" mean our work
AFTER_SALE = ("ordered", "production", "install", "done")
_COMPILED = tuple((reason, re.compile(p, re.IGNORECASE)) for reason, p in _SIGNALS)

REASONS_ZH = {
    "legal": "提到律师/投诉机构",
    "refund": "要求退款或赔偿",
    "complaint": "投诉",
    "angry": "客户情绪不满",
    "defect": "产品损坏或质量问题",
}


@dataclass(frozen=True)
class Escalation:
    reasons: tuple[str, ...]  # legal | refund | complaint | angry | defect, strongest first
    words: tuple[str, ...]  # what the customer wrote, as written

    def detail(self) -> str:
        """One line for 需要您确认: the reasons in Chinese and the customer's own words."""
        said = "、".join(REASONS_ZH[r] for r in self.reasons)
        quoted = "，".join(f"“{w}”" for w in self.words[:4])
        return f"{said}：{quoted}"


def escalation_in(text: str | None, *, after_sale: bool = False) -> Escalation | None:
    """The complaint, refund, legal, angry or defect signals in ``text`` (None when calm).

    A broken or leaking window is what a new customer asks to have replaced (glass replacement
    is a product): defect words count only ``after_sale``, on a job we ordered or installed.
    """
    if not text:
        return None
    reasons: list[str] = []
    words: list[str] = []
    for reason, pattern in _COMPILED:
        if reason == "defect" and not after_sale:
            continue
        for found in pattern.finditer(text):
            if reason not in reasons:
                reasons.append(reason)
            word = found.group(0).strip()
            if word.lower() not in (w.lower() for w in words):
                words.append(word)
    if not reasons:
        return None
    order = list(REASONS_ZH)
    return Escalation(tuple(sorted(reasons, key=order.index)), tuple(words))
