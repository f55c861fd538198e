"""How a stored phone number is shown to a person.

Phones are stored as E.164 (``+61401998213``: one customer however he wrote it) and shown the way
an Australian reads and dials them: ``0401 998 213``, ``(02) 9522 4817``. A number from another
country keeps its country code (``+44 20 7946 0958``). This is the one display function: the
board, the detail view, the briefing and the alerts (tray and Telegram) all call it, so a number
looks the same wherever the owner meets it.
"""

from __future__ import annotations

import phonenumbers
from phonenumbers import PhoneNumberFormat


def display_phone(stored: str | None, region: str = "AU") -> str:
    """``stored`` (E.164, or whatever an older row holds) as a person writes it in ``region``.

    A number of ``region`` gets its national format, any other its international format; text
    that is not a phone number is returned unchanged (never hidden, never guessed at).
    """
    if not stored:
        return ""
    try:
        number = phonenumbers.parse(stored, region or "AU")
    except phonenumbers.NumberParseException:
        return stored
    if not phonenumbers.is_valid_number(number):
        return stored
    home = phonenumbers.region_code_for_number(number) == (region or "AU").upper()
    style = PhoneNumberFormat.NATIONAL if home else PhoneNumberFormat.INTERNATIONAL
    return phonenumbers.format_number(number, style)
