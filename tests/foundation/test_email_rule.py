"""One rule for an e-mail address (#43): the inquiry form, the drafts and intake agree.

``bob@x.c`` used to be accepted by the detail form, refused by drafts and dropped by intake.
"""

from __future__ import annotations

import pytest

from core.inquiry.edit import InvalidField, normalise_value
from core.intake.normalize import normalize_email
from core.text.email_address import is_email_address

CASES = [
    ("jane@example.com", True),
    ("Jane.O'Neil+quotes@mail.example.com.au", True),
    ("wang@qq.com", True),
    ("bob@x.c", False),  # a one-letter top-level domain
    ("bob@@x.com", False),
    ("bob@x..com", False),
    ("bob..x@example.com", False),
    ("bob@-x.com", False),
    ("bob example@x.com", False),
    ("bob@x", False),
    ("", False),
]


@pytest.mark.parametrize(("address", "valid"), CASES)
def test_the_form_the_drafts_and_intake_give_one_verdict(address: str, valid: bool) -> None:
    assert is_email_address(address) is valid
    assert (normalize_email(address) is not None) is valid
    if not address:
        return
    if valid:
        assert normalise_value("customer_email", address, "AU") == address.lower()
    else:
        with pytest.raises(InvalidField):
            normalise_value("customer_email", address, "AU")
