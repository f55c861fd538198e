"""Owner edits moved to ``core.inquiry.edit``; this path stays for core/agent/tools.py."""

from __future__ import annotations

from core.inquiry.edit import (
    EDITABLE_FIELDS,
    InquiryEditor,
    InvalidField,
    normalise_value,
)

__all__ = ["EDITABLE_FIELDS", "InquiryEditor", "InvalidField", "normalise_value"]
