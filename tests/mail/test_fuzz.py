"""Damaged and random input never crashes parsing or stripping (the pipeline must not lose mail)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.errors import MessageParseError
from core.mail.parse import parse_message
from core.mail.prefilter import prefilter
from core.mail.quotes import strip_quotes

FIXTURES = sorted((Path(__file__).parent / "fixtures").glob("*.eml"))
SEEDS = [p.read_bytes() for p in FIXTURES]
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _parse_or_reason(raw: bytes) -> None:
    try:
        msg = parse_message(raw)
    except MessageParseError as exc:
        assert exc.params.get("reason")
        return
    assert isinstance(msg.text, str)
    assert msg.date is None or msg.date.tzinfo is not None
    assert prefilter(msg, known_customer=False, own_addresses=["sales@aurorawindows.com.au"]) in (
        None,
        "bounce",
        "read_receipt",
        "calendar",
        "out_of_office",
        "auto_reply",
        "bulk",
    )


@FAST
@given(st.sampled_from(SEEDS), st.floats(min_value=0.05, max_value=1.0))
def test_truncated_fixtures_never_crash(seed: bytes, fraction: float) -> None:
    _parse_or_reason(seed[: max(1, int(len(seed) * fraction))])


@FAST
@given(
    st.sampled_from(SEEDS),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=20),
)
def test_byte_flips_never_crash(seed: bytes, flips: list[tuple[int, int]]) -> None:
    data = bytearray(seed)
    for pos, value in flips:
        data[pos % len(data)] = value
    _parse_or_reason(bytes(data))


@FAST
@given(st.binary(max_size=3000))
def test_random_bytes_never_crash(raw: bytes) -> None:
    _parse_or_reason(raw)


@FAST
@given(st.text(max_size=2000))
def test_strip_quotes_never_crashes_or_empties_new_text(text: str) -> None:
    result = strip_quotes(text)
    if text.strip():
        assert result.strip() or not any(ch.isalnum() for ch in text)
