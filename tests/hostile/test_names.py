"""Attachment names are safe to save on Windows: no device names, no over-long names."""

from __future__ import annotations

import pytest

from core.mail.filenames import MAX_NAME, safe_filename


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("CON", "_CON"),
        ("aux.pdf", "_aux.pdf"),
        ("Lpt1.txt", "_Lpt1.txt"),
        ("com1 .txt", "_com1 .txt"),
        ("CONTRACT.pdf", "CONTRACT.pdf"),
        ("../../etc/passwd", "passwd"),
        ("...", "attachment-1"),
        ("中文报价单.pdf", "中文报价单.pdf"),
    ],
)
def test_reserved_and_path_names_are_made_safe(name: str, expected: str) -> None:
    assert safe_filename(name, "attachment-1") == expected


def test_over_long_names_keep_their_extension() -> None:
    name = safe_filename("quote " * 100 + ".pdf", "attachment-1")
    assert len(name) <= MAX_NAME
    assert name.endswith(".pdf")
