"""Phones are stored E.164 and shown the way an Australian writes and dials them."""

from __future__ import annotations

from core.intake.normalize import normalize_phone
from core.phones import display_phone


def test_australian_mobiles_and_landlines_in_national_format() -> None:
    assert display_phone("+61401998213") == "0401 998 213"
    assert display_phone("+61295224817") == "(02) 9522 4817"
    assert display_phone("+61738001234") == "(07) 3800 1234"


def test_a_number_from_another_country_keeps_its_country_code() -> None:
    assert display_phone("+442079460958") == "+44 20 7946 0958"


def test_display_and_storage_round_trip() -> None:
    for written in ("0401 998 213", "+61 401 998 213", "0401998213", "(02) 9522 4817"):
        stored = normalize_phone(written)
        assert stored is not None and stored.startswith("+61")
        assert normalize_phone(display_phone(stored)) == stored


def test_what_is_not_a_phone_is_shown_as_it_is() -> None:
    assert display_phone(None) == ""
    assert display_phone("") == ""
    assert display_phone("ask for Bob") == "ask for Bob"
    assert display_phone("+61 12") == "+61 12"
