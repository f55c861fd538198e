"""One Message-ID normalisation: Graph's ``internetMessageId`` and the parsed header agree.

Before, mail sync and intake each had their own rule and disagreed on the cases below: sync
looked a message up under one identity while the pipeline had stored it under another, so the
message was downloaded again each round, and ``<>`` became an identity of its own instead of
falling back to the raw bytes' synthetic id.
"""

from __future__ import annotations

import pytest

from core.intake.records import message_identity, synthetic_message_id
from core.mail.message_ids import normalise_many, normalise_message_id
from core.mail.parse import parse_message
from tests.mail.builders import build_raw

# (header value, identity) — the cases where the two former rules gave different answers first
CASES = [
    ("<<abc@example.com>>", "<abc@example.com>"),
    ("<abc@example.com> (Outlook)", "<abc@example.com>"),
    ("abc@example.com extra", "<abc@example.com>"),
    ("<>", None),
    ("<", None),
    # the cases they always agreed on
    ("<abc@example.com>", "<abc@example.com>"),
    ("  <abc@example.com>  ", "<abc@example.com>"),
    ("abc@example.com", "<abc@example.com>"),
    ("abc@example.com>", "<abc@example.com>"),
    ("<abc@example.com", "<abc@example.com>"),
    ("", None),
    (None, None),
]


@pytest.mark.parametrize(("value", "expected"), CASES)
def test_normalise_message_id(value: str | None, expected: str | None) -> None:
    assert normalise_message_id(value) == expected


@pytest.mark.parametrize(("value", "expected"), [c for c in CASES if c[0]])
def test_graph_id_and_parsed_header_give_the_same_identity(
    value: str, expected: str | None
) -> None:
    """What mail sync looks up (Graph's field) is what the pipeline stored (the header)."""
    raw = build_raw({"Message-ID": value})
    stored = message_identity(parse_message(raw).message_id, raw)
    assert stored == (expected or synthetic_message_id(raw))
    if expected is not None:
        assert normalise_message_id(value) == stored


def test_references_are_normalised_in_order_and_empties_dropped() -> None:
    refs = ["<a@x>", "<>", "b@x", "<<c@x>>", None]
    assert normalise_many(refs) == ["<a@x>", "<b@x>", "<c@x>"]
    assert normalise_many(None) == []
