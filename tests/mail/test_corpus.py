"""The labelled dev corpus: parsing never fails, the pre-filter skips exactly the noise, and
quote stripping removes history while keeping new text for at least 95% of markers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from core.mail.parse import ParsedMessage, parse_message
from core.mail.prefilter import prefilter
from core.mail.quotes import strip_quotes

pytestmark = pytest.mark.corpus

OWN = ["sales@aurorawindows.com.au"]


def load(corpus_dir: Path) -> list[tuple[dict[str, Any], ParsedMessage]]:
    labels = json.loads((corpus_dir / "labels.json").read_text(encoding="utf-8"))
    return [(label, parse_message((corpus_dir / label["file"]).read_bytes())) for label in labels]


def test_every_corpus_file_parses_with_identity(corpus_dir: Path) -> None:
    items = load(corpus_dir)
    assert len(items) == 45
    for label, msg in items:
        assert msg.message_id == label["message_id"], label["file"]
        assert msg.text.strip(), label["file"]
        assert msg.date is not None and msg.date.utcoffset() is not None
        if label.get("customer_email") and label["disposition"] == "process":
            assert label["customer_email"] in (msg.from_addr, msg.reply_to), label["file"]


def test_prefilter_skips_exactly_the_labelled_noise(corpus_dir: Path) -> None:
    known: set[str] = set()
    wrong = []
    for label, msg in load(corpus_dir):
        rule = prefilter(msg, known_customer=msg.from_addr in known, own_addresses=OWN)
        if (rule is not None) != (label["disposition"] == "skip"):
            wrong.append((label["file"], label["disposition"], rule))
        if label.get("customer_email"):
            known.add(label["customer_email"])
    assert wrong == []


def test_prefilter_skip_does_not_depend_on_customer_status_except_bulk(corpus_dir: Path) -> None:
    for label, msg in load(corpus_dir):
        as_known = prefilter(msg, known_customer=True, own_addresses=OWN)
        as_stranger = prefilter(msg, known_customer=False, own_addresses=OWN)
        if as_stranger != "bulk":
            assert as_known == as_stranger, label["file"]


def test_quote_markers_at_least_95_percent(corpus_dir: Path) -> None:
    correct = total = 0
    failures = []
    for label, msg in load(corpus_dir):
        stripped = strip_quotes(msg.text)
        for marker in label["quoted_markers"]:
            total += 1
            correct += marker not in stripped
            if marker in stripped:
                failures.append((label["file"], "quoted", marker))
        for marker in label["new_text_markers"]:
            total += 1
            correct += marker in stripped
            if marker not in stripped:
                failures.append((label["file"], "new", marker))
    assert total >= 100
    assert correct / total >= 0.95, failures


def test_html_form_and_table_mail_read_as_lines(corpus_dir: Path) -> None:
    form = parse_message((corpus_dir / "013.eml").read_bytes())
    lines = {" ".join(line.split()) for line in form.text.splitlines()}
    assert any(line.startswith("Phone (02) 9871 4526") for line in lines)
    assert any(line.startswith("Address 4 Honeysuckle Pl") for line in lines)
    notice = parse_message((corpus_dir / "026.eml").read_bytes())
    assert any(
        " ".join(line.split()) == "Laminated 6.38 / 10.38 +6.0%"
        for line in notice.text.splitlines()
    )


def test_chinese_corpus_mail_is_decoded_and_tagged(corpus_dir: Path) -> None:
    for name in ("006.eml", "016.eml", "020.eml", "033.eml", "042.eml"):
        msg = parse_message((corpus_dir / name).read_bytes())
        assert msg.language == "zh", name
        assert "\ufffd" not in msg.text and "\ufffd" not in msg.subject, name
