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
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from core.glossary import glossary, is_product
from core.intake.normalize import normalize_email, normalize_phone
from core.intake.rules_extract import extract_fields
from core.intake.view import MessageView, guess_language

if TYPE_CHECKING:
    from core.llm.client import LLMClient

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
    dropped: list[str] = field(default_factory=list)  # fields removed by validation (for logs)
    source: str = "rules"


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


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text or "")


def _clean_text(value: Any, limit: int) -> str | None:
    if not isinstance(value, str):
        return None
    text = " ".join(value.split()).strip(" ,;")
    if not text or text.lower() in {"null", "none", "n/a", "unknown", "-"}:
        return None
    return text[:limit]


def validate_fields(raw: dict[str, Any], view: MessageView, *, source: str) -> Extraction:
    """Turn unchecked fields into an Extraction, dropping whatever fails its check."""
    dropped: list[str] = []
    haystack = f"{view.subject}\n{view.body_text}"
    haystack_digits = _digits(haystack)

    header_email = view.customer_email
    text_email = raw.get("customer_email", raw.get("email"))
    model_email = normalize_email(text_email) if text_email else None
    if text_email and not model_email:
        dropped.append("customer_email")
    customer_email = header_email or model_email

    phone = None
    raw_phone = raw.get("customer_phone", raw.get("phone"))
    if raw_phone:
        phone = normalize_phone(str(raw_phone), view.region)
        if phone:
            national = _digits(phone)[-8:]  # the subscriber digits must be in the email
            if national not in haystack_digits:
                phone = None
        if phone is None:
            dropped.append("customer_phone")

    suburb = _clean_text(raw.get("suburb"), 60)
    if suburb and suburb.lower() not in haystack.lower():
        dropped.append("suburb")
        suburb = None

    products: list[str] = []
    for key in raw.get("product_types") or []:
        key = str(key).strip()
        if is_product(key):
            if key not in products:
                products.append(key)
        else:
            dropped.append(f"product_types:{key}")

    dimensions = []
    for item in raw.get("dimensions") or []:
        text = _clean_text(item, 60)
        if text and re.search(r"\d", text) and text not in dimensions:
            dimensions.append(text)
        elif item:
            dropped.append("dimensions")

    urgency = raw.get("urgency")
    urgency = urgency.strip().lower() if isinstance(urgency, str) else None
    if urgency not in URGENCIES:
        if urgency:
            dropped.append("urgency")
        urgency = None

    language = raw.get("language")
    language = language.strip().lower()[:2] if isinstance(language, str) else None
    if language not in LANGUAGES:
        language = guess_language(view.body_text) if view.body_text.strip() else view.language

    name = _clean_text(raw.get("customer_name"), 120)
    if name and ("@" in name or re.search(r"\d{3}", name)):
        dropped.append("customer_name")
        name = None

    return Extraction(
        customer_name=name,
        customer_email=customer_email,
        customer_phone=phone,
        address=_clean_text(raw.get("address"), 200),
        suburb=suburb,
        product_types=products,
        dimensions=dimensions,
        urgency=urgency,
        language=language,
        dropped=dropped,
        source=source,
    )


def extract_rules(view: MessageView) -> Extraction:
    """Offline extraction by regex and word lists (validated like the model's)."""
    return validate_fields(extract_fields(view), view, source="rules")


def understand_by_rules(view: MessageView) -> tuple[Any, Extraction | None]:
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


async def extract_llm(llm: LLMClient, view: MessageView) -> Extraction:
    """Tier-2 extraction; raises LLMUnavailable / LLMSchemaError for the pipeline."""
    answer = await llm.structured(
        tier=2,
        purpose="extract",
        prompt="extract",
        variables=_prompt_variables(view),
        schema=ExtractAnswer,
        refs={"message_pk": view.message_pk, "inquiry_id": view.inquiry_id},
    )
    return validate_fields(answer.model_dump(), view, source="llm")
