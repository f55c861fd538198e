"""Offline extraction on the labelled dev corpus: phones, suburbs, products, sizes."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.intake.classify import classify_rules
from core.intake.extract import extract_rules
from tests.llm.corpus_views import replay, score

pytestmark = pytest.mark.corpus


def test_rules_extraction_accuracy_floor(corpus_dir: Path) -> None:
    scores = score(list(replay(corpus_dir, classify_rules, extract_rules)))
    assert scores.phones_labelled >= 15
    assert scores.phones_ok / scores.phones_labelled >= 0.9, scores.misses
    assert scores.phones_spurious <= 1, scores.misses
    assert scores.suburbs_ok / scores.suburbs_labelled >= 0.85, scores.misses
    assert scores.suburbs_spurious <= 2, scores.misses
    recall = scores.products_tp / (scores.products_tp + scores.products_fn)
    precision = scores.products_tp / max(1, scores.products_tp + scores.products_fp)
    assert recall >= 0.85 and precision >= 0.85, scores.misses
    assert scores.dims_ok / scores.dims_msgs >= 0.85, scores.misses


def test_nz_mobile_keeps_its_country_code(corpus_dir: Path) -> None:
    results = {r.label["file"]: r for r in replay(corpus_dir, classify_rules, extract_rules)}
    assert results["021.eml"].extraction.customer_phone == "+64274829135"
    assert results["013.eml"].extraction.customer_phone == "+61298714526"  # website-form landline
