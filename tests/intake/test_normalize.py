"""Phones become one E.164 spelling whatever way the customer wrote them; emails one case."""

from __future__ import annotations

import pytest

from core.intake.normalize import find_phones, normalize_email, normalize_phone


@pytest.mark.parametrize(
    ("written", "e164"),
    [
        ("0412 345 678", "+61412345678"),
        ("+61 412 345 678", "+61412345678"),
        ("0412345678", "+61412345678"),
        ("0412-345-678", "+61412345678"),
        ("+61 (0)412 345 678", "+61412345678"),
        ("０４１２ ３４５ ６７８", "+61412345678"),  # fullwidth digits from a Chinese keyboard
        ("(02) 9871 4526", "+61298714526"),
        ("02 9871 4526", "+61298714526"),
        ("+64 27 482 9135", "+64274829135"),  # NZ mobile keeps its country
        ("+86 138 0013 8000", "+8613800138000"),
    ],
)
def test_normalize_phone_to_e164(written: str, e164: str) -> None:
    assert normalize_phone(written) == e164


@pytest.mark.parametrize("junk", ["", None, "call me", "12345", "1810 x 1200", "0412", "SO-48812"])
def test_not_a_phone_is_none(junk: str | None) -> None:
    assert normalize_phone(junk) is None


def test_region_decides_numbers_without_country_code() -> None:
    assert normalize_phone("027 482 9135", region="NZ") == "+64274829135"
    assert normalize_phone("027 482 9135", region="AU") == "+61274829135"  # a Sydney landline


def test_find_phones_in_free_text_skips_sizes_dates_and_order_numbers() -> None:
    text = (
        "Window 1810 x 1200, order SO-48812 on 26/03/2026 9:34.\n"
        "Mob 0419 552 803 | 电话：0433 906 217 | NZ +64 27 482 9135 | again 0419552803"
    )
    assert find_phones(text) == ["+61419552803", "+61433906217", "+64274829135"]
    assert find_phones("") == []


@pytest.mark.parametrize(
    ("written", "address"),
    [
        ("Rebecca.Lau@iCloud.com", "rebecca.lau@icloud.com"),
        ("Rebecca Lau <rebecca.lau@icloud.com>", "rebecca.lau@icloud.com"),
        ("mailto:a.b@example.com.au", "a.b@example.com.au"),
        (" x@y.co. ", "x@y.co"),
    ],
)
def test_normalize_email(written: str, address: str) -> None:
    assert normalize_email(written) == address


@pytest.mark.parametrize(
    "junk", ["", None, "not an email", "a@b", "a..b@c.com", "@c.com", "a@b@c.com"]
)
def test_not_an_email_is_none(junk: str | None) -> None:
    assert normalize_email(junk) is None
