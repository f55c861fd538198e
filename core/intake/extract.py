"""Extraction of an inquiry's facts, by the model (tier 2) or by rules, always validated.

Why validation here and not in the store: a model can invent an address-shaped string, a phone
that is not a phone, or a product we do not sell. Every field passes a check before it leaves
this module; an invalid one is dropped (``None`` / left out), never stored:

- ``customer_email`` comes from the headers (From, or Reply-To of a website form) — never from
  model output; a model-read address is still checked but only used as a fallback when the
  headers have none.
- ``customer_phone`` must parse with ``phonenumbers`` (E.164 out) and its digits must appear in
  the email text (a model cannot make one up).
- ``product_types`` are glossary keys only; ``suburb`` must appear in the email text;
  ``dimensions`` must contain numbers; ``urgency`` and ``language`` come from small vocabularies.

A model's answer then passes *grounding* (``core.intake.grounding``): each copied value — name,
email, phone, address, suburb, dimensions, dates, budget — must be found in the customer's text,
else it is dropped (recorded in ``grounding_drops`` with the reason) and the rules' value for the
field is used when they have one. Products the mail does not support are dropped the same way; a
name the mail greets is dropped as the addressee; a phone is re-read from the mail's own digits.
Urgency and language are inference, listed in ``model_made``. ``confidence`` caps the
classifier's confidence by what survived.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from core.db.models import CUSTOMER_FIELDS
from core.glossary import glossary, is_product
from core.intake.grounding import Evidence, GroundingDrop, confidence_after
from core.intake.normalize import normalize_email, normalize_phone
from core.intake.rules_extract import extract_fields
from core.intake.view import MessageView, guess_language

if TYPE_CHECKING:
    from core.intake.classify import Classification
    from core.llm.model import ModelClient

URGENCIES = ("high", "normal", "low")
LANGUAGES = ("zh", "en")


@dataclass
class Extraction:
    customer_name: str | None = None
    customer_email: str | None = None
    customer_phone: str | None = None  # E.164
    address: str | None = None
    suburb: str | None = None
    product_types: list[str] = field(default_factory=list)  # glossary keys
    dimensions: list[str] = field(default_factory=list)  # "1800 x 1200 mm"
    urgency: str | None = None  # high | normal | low
    language: str | None = None  # zh | en
    dates: list[str] = field(default_factory=list)  # dates the customer gave, as written
    budget: str | None = None  # the customer's budget, as written
    dropped: list[str] = field(default_factory=list)  # fields removed by validation (for logs)
    source: str = "rules"
    # what grounding removed ({"field", "value", "why"}), for the accuracy report
    grounding_drops: list[dict[str, str]] = field(default_factory=list)
    model_made: list[str] = field(default_factory=list)  # inferred, not copied ("urgency", …)
    from_rules: list[str] = field(default_factory=list)  # fields the rules filled after a drop
    confidence: str | None = None  # the most the classification may claim (None: no cap)

    @property
    def grounding(self) -> dict[str, Any]:
        """What the accuracy report and the inquiry's record keep about this extraction."""
        return {
            "source": self.source,
            "drops": list(self.grounding_drops),
            "model_made": list(self.model_made),
            "from_rules": list(self.from_rules),
            "confidence_cap": self.confidence,
        }


class ExtractAnswer(BaseModel):
    """The JSON the model must return (tier 2, prompt ``extract.md``)."""

    model_config = ConfigDict(extra="forbid")

    customer_name: str | None
    email: str | None
    phone: str | None
    address: str | None
    suburb: str | None
    product_types: list[str]
    dimensions: list[str]
    urgency: str | None
    language: str | None
    dates: list[str] = []
    budget: str | None = None


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text or "")


def _clean_text(value: object, limit: int) -> str | None:
    if not isinstance(value, str):
        return None
    text = " ".join(value.split()).strip(" ,;")
    if not text or text.lower() in {"null", "none", "n/a", "unknown", "-"}:
        return None
    return text[:limit]


