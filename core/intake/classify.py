"""Classification of one inbound message: A / B / R / C, by the model or by rules.

    A  needs an on-site measure (job address + custom work, whole house, openings to measure)
    B  can be quoted remotely (standard products with sizes, supply only)
    R  a reply on an existing job — merged, never its own inquiry
    C  not an inquiry (suppliers, job applications, colleagues, marketing, spam, phishing)

Both paths report labels (several may apply) plus a few facts (site address, measure needed,
sizes, new project); ``choose_primary`` — plain code, the same for both — picks the primary
class. That keeps the product decision ("A beats B when there is an address and custom work";
"a reply bringing a new address or products is a new inquiry, not R") out of the prompt and
testable. Rules always report confidence "low".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.intake.rules_classify import RuleFacts, rule_facts
from core.intake.view import MessageView

if TYPE_CHECKING:
    from core.llm.model import ModelClient

CLASSES = ("A", "B", "R", "C")
CONFIDENCES = ("high", "medium", "low")


@dataclass
class Classification:
    primary: str  # "A" | "B" | "R" | "C"
    labels: list[str] = field(default_factory=list)
    confidence: str = "low"  # "high" | "medium" | "low"
    reason: str = ""
    source: str = "rules"  # "rules" | "llm" — for the owner's trust, and the benchmark


class ClassifyAnswer(BaseModel):
    """The JSON the model must return (tier 1, prompt ``classify.md``)."""

    model_config = ConfigDict(extra="forbid")

    labels: list[Literal["A", "B", "R", "C"]] = Field(min_length=1)
    confidence: Literal["high", "medium", "low"]
    has_site_address: bool
    needs_measure: bool
    has_sizes: bool
    new_project: bool
    reason: str


def choose_primary(
    labels: list[str],
    view: MessageView,
    *,
    has_site_address: bool,
    needs_measure: bool,
    has_sizes: bool,
    new_project: bool,
) -> str:
    """The deterministic choice of the primary class from labels and facts."""
    present = [x for x in CLASSES if x in labels]
    customer = [x for x in present if x != "C"]
    if not customer:
        return "C"
    existing_job = view.is_reply or view.thread_inquiry is not None or view.known_customer
    if "R" in customer and not new_project and (existing_job or customer == ["R"]):
        return "R"
    if "A" in customer and "B" in customer:
        return "A" if (has_site_address or needs_measure) else "B"
    if "A" in customer:
        return "A"
    if "B" in customer:
        return "B"
    # Only R, but it brings a new project: a new inquiry after all.
    return "A" if (has_site_address or needs_measure or not has_sizes) else "B"


def classify_rules(view: MessageView) -> Classification:
    """Offline classification (no LLM); confidence is always "low"."""
    facts: RuleFacts = rule_facts(view)
    primary = choose_primary(
        facts.labels,
        view,
        has_site_address=facts.has_site_address,
        needs_measure=facts.needs_measure,
        has_sizes=facts.has_sizes,
        new_project=facts.new_project,
    )
    return Classification(
        primary=primary,
        labels=list(facts.labels),
        confidence="low",
        reason=facts.reason,
        source="rules",
    )


def settle_confidence(classification: Classification, extraction: object) -> Classification:
    """Cap the classifier's confidence by what survived grounding (``Extraction.confidence``).

    A model whose copied values were not in the mail is not trusted on the class either: the
    owner sees such an inquiry as "medium" or "low" and checks it."""
    cap = getattr(extraction, "confidence", None)
    if cap in CONFIDENCES and CONFIDENCES.index(cap) > CONFIDENCES.index(
        classification.confidence if classification.confidence in CONFIDENCES else "low"
    ):
        classification.confidence = cap
    return classification


def _thread_text(view: MessageView) -> str:
    thread = view.thread_inquiry
    if not thread:
        return "(no existing job in this thread)"
    lines = ["Existing job for this customer:"]
    for key in ("address", "suburb", "products", "dimensions", "stage"):
        value = thread.get(key)
        if value:
            lines.append(f"- {key}: {', '.join(value) if isinstance(value, list) else value}")
    if thread.get("summary"):
        lines.append(f"- earlier messages: {thread['summary']}")
    return "\n".join(lines)


def prompt_variables(view: MessageView) -> dict[str, str]:
    sender = view.from_name or ""
    sender = f"{sender} <{view.from_addr}>" if view.from_addr else sender
    if view.is_form_relay:
        sender += f" (website form; customer Reply-To {view.reply_to})"
    elif view.is_internal_sender:
        sender += " (a colleague at the company)"
    return {
        "subject": view.subject,
        "sender": sender,
        "is_reply": "yes" if view.is_reply else "no",
        "known_customer": "yes" if view.known_customer else "no",
        "attachments": ", ".join(view.attachments) or "none",
        "thread": _thread_text(view),
        "body": view.body_text[:12000],
    }


def _refs(view: MessageView) -> dict[str, int | None]:
    return {"message_pk": view.message_pk, "inquiry_id": view.inquiry_id}


async def classify_llm(llm: ModelClient, view: MessageView) -> Classification:
    """Tier-1 classification; raises LLMUnavailable / LLMSchemaError for the pipeline."""
    from core.intake.window_fit import structured_within  # loaded with the model's helpers

    answer = await structured_within(
        llm,
        tier=1,
        purpose="classify",
        prompt="classify",
        variables=prompt_variables(view),
        schema=ClassifyAnswer,
        refs=_refs(view),
    )
    labels: list[str] = [x for x in CLASSES if x in answer.labels]
    primary = choose_primary(
        labels,
        view,
        has_site_address=answer.has_site_address,
        needs_measure=answer.needs_measure,
        has_sizes=answer.has_sizes,
        new_project=answer.new_project,
    )
    return contradicted_by_rules(
        Classification(
            primary=primary,
            labels=labels,
            confidence=answer.confidence,
            reason=answer.reason.strip()[:400],
            source="llm",
        ),
        view,
    )


def contradicted_by_rules(classification: Classification, view: MessageView) -> Classification:
    """A model's inquiry class that the rules' non-inquiry cues contradict is capped at low.

    A weak model files a job application, a supplier's invoice or a newsletter as a B inquiry;
    the prefilter's cues for those (``rules_classify._NOT_INQUIRY``) cost nothing to read. The
    model still proposes; code does not overrule it, but the owner is asked (a ``low``
    confidence inquiry raises a 需要您确认 item with this reason)."""
    if classification.primary == "C":
        return classification
    kind = rule_facts(view).not_inquiry_kind
    if kind is None or kind == "internal":
        return classification
    classification.confidence = "low"
    note = f"rules read this as not an inquiry ({kind})"
    classification.reason = f"{note}; model: {classification.reason}"[:400]
    return classification
