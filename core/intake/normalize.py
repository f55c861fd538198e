"""Normalising what customers write: phones to E.164, email addresses to one spelling.

Why: the same customer writes "0412 345 678", "+61 412 345 678" and "0412345678"; merging by
phone only works when all three become ``+61412345678``. ``phonenumbers`` (libphonenumber) knows
every country's plan, so an NZ mobile stays ``+64…`` and a Sydney landline "(02) 9871 4526"
becomes ``+61298714526``. Anything that is not a valid number is ``None``, never a guess.
"""

from __future__ import annotations

import re

import phonenumbers
from phonenumbers import Leniency, PhoneNumberFormat, PhoneNumberMatcher

from core.text.email_address import normalize_email as normalize_email

# Fullwidth digits and punctuation Chinese keyboards produce ("０４１２　３４５"), and the
# "(0)" some people put after the country code ("+61 (0)412 …").
_FULLWIDTH = str.maketrans("０１２３４５６７８９＋（）－　", "0123456789+()- ")
_TRUNK_ZERO = re.compile(r"(\+\d{1,3})\s*\(0\)\s*")


def _clean(text: str) -> str:
    return _TRUNK_ZERO.sub(r"\1 ", text.translate(_FULLWIDTH)).strip()


def normalize_phone(text: str | None, region: str = "AU") -> str | None:
    """E.164 (``+61412345678``) for a valid number written any usual way, else ``None``."""
    if not text or not isinstance(text, str):
        return None
    cleaned = _clean(text)
    if not re.search(r"\d", cleaned) or len(re.sub(r"\D", "", cleaned)) > 17:
        return None
    try:
        number = phonenumbers.parse(cleaned, region or "AU")
    except phonenumbers.NumberParseException:
        return None
    if not phonenumbers.is_valid_number(number):
        return None
    return phonenumbers.format_number(number, PhoneNumberFormat.E164)


def find_phones(text: str | None, region: str = "AU") -> list[str]:
    """Every valid phone number in free text, as E.164, in order of appearance, no repeats.

    Sizes ("1810 x 1200"), dates and order numbers are not numbers libphonenumber accepts as
    valid, so they are not mistaken for phones.
    """
    if not text:
        return []
    found: list[str] = []
    for match in PhoneNumberMatcher(_clean(text), region or "AU", leniency=Leniency.VALID):
        e164 = phonenumbers.format_number(match.number, PhoneNumberFormat.E164)
        if e164 not in found:
            found.append(e164)
    return found