@dataclass
class _FieldCheck:
    """One pass over the unchecked fields: what was dropped and why, what the model made up.

    Each method checks one field and returns its clean value; the order the methods run in is
    the order ``dropped`` lists the fields in."""

    view: MessageView
    grounded: bool
    evidence: Evidence
    dropped: list[str] = field(default_factory=list)
    drops: list[GroundingDrop] = field(default_factory=list)
    model_made: list[str] = field(default_factory=list)
    offered: int = 0

    def drop(self, name: str, value: object, why: str, label: str | None = None) -> None:
        self.dropped.append(label or name)
        self.drops.append(GroundingDrop(name, str(value), why))

    def offer(self, value: object) -> None:
        if value not in (None, "", []):
            self.offered += 1

    def email(self, raw: dict[str, Any]) -> str | None:
        header_email = self.view.customer_email
        text_email = raw.get("customer_email", raw.get("email"))
        self.offer(text_email)
        model_email = normalize_email(text_email) if text_email else None
        if text_email and not model_email:
            self.drop("customer_email", text_email, "invalid")
        elif model_email and self.grounded and not self.evidence.has_email(model_email):
            self.drop("customer_email", model_email, "not_in_mail")
            model_email = None
        return header_email or model_email

    def phone(self, raw: dict[str, Any]) -> str | None:
        phone = None
        raw_phone = raw.get("customer_phone", raw.get("phone"))
        self.offer(raw_phone)
        if raw_phone:
            phone = normalize_phone(str(raw_phone), self.view.region)
            if phone is None:
                self.drop("customer_phone", raw_phone, "invalid")
            elif not self.evidence.has_phone(phone):  # the subscriber digits must be in the email
                self.drop("customer_phone", raw_phone, "not_in_mail")
                phone = None
            elif self.grounded:
                # the number is read off the mail's own digits, never the model's spelling of it
                phone = self.evidence.mail_phone(phone)
                if phone is None:
                    self.drop("customer_phone", raw_phone, "not_in_mail")
        return phone

    def suburb(self, raw: dict[str, Any]) -> str | None:
        suburb = _clean_text(raw.get("suburb"), 60)
        self.offer(suburb)
        if suburb and not self.evidence.has_phrase(suburb):
            self.drop("suburb", suburb, "not_in_mail")
            suburb = None
        return suburb

    def address(self, raw: dict[str, Any]) -> str | None:
        address = _clean_text(raw.get("address"), 200)
        self.offer(address)
        if address and self.grounded and not self.evidence.has_phrase(address):
            self.drop("address", address, "not_in_mail")
            address = None
        return address

    def products(self, raw: dict[str, Any]) -> list[str]:
        products: list[str] = []
        for key in raw.get("product_types") or []:
            key = str(key).strip()
            if is_product(key):
                if key not in products:
                    products.append(key)
            else:
                self.drop("product_types", key, "invalid", f"product_types:{key}")
        if self.grounded and products:
            # a product the mail does not support is dropped, not stored: a weak model that
            # answers the whole glossary must not fill the board with 17 products
            for key in products:
                self.offer(key)
            unsupported = [k for k in products if not self.evidence.supports_product(k)]
            for key in unsupported:
                self.drop("product_types", key, "not_in_mail", f"product_types:{key}")
            products = [k for k in products if k not in unsupported]
        return products

    def dimensions(self, raw: dict[str, Any]) -> list[str]:
        dimensions: list[str] = []
        for item in raw.get("dimensions") or []:
            text = _clean_text(item, 60)
            self.offer(text)
            if text and re.search(r"\d", text) and text not in dimensions:
                if self.grounded and not self.evidence.has_numbers(text):
                    self.drop("dimensions", text, "not_in_mail")
                else:
                    dimensions.append(text)
            elif item:
                self.drop("dimensions", item, "invalid")
        return dimensions

    def dates(self, raw: dict[str, Any]) -> list[str]:
        dates: list[str] = []
        for item in raw.get("dates") or []:
            text = _clean_text(item, 60)
            self.offer(text)
            if not text or text in dates:
                continue
            if self.grounded and not self.evidence.has_facts(text):
                self.drop("dates", text, "not_in_mail")
            else:
                dates.append(text)
        return dates

    def budget(self, raw: dict[str, Any]) -> str | None:
        budget = _clean_text(raw.get("budget"), 60)
        self.offer(budget)
        if budget and self.grounded and not self.evidence.has_facts(budget):
            self.drop("budget", budget, "not_in_mail")
            budget = None
        return budget

    def urgency(self, raw: dict[str, Any]) -> str | None:
        urgency = raw.get("urgency")
        urgency = urgency.strip().lower() if isinstance(urgency, str) else None
        if urgency not in URGENCIES:
            if urgency:
                self.drop("urgency", urgency, "invalid")
            urgency = None
        elif self.grounded:
            self.model_made.append("urgency")
        return urgency

    def language(self, raw: dict[str, Any]) -> str | None:
        language = raw.get("language")
        language = language.strip().lower()[:2] if isinstance(language, str) else None
        if language not in LANGUAGES:
            view = self.view
            language = guess_language(view.body_text) if view.body_text.strip() else view.language
        elif self.grounded:
            self.model_made.append("language")
        return language

    def name(self, raw: dict[str, Any]) -> str | None:
        name = _clean_text(raw.get("customer_name"), 120)
        self.offer(name)
        if name and ("@" in name or re.search(r"\d{3}", name)):
            self.drop("customer_name", name, "invalid")
            name = None
        elif name and self.grounded and not self.evidence.has_name(name):
            self.drop("customer_name", name, "not_in_mail")
            name = None
        elif name and self.grounded and self.evidence.is_greeted_not_sender(name):
            self.drop("customer_name", name, "addressee")  # "Hi Jason": the reader, not the sender
            name = None
        return name


