"""Offline classification heuristics (A/B/R/C) — the app's classifier when no LLM is set.

Why rules at all: the owner must be able to run the app with no AI endpoint, and a zero-cost
first opinion is useful anyway. The rules read the same MessageView the model gets and produce
the same *facts* the model reports (labels, site address, measure needed, sizes, new project);
``classify.choose_primary`` then picks the primary class from those facts for both paths, so the
deterministic decision lives in one place.

Order of evidence:
1. Not an inquiry (C): a colleague's company address; suppliers (order/price notices, order
   numbers); job applications; marketing/SEO; phishing; automatic notices — each needs at least
   two cues, or one unmistakable one, and loses to strong customer evidence.
2. A reply on an existing job (R): a reply (or a known customer, or a "following up on the
   quote" note) that brings no new address and no new products.
3. A (measure on site) when a street address, a request to measure, or unknown/nominal sizes;
   B (quote remotely) when exact sizes, supply-only, or standard products without an address.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.intake.rules_extract import (
    find_address,
    find_dimensions,
    find_products,
    find_suburb,
    split_body,
)
from core.intake.view import MessageView


def _rx(*patterns: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE)


# (strong cues: one is enough, weak cues: two needed)
_NOT_INQUIRY: dict[str, tuple[re.Pattern[str], re.Pattern[str]]] = {
    "supplier": (
        _rx(
            r"\bsales order\b",
            r"order acknowledge?ment",
            r"\b(?:SO|PO|INV)-?\d{4,}\b",
            r"dear (?:valued )?customer",
            r"price (?:adjustment|increase|list|rise)",
            r"your account manager",
            r"thank you for your order",
            # a supplier confirming our order: "Order confirmation 4471", "Order 4471 confirmed"
            r"\border (?:confirmation (?:no\.? ?|#)?\d{3,}|#?\d{3,} (?:is |has been )?confirmed)",
        ),
        _rx(
            r"\binvoice\b",
            r"\bdelivery\b",
            r"\bdelivered\b",
            r"\btruck\b",
            r"powder ?coat",
            r"\blengths\b",
            r"\bextrusions?\b",
            r"\bwholesale\b",
            r"\bstock\b",
            r"\bfreight\b",
            r"customer service",
            r"\bdispatch",
            r"\bback ?order",
            r"\baccounts team\b",
            r"\byour (?:factory|warehouse|workshop)\b",
        ),
    ),
    "job_application": (
        _rx(
            r"\b(?:my )?(?:cv|resume|résumé) is attached",
            r"\bapply for\b",
            r"\bwould like to apply\b",
            r"job application",
            r"求职",
            r"应聘",
        ),
        _rx(
            r"\bcv\b",
            r"\bresume\b",
            r"\bposition\b",
            r"\bexperience\b",
            r"\bseek\b",
            r"white card",
            r"driver'?s licen[cs]e",
            r"\btrial day\b",
            r"\bnotice\b",
            r"\bapplication\b",
            r"\bemployment\b",
        ),
    ),
    "marketing": (
        _rx(
            r"page (?:1|one) of google",
            r"\bseo\b",
            r"free (?:video )?audit",
            r"\bunsubscribe\b",
            r"marketing agency",
            r"more leads",
        ),
        _rx(
            r"\bgoogle\b",
            r"\brank(?:ing|s)?\b",
            r"\bleads\b",
            r"\bgrowth\b",
            r"\bconsultant\b",
            r"\bwebsite\b",
            r"\bpromo(?:tion)?\b",
            r"\bdiscount\b",
            r"\boffer\b",
            r"\bor you don'?t pay\b",
            r"\bbusinesses\b",
        ),
    ),
    "phishing": (
        _rx(
            r"verify your (?:account|mailbox|email)",
            r"storage (?:limit|quota)",
            r"mailbox (?:is )?(?:almost )?full",
            r"password (?:will )?expire",
            r"account (?:will be )?suspended",
        ),
        _rx(
            r"\bverify\b",
            r"will be deleted",
            r"incoming messages",
            r"\bmicrosoft 365\b",
            r"\badmin cent(?:re|er)\b",
            r"click (?:here|below)",
            r"\b\d{2}% (?:of|full)",
        ),
    ),
    "automated": (
        _rx(r"this is an automated message", r"do not reply to this (?:e-?mail|message)"),
        _rx(r"\bticket\b", r"request #?\d+", r"\bautomated\b", r"\bno-?reply\b"),
    ),
}

_MEASURE = _rx(
    r"\bmeasure\b(?!d)",
    r"\bmeasure-?up\b",
    r"\bto be measured\b",
    r"\bchecked on site\b",
    r"\bsite (?:visit|measure|inspection)\b",
    r"\bcome (?:out|over|and have a look)\b",
    r"\bnot (?:been )?measured\b",
    r"\bsizes? (?:are|is) (?:nominal|approximate|rough)",
    r"上门",
    r"测量",
    r"量一下",
    r"还没有?量",
    r"来量",
)
_SUPPLY_ONLY = _rx(
    r"supply only", r"supply-only", r"\bpick(?: it)? up\b", r"只需要?供货", r"不用安装", r"自提"
)
_WHOLE_JOB = _rx(
    r"whole house",
    r"new (?:build|home|house)",
    r"renovat",
    r"\breno\b",
    r"double storey",
    r"all (?:the |our |\w+ )?windows",
    r"\bopenings? (?:will|may) (?:change|need|be (?:widened|changed|built))",
    r"\bopenings are (?:ready|being)",
    r"wall (?:comes|is coming|is being taken) out",
    r"re-?fram",
    r"全屋",
    r"整栋",
    r"新房",
    r"装修",
)
_QUOTE_REQUEST = _rx(
    r"\bquote\b",
    r"\bprice\b",
    r"\bpricing\b",
    r"how much",
    r"\bcost\b",
    r"报价",
    r"价格",
    r"多少钱",
)
_FOLLOW_UP = _rx(
    r"following up",
    r"follow(?:ing)?[- ]up on",
    r"haven'?t (?:seen|received|heard)",
    r"any update",
    r"chasing (?:up )?(?:the|my) quote",
    r"still waiting",
    r"\bas discussed\b",
    r"go ahead with",
    r"signed off on the quote",
    r"accept(?:ed)? (?:the|your) quote",
    r"催一下",
    r"还没收到",
)
_NEW_PROJECT = _rx(
    r"separate job",
    r"another (?:job|project|property|house)",
    r"new (?:job|project|house|property|place)",
    r"just bought",
    r"different (?:address|property|house)",
    r"另一个",
    r"新房子",
    r"另外一套",
)


@dataclass
class RuleFacts:
    """What the rules saw; the same facts the LLM is asked to report."""

    labels: list[str] = field(default_factory=list)
    has_site_address: bool = False
    needs_measure: bool = False
    has_sizes: bool = False
    new_project: bool = False
    not_inquiry_kind: str | None = None
    reason: str = ""


def _not_inquiry_kind(view: MessageView, text: str) -> tuple[str | None, int]:
    """The strongest non-inquiry cue and its score (strong cue = 2, weak = 1)."""
    if view.is_internal_sender:
        return "internal", 3
    best: tuple[str | None, int] = (None, 0)
    for kind, (strong, weak) in _NOT_INQUIRY.items():
        score = 2 * len({m.group(0).lower() for m in strong.finditer(text)})
        score += len({m.group(0).lower() for m in weak.finditer(text)})
        if score > best[1]:
            best = (kind, score)
    return best if best[1] >= 2 else (None, best[1])


def _thread_products(view: MessageView) -> set[str]:
    return set((view.thread_inquiry or {}).get("products") or [])


def _same_place(view: MessageView, address: str | None, suburb: str | None) -> bool:
    thread = view.thread_inquiry or {}
    old_address = str(thread.get("address") or "").lower()
    old_suburb = str(thread.get("suburb") or "").lower()
    if address and old_address:
        number = re.match(r"\s*(\S+)", address)
        return number is not None and old_address.startswith(number.group(1).lower())
    if suburb and old_suburb:
        return suburb.lower() == old_suburb
    return not thread  # no known job to compare with: treat an address as new only if stated


@dataclass
class _Signals:
    """The cues the rules read off one message."""

    text: str
    products: list[str]
    sizes: list[str]
    exact_pairs: list[str]
    address: str | None
    suburb: str | None
    measure: bool
    whole_job: bool
    supply_only: bool
    quote_request: bool


def _signals(view: MessageView) -> _Signals:
    body = view.body_text or ""
    text = f"{view.subject or ''}\n{body}"
    parts = split_body(body)
    sizes = find_dimensions(body)
    address, address_suburb = find_address(parts.main)
    if not address and parts.form.get("address"):
        address, address_suburb = find_address(parts.form["address"])
        address = address or parts.form["address"]
    return _Signals(
        text=text,
        products=find_products(body if view.is_reply else text),
        sizes=sizes,
        exact_pairs=[s for s in sizes if " x " in s],
        address=address,
        suburb=address_suburb or find_suburb(parts.main),
        measure=bool(_MEASURE.search(body)),
        whole_job=bool(_WHOLE_JOB.search(text)),
        supply_only=bool(_SUPPLY_ONLY.search(body)),
        quote_request=bool(_QUOTE_REQUEST.search(text)),
    )


def rule_facts(view: MessageView) -> RuleFacts:
    body = view.body_text or ""
    sig = _signals(view)
    facts = RuleFacts(
        has_site_address=bool(sig.address),
        needs_measure=sig.measure
        or (bool(sig.address) and not sig.exact_pairs)
        or (sig.whole_job and not sig.exact_pairs),
        has_sizes=bool(sig.exact_pairs),
    )
    customer_evidence = (
        bool(sig.products)
        and (bool(sig.sizes) or bool(sig.address) or sig.quote_request or sig.measure)
    ) or sig.measure

    kind, score = _not_inquiry_kind(view, sig.text)
    if kind and (kind == "internal" or score >= 3 or not customer_evidence):
        facts.labels = ["C"]
        facts.not_inquiry_kind = kind
        facts.reason = f"rules: looks like {kind.replace('_', ' ')} mail, not a customer inquiry"
        return facts

    # Replies and follow-ups on an existing job.
    new_products = set(sig.products) - _thread_products(view) if view.thread_inquiry else set()
    new_place = bool(sig.address) and not _same_place(view, sig.address, sig.suburb)
    facts.new_project = bool(
        _NEW_PROJECT.search(body)
        or (view.thread_inquiry and new_place)
        or (
            view.thread_inquiry and new_products and (sig.address or sig.exact_pairs or sig.measure)
        )
    )
    if _is_follow_up(view, sig, facts.new_project):
        facts.labels = ["R"]
        facts.reason = "rules: reply on an existing job with no new address or products"
        return facts
    existing_job = view.is_reply or view.thread_inquiry is not None or view.known_customer
    facts.labels = _request_labels(sig, facts, existing_job, kind)
    facts.reason = _reason(sig, facts.new_project)
    return facts


def _is_follow_up(view: MessageView, sig: _Signals, new_project: bool) -> bool:
    follow_up = bool(_FOLLOW_UP.search(view.body_text or ""))
    existing_job = view.is_reply or view.thread_inquiry is not None or view.known_customer
    return bool(
        (existing_job or follow_up)
        and not new_project
        and (
            view.is_reply
            or view.thread_inquiry is not None
            or follow_up
            or not (sig.address or sig.exact_pairs or sig.measure)
        )
    )


def _request_labels(
    sig: _Signals, facts: RuleFacts, existing_job: bool, kind: str | None
) -> list[str]:
    labels: list[str] = []
    if facts.needs_measure:
        labels.append("A")
    if sig.exact_pairs or sig.supply_only or (sig.products and not sig.address and not sig.measure):
        labels.append("B")
    if not labels:
        if sig.products or sig.quote_request or sig.address:
            labels.append("A" if sig.address else "B")
        elif existing_job:
            labels.append("R")
        else:
            labels.append("C")
            facts.not_inquiry_kind = kind or "no_request"
    return labels


def _reason(sig: _Signals, new_project: bool) -> str:
    bits = []
    if sig.address:
        bits.append("a street address")
    if sig.measure:
        bits.append("a request to measure")
    if sig.exact_pairs:
        bits.append("exact sizes")
    if sig.supply_only:
        bits.append("supply only")
    if sig.products:
        bits.append("products " + ", ".join(sig.products))
    if new_project:
        bits.append("a new project in an existing thread")
    return "rules: " + (", ".join(bits) if bits else "no inquiry cues")