def validate_fields(raw: dict[str, Any], view: MessageView, *, source: str) -> Extraction:
    """Turn unchecked fields into an Extraction, dropping whatever fails its check.

    For the model's answer (``source="llm"``) every copied value must also be grounded in the
    customer's text; what is not is dropped with ``why="not_in_mail"``."""
    grounded = source == "llm"
    check = _FieldCheck(view, grounded, Evidence(view))
    # the order of these calls is the order of ``dropped``
    customer_email = check.email(raw)
    phone = check.phone(raw)
    suburb = check.suburb(raw)
    address = check.address(raw)
    products = check.products(raw)
    dimensions = check.dimensions(raw)
    dates = check.dates(raw)
    budget = check.budget(raw)
    urgency = check.urgency(raw)
    language = check.language(raw)
    name = check.name(raw)
    return Extraction(
        customer_name=name,
        customer_email=customer_email,
        customer_phone=phone,
        address=address,
        suburb=suburb,
        product_types=products,
        dimensions=dimensions,
        urgency=urgency,
        language=language,
        dates=dates,
        budget=budget,
        dropped=check.dropped,
        source=source,
        grounding_drops=[d.as_dict() for d in check.drops] if grounded else [],
        model_made=check.model_made,
        confidence=confidence_after(check.offered, len(check.drops)) if grounded else None,
    )


# The customer fields the model must copy from the mail (``CUSTOMER_FIELDS``, the one list):
# product types are inference, never dropped by grounding, so never refilled from the rules.
_FALLBACK_FIELDS = tuple(name for name in CUSTOMER_FIELDS if name != "product_types")


def fill_from_rules(extraction: Extraction, rules: Extraction) -> Extraction:
    """Where grounding or validation dropped a model value, use the rules' value, if any.

    The rules read the same text with regexes, so what they find is in the mail by construction.
    """
    dropped_fields = {d["field"] for d in extraction.grounding_drops}
    for name in _FALLBACK_FIELDS:
        if name not in dropped_fields or getattr(extraction, name):
            continue
        value = getattr(rules, name)
        if value:
            setattr(extraction, name, list(value) if isinstance(value, list) else value)
            extraction.from_rules.append(name)
    return extraction


def extract_rules(view: MessageView) -> Extraction:
    """Offline extraction by regex and word lists (validated like the model's)."""
    return validate_fields(extract_fields(view), view, source="rules")


def understand_by_rules(view: MessageView) -> tuple[Classification, Extraction | None]:
    """The offline classifier and extractor in one call (a pure function of the view, so the
    pipeline can run it in its worker process, away from the UI's event loop)."""
    from core.intake.classify import classify_rules

    classification = classify_rules(view)
    if classification.primary == "C":
        return classification, None
    return classification, extract_rules(view)


def _prompt_variables(view: MessageView) -> dict[str, str]:
    sender = view.from_name or ""
    if view.from_addr:
        sender = f"{sender} <{view.from_addr}>"
    if view.is_form_relay:
        sender += f" (website form; customer Reply-To {view.reply_to})"
    return {
        "subject": view.subject,
        "sender": sender,
        "body": view.body_text[:12000],
        "product_keys": ", ".join(glossary()),
        "product_names_zh": ", ".join(f"{v['zh']}={k}" for k, v in glossary().items()),
    }


async def extract_llm(llm: ModelClient, view: MessageView) -> Extraction:
    """Tier-2 extraction; raises LLMUnavailable / LLMSchemaError for the pipeline."""
    from core.intake.window_fit import structured_within  # loaded with the model's helpers

    answer = await structured_within(
        llm,
        tier=2,
        purpose="extract",
        prompt="extract",
        variables=_prompt_variables(view),
        schema=ExtractAnswer,
        refs={"message_pk": view.message_pk, "inquiry_id": view.inquiry_id},
    )
    return ground_answer(answer.model_dump(), view)


def ground_answer(raw: dict[str, Any], view: MessageView) -> Extraction:
    """The model's raw fields, validated, grounded in the mail and completed by the rules."""
    extraction = validate_fields(raw, view, source="llm")
    if extraction.grounding_drops:
        fill_from_rules(extraction, extract_rules(view))
    return extraction
